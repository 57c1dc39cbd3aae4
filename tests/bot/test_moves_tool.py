"""``gammonbot moves``: JSON lines in, JSON lines out."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.moves_tool import MAX_LINE_BYTES, answer, json_line, request_lines
from gammon.position import Position
from tests.oracle import oracle_cases

START_ID = "4HPwATDgc/ABMA"


def test_lists_every_legal_play_with_the_resulting_position() -> None:
    case = next(case for case in oracle_cases() if case.position_id == START_ID)
    reply = answer(json.dumps({"position_id": START_ID, "dice": list(case.dice)}))
    ids = [entry["position_id"] for entry in reply["plays"]]
    assert set(ids) == case.result_ids
    assert len(ids) == len(case.result_ids)
    assert all(isinstance(entry["play"], str) and entry["play"] for entry in reply["plays"])


def test_a_roll_that_cannot_be_played_lists_nothing() -> None:
    case = next(case for case in oracle_cases() if not case.result_ids)
    reply = answer(json.dumps({"position_id": case.position_id, "dice": list(case.dice)}))
    assert reply == {"plays": []}


def test_checks_a_typed_play() -> None:
    reply = answer(json.dumps({"position_id": START_ID, "dice": [3, 1], "text": "8-5 6-5"}))
    assert reply["play"] == "8/5 6/5"
    opening_31 = next(
        case.result_ids
        for case in oracle_cases()
        if case.position_id == START_ID and sorted(case.dice) == [1, 3]
    )
    assert reply["position_id"] in opening_31


def test_accepts_gnubgs_two_steps_of_a_checker_borne_off() -> None:
    """GNU Backgammon wrote 6/off with 5-2 as "6/1 1/0": with checkers on 4 and 2 the 1/off is
    no legal step, but the checker's way off with the 2 first (6/4, 4/off) is. White has 3 on
    the ace, 2 on the deuce, 9 on the four point and 1 on the six."""
    request = {"position_id": "CIxy+Ak3/wkAAA", "dice": [5, 2], "text": "6/1 1/0"}
    reply = answer(json.dumps(request))
    assert reply["play"] == "6/off"
    after = Position.from_id(str(reply["position_id"]))  # Black on roll: White is .opponent
    assert after.opponent[:7] == (1, 3, 2, 0, 9, 0, 0)


def test_refusals_name_their_kind() -> None:
    def kind(text: str) -> str:
        request = {"position_id": START_ID, "dice": [3, 1], "text": text}
        return str(answer(json.dumps(request))["error"]["kind"])

    assert kind("8/5 ??") == "invalid"
    assert kind("8/4 6/5") == "illegal"
    assert kind("24/23") == "ambiguous"


def test_malformed_requests_are_answered_not_fatal() -> None:
    for line in [
        "",
        "not json",
        "[1, 2]",
        '{"dice": [3, 1]}',
        '{"position_id": "4HPwATDgc/ABMA", "dice": [3]}',
        '{"position_id": "4HPwATDgc/ABMA", "dice": [7, 1]}',
        '{"position_id": "nonsense", "dice": [3, 1]}',
        '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 1], "text": 5}',
    ]:
        reply = answer(line)
        assert reply["error"]["kind"] == "malformed", line
        assert reply["error"]["message"]


def test_the_command_answers_line_by_line_and_carries_on() -> None:
    requests = [
        {"position_id": START_ID, "dice": [3, 1], "text": "8/5 6/5"},
        "garbage",
        {"position_id": START_ID, "dice": [6, 6], "text": "24/18(2) 13/7(2)"},
    ]
    stdin = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    completed = subprocess.run(
        [sys.executable, "-m", "bot.cli", "moves"],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    replies = [json.loads(line) for line in completed.stdout.splitlines()]
    assert len(replies) == 3
    assert replies[0]["play"] == "8/5 6/5"
    assert replies[1]["error"]["kind"] == "malformed"
    assert replies[2]["play"] == "24/18(2) 13/7(2)"


def test_long_nardy_positions_with_the_variant_field() -> None:
    nardy_start = "AACA/z8AAID/Pw"  # fifteen on each head, each side in its own numbering
    listing = answer(
        json.dumps({"position_id": nardy_start, "dice": [3, 3], "variant": "long_nardy"})
    )
    assert sorted(entry["play"] for entry in listing["plays"]) == ["24/18(2)", "24/21 24/15"]
    checked = answer(
        json.dumps(
            {"position_id": nardy_start, "dice": [6, 5], "variant": "long_nardy", "text": "h/13"}
        )
    )
    assert checked["play"] == "24/13"
    refused = answer(json.dumps({"position_id": nardy_start, "dice": [6, 5], "variant": "chess"}))
    assert refused["error"]["kind"] == "malformed"


def _request(**fields: object) -> str:
    base: dict[str, object] = {"position_id": START_ID, "dice": [3, 1]}
    base.update(fields)
    return json.dumps(base)


# Lines no request can be read from: each must be answered as malformed.
MALFORMED_LINES: list[bytes] = [
    b"",
    b"   \t ",
    b"\r",
    b"\x00\x01\x02",
    b"\xff\xfe{}",
    b"\xc3\x28",
    b"\xed\xa0\x80",  # a surrogate written as UTF-8 bytes, which UTF-8 forbids
    b"\xef\xbb\xbf" + _request().encode(),  # a byte order mark
    bytes(byte for byte in range(256) if byte != ord("\n")),
    b"[" * 30_000 + b"]" * 30_000,
    b"[" * 60_000,
    b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
    b"x" * 200_000,
    b"[" * 300_000,
    b"1" * 5_000,
    b"1e999999",
    b"NaN",
    b"-Infinity",
    b'"\\ud800"',
    b"null",
    b"[1, 2]",
    b'{"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]',
    *(
        line.encode()
        for line in [
            _request(variant=["x"]),
            _request(variant={"a": 1}),
            _request(variant=None),
            _request(variant=5),
            _request(variant=True),
            _request(variant="chess"),
            _request(position_id=5),
            _request(position_id=None),
            _request(position_id=[START_ID]),
            _request(position_id={"id": START_ID}),
            _request(position_id=""),
            _request(position_id="\ud800"),
            _request(position_id="\ud800" * 14),
            _request(position_id="A" * 60_000),
            _request(dice="31"),
            _request(dice=31),
            _request(dice=None),
            _request(dice=[3]),
            _request(dice=[3, 1, 2]),
            _request(dice=[3.0, 1]),
            _request(dice=[True, 1]),
            _request(dice=[0, 1]),
            _request(dice=[-1, 2]),
            _request(dice=[7, 1]),
            _request(dice=[10**4000, 1]),
            _request(dice=[float("inf"), 1]),
            _request(dice=[float("nan"), 1]),
            _request(dice={"0": 3, "1": 1}),
            _request(dice=[[3], [1]]),
            _request(text=5),
            _request(text=["8/5 6/5"]),
            _request(text={"a": 1}),
            _request(text=True),
            '{"position_id": "4HPwATDgc/ABMA", "dice": [1e999, 1]}',
            '{"position_id": "4HPwATDgc/ABMA", "dice": [3, 1], "text": 5, "text": 6}',
        ]
    ),
]

# Well-formed requests whose play text is nonsense: answered with an error of some kind.
REFUSED_LINES: list[bytes] = [
    _request(text="\ud800").encode(),
    _request(text="\udfff\ud800 8/5").encode(),
    _request(text="x" * 60_000).encode(),
    _request(text="8/5\u00a06/5 \U0001f3b2").encode(),
]


def test_odd_json_in_every_field_is_malformed_not_fatal() -> None:
    for line in MALFORMED_LINES:
        reply = answer(line)
        assert reply["error"]["kind"] == "malformed", line[:80]
        assert reply["error"]["message"]


def test_the_crashes_once_reported_are_answered() -> None:
    for line in [
        _request(variant=["x"]),
        _request(variant={"a": 1}),
        "[" * 100_000 + "]" * 100_000,
        "[" * 30_000 + "]" * 30_000,
    ]:
        assert answer(line)["error"]["kind"] == "malformed"


def test_answers_with_a_lone_surrogate_still_encode_as_utf8() -> None:
    reply = {"error": {"kind": "invalid", "message": "cannot read \ud800 \u00e9"}}
    line = json_line(reply)
    assert json.loads(line.encode("utf-8").decode("utf-8")) == reply
    assert json_line({"play": "8/5 6/5 \u00e9"}) == '{"play": "8/5 6/5 \u00e9"}'


def test_an_overlong_line_is_cut_and_the_next_line_still_read() -> None:
    stream = io.BytesIO(b"x" * (3 * MAX_LINE_BYTES) + b"\n" + b"next\n" + b"last")
    lines = list(request_lines(stream))
    assert len(lines) == 3
    assert len(lines[0]) <= MAX_LINE_BYTES + 2
    assert lines[1:] == [b"next\n", b"last"]


def test_a_line_of_exactly_the_longest_size_is_read_whole() -> None:
    longest = b"{" + b" " * (MAX_LINE_BYTES - 2) + b"}"
    assert list(request_lines(io.BytesIO(longest + b"\r\n" + b"{}\n"))) == [
        longest + b"\r\n",
        b"{}\n",
    ]
    assert (
        answer(longest)["error"]["message"]
        == "position_id must be a string (a GNU Backgammon Position ID)"
    )
    assert "longer" in answer(longest + b" ")["error"]["message"]


def _is_one_answer(reply: dict[str, Any]) -> bool:
    if set(reply) == {"error"}:
        error = reply["error"]
        return error["kind"] in {"malformed", "invalid", "illegal", "ambiguous"} and bool(
            error["message"]
        )
    return set(reply) in ({"plays"}, {"play", "position_id"})


@given(st.one_of(st.text(), st.binary()))
def test_answer_never_raises_on_arbitrary_input(line: str | bytes) -> None:
    reply = answer(line)
    assert _is_one_answer(reply)
    json_line(reply).encode("utf-8")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "position_id": st.one_of(
                _JSON_VALUES, st.sampled_from([START_ID, "AACA/z8AAID/Pw"]), st.text()
            ),
            "dice": st.one_of(_JSON_VALUES, st.lists(st.integers(-1, 8), max_size=3)),
            "text": st.one_of(_JSON_VALUES, st.sampled_from(["8/5 6/5", "24/18(2)", "h/13"])),
            "variant": st.one_of(_JSON_VALUES, st.sampled_from(["backgammon", "long_nardy"])),
        },
    )
)
def test_answer_never_raises_on_odd_requests(fields: dict[str, object]) -> None:
    reply = answer(json.dumps(fields))
    assert _is_one_answer(reply)
    json_line(reply).encode("utf-8")


@pytest.mark.parametrize("io_encoding", ["utf-8:strict", "utf-8:surrogateescape"])
def test_the_command_answers_every_garbage_line_and_carries_on(io_encoding: str) -> None:
    listing = next(case for case in oracle_cases() if case.position_id == START_ID)
    valid = [
        _request(text="8/5 6/5").encode(),
        json.dumps({"position_id": START_ID, "dice": list(listing.dice)}).encode(),
    ]
    lines = [*MALFORMED_LINES, *REFUSED_LINES, *valid]
    assert all(b"\n" not in line for line in lines)
    completed = subprocess.run(
        [sys.executable, "-m", "bot.cli", "moves"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        check=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": io_encoding},
    )
    assert completed.stderr == b""
    replies = [json.loads(line) for line in completed.stdout.decode("utf-8").splitlines()]
    assert len(replies) == len(lines)
    for line, reply in zip(MALFORMED_LINES, replies, strict=False):
        assert reply["error"]["kind"] == "malformed", line[:80]
    refused = replies[len(MALFORMED_LINES) : len(MALFORMED_LINES) + len(REFUSED_LINES)]
    assert all(reply["error"]["message"] for reply in refused)
    checked, listed = replies[-2:]
    assert checked["play"] == "8/5 6/5"
    opening_31 = next(
        case.result_ids
        for case in oracle_cases()
        if case.position_id == START_ID and sorted(case.dice) == [1, 3]
    )
    assert checked["position_id"] in opening_31
    assert {entry["position_id"] for entry in listed["plays"]} == listing.result_ids
