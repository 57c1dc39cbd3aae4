"""Starting a match: one transaction from the accept to the opening roll, and a match that an
older version left before its opening roll is rolled as soon as anyone touches it."""

from __future__ import annotations

import asyncio
import io
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import IO

import pytest
import sqlalchemy as sa

from bot.console_app.chat import ConsoleChat
from bot.core.service import Core
from gammon.flow import Phase
from gammon.match_rules import MatchRules
from storage import Database
from storage.schema import challenges, match_events, matches
from tests.bot.scripted import PLATFORM, Room
from tests.storage.players import create_match


async def _ids(room: Room, *names: str) -> tuple[int, list[int]]:
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    users = [
        (await room.stores.users.upsert_user(PLATFORM, name, name.title())).id for name in names
    ]
    return chat.id, users


async def test_the_accept_writes_match_seats_and_opening_roll_together(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    engine = room.stores.matches.engine
    match = (await engine.read(sa.select(matches))).one()._mapping
    events = (await engine.read(sa.select(match_events.c.seq))).scalars()
    offer = (await engine.read(sa.select(challenges))).one()._mapping
    assert match["version"] == 1  # the opening roll
    assert events == list(range(match["version"]))
    _chat, (bob,) = await _ids(room, "bob")
    assert match["turn_user_id"] == bob  # with the fixed seeds Bob opens
    assert (offer["state"], offer["match_id"]) == ("accepted", match["id"])
    assert match["snapshot_version"] == match["version"]


async def test_a_match_left_before_its_opening_roll_is_rolled_by_board(room: Room) -> None:
    chat_id, (anna, bob) = await _ids(room, "anna", "bob")
    stuck = await create_match(
        room.stores.matches,  # what a crash after the old first write left
        chat_id=chat_id,
        player_ids=(anna, bob),
        rules=MatchRules(length=3),
        server_seed=bytes(32),
        client_seeds=("a", "b"),
        move_time_limit=3600,
    )
    assert stuck.info.version == 0
    listed = await room.command("anna", "/matches")
    assert "waiting for the opening roll" in listed[0].text
    board = await room.command("anna", "/board")
    texts = [message.text for message in board]
    # The seeds are fixed (server seed of zeros, client seeds "a" and "b"): Bob opens.
    # What the roll did is the board's first line, then whom it waits for.
    assert board[-1].text.startswith(
        "Opening roll: Anna 1, Bob 6. Bob starts with 6-1.\nBob to play 6-1: /move …\n"
    ), texts
    assert not any("went wrong" in text for text in texts)
    resumed = await room.stores.matches.load_match(stuck.info.id)
    assert resumed.state.phase is Phase.MOVING
    assert resumed.info.turn_user_id == bob


async def test_every_command_moves_a_match_on_from_before_its_opening_roll(room: Room) -> None:
    chat_id, (anna, bob) = await _ids(room, "anna", "bob")
    rules = MatchRules(length=3)
    stuck = await create_match(
        room.stores.matches,
        chat_id=chat_id,
        player_ids=(anna, bob),
        rules=rules,
        server_seed=bytes(32),
        client_seeds=("a", "b"),
        move_time_limit=60,
    )
    # The time limit has run out long ago: still nobody may claim a match nobody rolled in.
    room.core.clock = lambda: stuck.info.created_at + timedelta(days=9)
    claim = await room.command("bob", "/claim")
    assert not any("wins the match" in message.text for message in claim)
    assert any(message.text.startswith("Opening roll: ") for message in claim)
    loaded = await room.stores.matches.load_match(stuck.info.id)
    assert loaded.info.status == "active"
    assert loaded.state.phase is Phase.MOVING
    resign = await room.command("anna", "/resign")
    assert [button.label for button in resign[0].buttons] == ["Resign", "Keep playing"]
    again = await room.command("anna", "/challenge @carl 3")
    assert "already playing a match in this chat" in again[0].text


ROOT = Path(__file__).resolve().parents[2]


def _console(tmp_path: Path, pause: float = 0) -> subprocess.Popen[str]:
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")
    }
    environment |= {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'bot.db'}",
        "CONSOLE_IMAGE_DIR": str(tmp_path / "boards"),
        "PYTHONPATH": str(ROOT),
        "GAMMONBOT_TEST_PAUSE_AFTER_COMMIT": str(pause),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "console"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=environment,
        start_new_session=True,  # killed with its drawing processes, as a group
    )


def _talk(tmp_path: Path, lines: list[str]) -> str:
    console = _console(tmp_path)
    output, _errors = console.communicate("".join(line + "\n" for line in lines), timeout=120)
    assert console.returncode == 0, _errors
    return output


def _challenge(tmp_path: Path) -> None:
    """Alice challenges Bob in the console's main chat, on the console's database: the line
    handled in this process as the console handles it (a console's start costs seconds)."""

    async def challenge() -> None:
        database = Database(f"sqlite:///{tmp_path / 'bot.db'}")
        await database.migrate()
        try:
            chat = ConsoleChat(Core(database, render_images=False), io.StringIO())
            await chat.line("alice: /challenge @bob 3")
        finally:
            await database.close()

    asyncio.run(challenge())


def _lines_into(stream: IO[str], lines: queue.Queue[str]) -> None:
    for line in stream:
        lines.put(line)


def _kill_after_commits(tmp_path: Path, line: str, commits: int) -> None:
    """Send ``line`` and SIGKILL the console right after the ``commits``-th commit it makes
    for that line (or when it has answered, if it needs fewer). The commits of the console's
    start (the migrations, the clock) and of its first line are not counted: ``line`` is sent
    once an unreadable line in another chat has been answered."""
    console = _console(tmp_path, pause=0.5)
    assert console.stdin is not None
    assert console.stdout is not None
    assert console.stderr is not None
    said: queue.Queue[str] = queue.Queue()
    for stream in (console.stdout, console.stderr):
        threading.Thread(target=_lines_into, args=(stream, said), daemon=True).start()
    deadline = time.monotonic() + 60

    def heard() -> str | None:
        try:
            return said.get(timeout=max(0, deadline - time.monotonic()))
        except queue.Empty:
            return None

    console.stdin.write("#elsewhere hello\n")
    console.stdin.flush()
    while (started := heard()) not in ("--\n", None):
        pass
    assert started == "--\n", "the console never answered its first line"
    console.stdin.write(line + "\n")
    console.stdin.flush()
    seen = 0
    while seen < commits and (heard_now := heard()) is not None:
        if heard_now == "--\n":
            time.sleep(1)  # answered with fewer commits: the last one's pause, then the kill
            break
        seen += heard_now.startswith("gammonbot-test: committed")
    os.killpg(console.pid, signal.SIGKILL)
    console.wait(timeout=30)


@pytest.mark.parametrize("commits", [1, 2])
def test_killed_right_after_any_write_of_an_accept_no_match_is_stuck(
    tmp_path: Path, commits: int
) -> None:
    _challenge(tmp_path)
    _kill_after_commits(tmp_path, "bob: /accept", commits)
    with sqlite3.connect(tmp_path / "bot.db") as database:
        rows = database.execute(
            "SELECT m.version, m.turn_user_id, c.state, c.match_id FROM challenges c "
            "LEFT JOIN matches m ON m.id = c.match_id"
        ).fetchall()
    assert len(rows) == 1
    version, turn, state, match_id = rows[0]
    if state == "open":  # killed before the accept was written: it can simply be repeated
        assert match_id is None
        _talk(tmp_path, ["bob: /accept"])
    else:  # written: all of it, the opening roll included
        assert (state, version is not None and version >= 1, turn is not None) == (
            "accepted",
            True,
            True,
        )
    after = _talk(tmp_path, ["alice: /board", "bob: /resign"])
    assert "went wrong" not in after
    assert "Position ID: " in after
    assert "[Resign] [Keep playing]" in after
