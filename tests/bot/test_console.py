"""The console chat: NAME: TEXT lines in, printed messages out, a `--` after each line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_console(tmp_path: Path, lines: list[str], command: str = "console") -> str:
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'console.db'}",
        "CONSOLE_IMAGE_DIR": str(tmp_path / "boards"),
    }
    environment.pop("DISCORD_TOKEN", None)
    environment.pop("TELEGRAM_TOKEN", None)
    completed = subprocess.run(
        [sys.executable, "-m", "bot.cli", command],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**environment, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=True,
    )
    return completed.stdout


def test_a_challenge_accepted_by_button_starts_a_match(tmp_path: Path) -> None:
    output = run_console(
        tmp_path,
        ["alice: /challenge @bob 1", "bob: [Accept]", "carol: /move 8/5 6/5", "#other bob: /board"],
    )
    blocks = output.split("--\n")
    assert len(blocks) == 5  # one block per input line, and what follows the last marker
    assert "alice challenges bob" in blocks[0]
    assert "[Accept] [Decline] [Cancel]" in blocks[0]
    assert "Dice commitment" in blocks[1]
    assert "Position ID: " in blocks[1]
    assert " 13 14 15 16 17 18" in blocks[1]  # the ASCII board
    assert "(picture: " in blocks[1]
    assert list((tmp_path / "boards").glob("board-*.png"))
    assert "only carol" in blocks[2]
    assert "You have no match in this chat" in blocks[3]


def test_run_without_tokens_opens_the_console(tmp_path: Path) -> None:
    output = run_console(tmp_path, ["alice: /help"], command="run")
    assert "gammonbot plays backgammon" in output
    assert output.endswith("--\n")


def test_unreadable_lines_get_a_hint(tmp_path: Path) -> None:
    output = run_console(tmp_path, ["hello there", "alice: [Nope]", "alice: plain text"])
    assert "write NAME: TEXT" in output
    assert "no [Nope] button" in output
    assert "moves start with /move" in output
