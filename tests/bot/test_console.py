"""The console chat: NAME: TEXT lines in, printed messages out, a `--` after each line."""

from __future__ import annotations

import asyncio
import errno
import io
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.console_app.chat import ConsoleChat
from bot.console_app.main import StdinLines
from bot.core.service import Core
from storage import Database
from tests.bot.scripted import Room
from tests.seeds import fixed_seeds

ROOT = Path(__file__).resolve().parents[2]


def console_environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of a console on a fresh database in ``tmp_path``, without tokens."""
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'console.db'}",
        "CONSOLE_IMAGE_DIR": str(tmp_path / "boards"),
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    environment.pop("DISCORD_TOKEN", None)
    environment.pop("TELEGRAM_TOKEN", None)
    return environment


def run_console(tmp_path: Path, lines: list[str], command: str = "console", **extra: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-m", "bot.cli", command],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=console_environment(tmp_path, **extra),
        timeout=120,
        check=True,
    )
    return completed.stdout


def run_console_bytes(
    tmp_path: Path, data: bytes, **extra: str
) -> subprocess.CompletedProcess[bytes]:
    """The console fed raw bytes; its exit status is the caller's to check."""
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "console"],
        input=data,
        capture_output=True,
        cwd=tmp_path,
        env=console_environment(tmp_path, **extra),
        timeout=120,
        check=False,
    )


def test_a_challenge_accepted_by_button_starts_a_match(tmp_path: Path) -> None:
    output = run_console(
        tmp_path,
        ["alice: /challenge @bob 1", "bob: [Accept]", "carol: /move 8/5 6/5", "#other bob: /board"],
    )
    blocks = output.split("--\n")
    assert len(blocks) == 5  # one block per input line, and what follows the last marker
    assert "alice challenges bob" in blocks[0]
    assert "[Accept] [Decline] [Cancel]" in blocks[0]
    assert "Fair dice, commitment " in blocks[1]
    assert "Position ID: " in blocks[1]
    assert " 13 14 15 16 17 18" in blocks[1]  # the ASCII board
    assert "(picture: " in blocks[1]
    assert list((tmp_path / "boards").glob("board-*.png"))
    assert "only carol" in blocks[2]
    assert "You have no match in this chat" in blocks[3]


def test_a_resigned_match_is_rated_and_stats_and_top_answer(tmp_path: Path) -> None:
    """Whoever opens resigns at once (the console's dice are random); the other accepts."""
    resign_either = [
        "alice: /resign",
        "alice: [Resign]",
        "bob: [Accept]",
        "bob: /resign",
        "bob: [Resign]",
        "alice: [Accept]",
    ]
    lines = ["alice: /challenge @bob 1", "bob: [Accept]", *resign_either]
    output = run_console(tmp_path, [*lines, "alice: /stats", "carol: /top"])
    blocks = output.split("--\n")
    assert "Match over" in output
    assert "Ratings: " in output
    stats = blocks[len(lines)]
    assert "alice — backgammon" in stats
    assert "Everywhere: 1 played" in stats
    top = blocks[len(lines) + 1]
    assert "Top 10 · backgammon · this chat" in top
    assert "(picture: " in top


def test_run_without_tokens_opens_the_console(tmp_path: Path) -> None:
    output = run_console(tmp_path, ["alice: /help"], command="run")
    assert "gammonbot plays backgammon" in output
    assert output.endswith("--\n")


def test_unreadable_lines_get_a_hint(tmp_path: Path) -> None:
    output = run_console(tmp_path, ["hello there", "alice: [Nope]", "alice: plain text"])
    assert "write NAME: TEXT" in output
    assert "no [Nope] button" in output
    assert "moves start with /move" in output


def test_an_undecodable_byte_becomes_a_replacement_character(tmp_path: Path) -> None:
    # UTF-8 mode reads stdin with surrogateescape: the name once reached SQLite as a lone
    # surrogate and ended the console with a UnicodeEncodeError.
    completed = run_console_bytes(tmp_path, b"al\xffice: /help\n", PYTHONUTF8="1")
    assert b"Traceback" not in completed.stderr, completed.stderr.decode(errors="replace")
    assert completed.returncode == 0
    output = completed.stdout.decode("utf-8")
    assert "[bot → only al\ufffdice]" in output
    assert "gammonbot plays backgammon" in output
    assert output.endswith("--\n")


def test_output_the_terminal_cannot_encode_is_escaped(tmp_path: Path) -> None:
    completed = run_console_bytes(tmp_path, b"alice: /help\n", PYTHONIOENCODING="ascii")
    assert b"Traceback" not in completed.stderr, completed.stderr.decode(errors="replace")
    assert completed.returncode == 0
    assert b"[bot \\u2192 only alice]" in completed.stdout


async def test_a_mention_is_no_longer_than_a_name(room: Room) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output)
    await chat.line("alice: /challenge @" + "b" * 33 + " 3")
    assert "b" * 33 not in output.getvalue()  # no user of that name: no mention
    await chat.line("alice: /challenge @" + "c" * 32 + " 3")
    assert "@" + "c" * 32 in output.getvalue()


async def test_input_lines_are_decoded_leniently_across_reads() -> None:
    reading, writing = os.pipe()
    try:
        lines = StdinLines(reading, "utf-8")
        os.write(writing, b"a\xe2\x82")  # a character split between two reads
        first = asyncio.ensure_future(lines.readline())
        await asyncio.sleep(0.05)
        os.write(writing, b"\xac\r\nb\rc\xff")
        os.close(writing)
        assert await first == "a€\n"
        assert [await lines.readline() for _ in range(3)] == ["b\n", "c\ufffd", ""]
    finally:
        os.close(reading)


async def test_a_finished_game_is_replayed_and_stepped_in_the_console(
    tmp_path: Path, migrated_url: str
) -> None:
    database = Database(migrated_url)
    core = Core(database, server_seeds=fixed_seeds())
    output = io.StringIO()
    chat = ConsoleChat(core, output, image_dir=tmp_path / "boards")
    await chat.line("anna: /challenge @bob 3")
    await chat.line("bob: [Accept]")
    loaded = await core.ports.repositories.matches.load_match(1)
    mover = ("anna", "bob")[loaded.state.player_on_roll]
    other = ("anna", "bob")[1 - loaded.state.player_on_roll]
    await chat.line(f"{mover}: /move {loaded.state.legal_plays()[0]}")
    await chat.line(f"{other}: /double")
    await chat.line(f"{mover}: [Drop]")
    assert "Game 1 of match 1 (anna vs bob), play by play." in output.getvalue()
    await chat.line("carol: /replay")
    await chat.line("carol: [next]")
    await chat.line("carol: [▶]")
    await database.close()
    shown = output.getvalue()
    assert "Replay of match 1, game 1: 1 of 4" in shown  # the last game that has ended
    assert "Replay of match 1, game 1: 2 of 4" in shown
    assert "Replay of match 1, game 1: 3 of 4" in shown  # the double
    assert "[⏮] [◀] [▶] [⏭]" in shown
    animations = sorted((tmp_path / "boards").glob("replay-*.gif"))
    assert len(animations) == 2  # at the end of the game, and for /replay
    assert animations[0].read_bytes().startswith(b"GIF89a")


async def test_a_picture_that_cannot_be_written_leaves_the_text_board(
    tmp_path: Path,
    migrated_url: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """No space left, or no file left to open: the console says so, shows the text and the
    text board, logs one line, and goes on (it once ended with "Too many open files")."""
    database = Database(migrated_url)
    core = Core(database, server_seeds=fixed_seeds())
    output = io.StringIO()
    chat = ConsoleChat(core, output, image_dir=tmp_path / "boards")
    await chat.line("anna: /challenge @bob 1")

    def full(self: Path, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))

    monkeypatch.setattr(Path, "write_bytes", full)
    with caplog.at_level(logging.WARNING, logger="bot.console_app.chat"):
        await chat.line("bob: [Accept]")
    shown = output.getvalue()
    assert "(picture not saved: No space left on device)" in shown
    assert " 13 14 15 16 17 18" in shown  # the text board
    assert len(caplog.records) == 1
    assert "board-0001.png" in caplog.records[0].getMessage()
    monkeypatch.undo()
    await chat.line("anna: /board")
    await database.close()
    assert "(picture: " in output.getvalue()[len(shown) :]
