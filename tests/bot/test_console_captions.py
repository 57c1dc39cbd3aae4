"""A match in the console as people read it: each board starts with what was just played, the
dice's commitment is short where everyone reads it and whole behind /verify, and the end
offers [Rematch] (``alice: [Rematch]``)."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest

from bot.console_app.chat import PLATFORM, ConsoleChat
from bot.core.service import Core
from storage import Database, LoadedMatch
from tests.seeds import fixed_seeds

COMMITMENT = hashlib.sha256(hashlib.sha256(b"seed-0").digest()).hexdigest()  # the first seed's


@dataclass
class Console:
    core: Core
    chat: ConsoleChat
    out: io.StringIO

    async def line(self, text: str) -> str:
        mark = len(self.out.getvalue())
        await self.chat.line(text)
        return self.out.getvalue()[mark:]

    async def match_of(self, name: str) -> LoadedMatch | None:
        chat = await self.core.ports.repositories.chats.find_chat(PLATFORM, "main")
        user = await self.core.ports.repositories.users.find_user(PLATFORM, name)
        assert chat is not None
        assert user is not None
        return await self.core.ports.repositories.matches.active_match_for(chat.id, user.id)


@pytest.fixture
async def console(migrated_url: str) -> AsyncIterator[Console]:
    database = Database(migrated_url)
    core = Core(database, render_images=False, server_seeds=fixed_seeds())
    out = io.StringIO()
    chat = ConsoleChat(core, out)
    chat.session = ""  # the same event ids, so the same client seeds, every run
    yield Console(core, chat, out)
    await database.close()


def _roll(loaded: LoadedMatch) -> str:
    assert loaded.state.dice is not None
    return f"{max(loaded.state.dice)}-{min(loaded.state.dice)}"


async def test_the_commitment_is_short_in_the_chat_and_whole_behind_verify(
    console: Console,
) -> None:
    offer = await console.line("alice: /challenge @bob 1")
    assert f"Fair dice, commitment {COMMITMENT[:12]}… (/verify shows the details)" in offer
    assert COMMITMENT not in offer
    before = await console.line("bob: /verify")
    assert before.startswith("[bot → only bob]\nChallenge 1 is waiting for an answer.\n")
    assert f"(SHA-256 of the secret server seed): {COMMITMENT}." in before
    assert "/seed TEXT" in before
    started = await console.line("bob: [Accept]")
    assert COMMITMENT not in started
    assert "Client seeds" not in started
    during = await console.line("alice: /verify")
    assert COMMITMENT in during
    assert re.search(
        "Client seeds: alice “\u2068console:console-\\d+\u2069”, "
        "bob “\u2068console:console-\\d+\u2069”",
        during,
    )


async def test_each_board_starts_with_the_play_that_led_to_it(console: Console) -> None:
    await console.line("alice: /challenge @bob 1")
    opened = await console.line("bob: [Accept]")
    loaded = await console.match_of("alice")
    assert loaded is not None
    mover = "alice" if loaded.state.turn == 0 else "bob"
    other = "bob" if mover == "alice" else "alice"
    assert f"\n{mover} to play {_roll(loaded)}: /move …\n" in opened
    play = str(loaded.state.legal_plays()[0])
    board = await console.line(f"{mover}: /move {play}")
    # One message: the play with its roll, then whom the board waits for (1 point: no cube, so
    # the roll is automatic).
    assert board.count("[bot → ") == 1
    after = await console.match_of("alice")
    assert after is not None
    assert f"\n{mover} rolled {_roll(loaded)} and played {play}.\n{other} to " in board


async def test_the_end_offers_a_rematch_that_the_other_player_accepts(console: Console) -> None:
    await console.line("alice: /challenge @bob 1")
    await console.line("bob: [Accept]")
    loaded = await console.match_of("alice")
    assert loaded is not None
    mover = "alice" if loaded.state.turn == 0 else "bob"
    other = "bob" if mover == "alice" else "alice"
    await console.line(f"{mover}: /resign")
    await console.line(f"{mover}: [Resign]")
    end = await console.line(f"{other}: [Accept]")
    assert f"Match over: {other} wins 1–0." in end
    assert "Check the dice: open the attached match-1-check.html in a browser." in end
    assert "match-1-transcript.json holds the server seed and every roll." in end
    assert "gammonbot verify" not in end
    assert "\n[Rematch]\n" in end
    offered = await console.line(f"{mover}: [Rematch]")
    assert f"{mover} offers {other} a rematch: a 1-point match of backgammon" in offered
    assert "[Accept] [Decline] [Cancel]" in offered
    started = await console.line(f"{other}: [Rematch]")
    assert f"Match 2: {mover} vs {other}, 1-point match" in started
    assert await console.match_of("alice") is not None
