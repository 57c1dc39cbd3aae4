"""``gammonbot moves``: JSON lines in, JSON lines out."""

from __future__ import annotations

import json
import subprocess
import sys

from bot.moves_tool import answer
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
