"""``gammonbot verify FILE``: recompute every roll of a fair-dice transcript."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from bot.cli import main
from gammon.fair_dice import (
    FairDice,
    MalformedTranscriptError,
    Verification,
    load_transcript,
    transcript,
    verify_transcript,
)

SEED = bytes.fromhex("8087bd1c35acd1acc5ba9950fb1f9c76106cab029319a28f0ee5d330255f6b93")


def write(tmp_path: Path, data: object) -> str:
    path = tmp_path / "transcript.json"
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(path)


def test_a_true_transcript_verifies(tmp_path: Path) -> None:
    dice = FairDice(SEED, "alice-seed-42")
    data = transcript(dice, [dice.roll(nonce) for nonce in range(25)])
    result = CliRunner().invoke(main, ["verify", write(tmp_path, data)])
    assert result.exit_code == 0
    assert result.output.strip() == "OK: 25 rolls verified"


def test_a_changed_roll_is_named_and_fails(tmp_path: Path) -> None:
    dice = FairDice(SEED, "alice-seed-42")
    data = transcript(dice, [dice.roll(nonce) for nonce in range(10)])
    data["rolls"][2] = [1, 1]
    result = CliRunner().invoke(main, ["verify", write(tmp_path, data)])
    assert result.exit_code == 1
    assert "roll 3" in result.output


def test_a_malformed_file_gets_a_clear_message_and_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["verify", write(tmp_path, "{not json")])
    assert result.exit_code == 2
    assert "not a valid transcript" in result.output
    missing = CliRunner().invoke(main, ["verify", str(tmp_path / "missing.json")])
    assert missing.exit_code == 2


def test_a_transcript_whose_seed_misses_the_commitment_fails(tmp_path: Path) -> None:
    data = transcript(FairDice(SEED, "alice-seed-42"), [(2, 3)])
    data["server_seed"] = bytes(32).hex()
    result = CliRunner().invoke(main, ["verify", write(tmp_path, data)])
    assert result.exit_code == 1
    assert "commitment" in result.output


def _true_transcript(**changes: Any) -> dict[str, Any]:
    dice = FairDice(SEED, "alice-seed-42")
    data = transcript(dice, [dice.roll(nonce) for nonce in range(3)])
    data.update(changes)
    return data


def _without(key: str) -> dict[str, Any]:
    data = _true_transcript()
    del data[key]
    return data


ODD_VALUES: list[Any] = [None, True, 5, 1.5, 10**400, [], {}, ["x"], {"a": 1}, "\ud800"]

# Not transcripts: each must exit 2 with one line on stderr, never a traceback.
MALFORMED_TRANSCRIPTS: list[str] = [
    "",
    "   ",
    "{not json",
    "[]",
    "null",
    '"BGPF-1"',
    "NaN",
    "1" * 5_000,
    "[" * 100_000 + "]" * 100_000,
    '{"scheme": ' * 50_000,
    '{"a": ' * 100_000 + "1" + "}" * 100_000,
    json.dumps(_true_transcript(client_seed="\ud800")),
    json.dumps(_true_transcript(client_seed="alice\udfff")),
    json.dumps(_true_transcript(server_seed="\ud800")),
    json.dumps(_true_transcript(commitment="\ud800")),
    json.dumps(_true_transcript(scheme="\ud800")),
    json.dumps(_true_transcript(scheme="x" * 1_000_000)),
    json.dumps(_true_transcript(scheme=[[[[[[[[["deep"]]]]]]]]])),
    json.dumps(_true_transcript(rolls=[[10**4000, 1]])),
    json.dumps(_true_transcript(rolls=[[float("inf"), 1]])),
    json.dumps(_true_transcript(rolls=[[float("nan"), 1]])),
    json.dumps(_true_transcript(rolls=[[True, 1]])),
    json.dumps(_true_transcript(rolls=[[1.0, 2]])),
    json.dumps(_true_transcript(rolls=[[0, 1]])),
    json.dumps(_true_transcript(rolls=[[1, 2], [3]])),
    json.dumps(_true_transcript(rolls=[{"0": 1, "1": 2}])),
    json.dumps(_true_transcript(rolls="[[1, 2]]")),
    json.dumps(_true_transcript(commitment="aa")),
    json.dumps(_true_transcript(commitment="z" * 64)),
    json.dumps(_true_transcript(server_seed="00")),
    json.dumps(_true_transcript(server_seed=SEED.hex() + "00")),
    *(json.dumps(_without(key)) for key in ("scheme", "commitment", "server_seed", "rolls")),
    json.dumps(_without("client_seed")),
    *(
        json.dumps(_true_transcript(**{key: value}))
        for key in ("scheme", "commitment", "server_seed", "client_seed", "rolls")
        for value in ODD_VALUES
        if not (key == "rolls" and value == [])  # no rolls at all is a true transcript
    ),
]


def _assert_refused_as_unreadable(result: Any) -> None:
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize("text", MALFORMED_TRANSCRIPTS, ids=range(len(MALFORMED_TRANSCRIPTS)))
def test_a_malformed_transcript_exits_2_with_one_line(tmp_path: Path, text: str) -> None:
    result = CliRunner().invoke(main, ["verify", write(tmp_path, text)])
    _assert_refused_as_unreadable(result)


def test_undecodable_and_missing_files_exit_2(tmp_path: Path) -> None:
    for content in [b"\xff\xfe\x00{", b'{"scheme": "\xed\xa0\x80"}']:
        path = tmp_path / "transcript.json"
        path.write_bytes(content)
        _assert_refused_as_unreadable(CliRunner().invoke(main, ["verify", str(path)]))
    _assert_refused_as_unreadable(
        CliRunner().invoke(main, ["verify", str(tmp_path / "missing.json")])
    )


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(_true_transcript(client_seed="\ud800")),
        "[" * 100_000,
        json.dumps(_true_transcript(rolls=[[10**4000, 1]])),
    ],
    ids=["lone-surrogate", "deep-nesting", "huge-int"],
)
def test_the_real_command_prints_no_traceback(tmp_path: Path, text: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "bot.cli", "verify", write(tmp_path, text)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert "Traceback" not in completed.stderr
    assert len(completed.stderr.splitlines()) == 1
    assert completed.stderr.startswith("not a valid transcript: ")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@given(
    st.dictionaries(
        st.sampled_from(["scheme", "commitment", "server_seed", "client_seed", "rolls"]),
        _JSON_VALUES,
    )
)
def test_odd_fields_are_malformed_or_a_verdict_never_a_crash(changes: dict[str, Any]) -> None:
    outcome = _outcome(json.dumps(_true_transcript(**changes)))
    if isinstance(outcome, str):
        assert outcome
        assert "\n" not in outcome
    else:
        assert isinstance(outcome, Verification)


def _outcome(text: str) -> Verification | str:
    """The verdict on ``text``, or the message it was refused with as malformed."""
    try:
        return verify_transcript(load_transcript(text))
    except MalformedTranscriptError as error:
        return str(error)
