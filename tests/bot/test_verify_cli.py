"""``gammonbot verify FILE``: recompute every roll of a fair-dice transcript."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from bot.cli import main
from gammon.fair_dice import FairDice, transcript

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
