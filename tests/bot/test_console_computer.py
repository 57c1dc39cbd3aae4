"""Playing against the bot in the console: it plays as ``gammonbot``; /play offers the match
with its dice commitment and ``[Start]`` begins it; the bot's turns are printed in the output
of the person's line; the analysis picture is written and its path printed."""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.console_app.chat import PLATFORM, ConsoleChat
from bot.core.computer.computer import Computer
from bot.core.service import Core
from gammon.flow import Phase
from storage import Database, LoadedMatch
from tests.seeds import fixed_seeds

# The bot's turn is told on the first line of the board after it, after the person's play.
BOT_NOTE = re.compile(r"(?:^|\. )gammonbot rolled (\d)-(\d) and played \S", re.MULTILINE)


@dataclass
class Console:
    core: Core
    chat: ConsoleChat
    out: io.StringIO
    pictures: Path

    async def line(self, text: str) -> str:
        """What the console prints for one input line."""
        mark = len(self.out.getvalue())
        await self.chat.line(text)
        return self.out.getvalue()[mark:]

    async def match_of(self, name: str) -> LoadedMatch | None:
        chat = await self.core.ports.repositories.chats.find_chat(PLATFORM, "main")
        user = await self.core.ports.repositories.users.find_user(PLATFORM, name)
        if chat is None or user is None:
            return None
        return await self.core.ports.repositories.matches.active_match_for(chat.id, user.id)


@pytest.fixture
async def console(tmp_path: Path, migrated_url: str) -> AsyncIterator[Console]:
    """A console whose engine works in threads; it draws no boards, but the analysis picture."""
    database = Database(migrated_url)
    core = Core(
        database,
        render_images=False,
        server_seeds=fixed_seeds(),
        computer=Computer(processes=False),
    )
    out = io.StringIO()
    pictures = tmp_path / "pictures"
    try:
        yield Console(core, ConsoleChat(core, out, image_dir=pictures), out, pictures)
    finally:
        core.ports.workers.computer.close()
        await database.close()


async def test_a_whole_match_against_the_bot_then_its_analysis(console: Console) -> None:
    offer = await console.line("anna: /play 1 expert")
    assert "anna challenges gammonbot (expert) to a 1-point match" in offer
    seed = hashlib.sha256(b"seed-0").hexdigest()  # the first of the fixed server seeds
    # Its commitment, in short, with the offer: /verify shows it whole.
    assert f"commitment {hashlib.sha256(bytes.fromhex(seed)).hexdigest()[:12]}…" in offer
    assert "\n[Start] [Cancel]\n" in offer
    assert await console.match_of("anna") is None
    output = await console.line("anna: [Start]")
    assert "Match 1: anna vs gammonbot (expert), 1-point match" in output
    bot_turns = 0
    for _turn in range(200):
        loaded = await console.match_of("anna")
        if loaded is None:
            break
        # The bot has answered already: the match waits for anna (seat 0), and the last
        # message printed is her board.
        assert (loaded.state.phase, loaded.state.turn) == (Phase.MOVING, 0)
        last = output.rsplit("[bot → ", 1)[-1]
        assert last.startswith("#main]\n"), last  # she is at the table: no ping
        assert "\nanna to play " in last, last
        play = loaded.state.legal_plays()[0]
        output = await console.line(f"anna: /move {play}")
        notes = list(BOT_NOTE.finditer(output))
        if notes:
            bot_turns += 1
            # On its board, in the same output: the line after it says whom it waits for.
            assert "[bot → #main]" not in output[notes[-1].end() :]
            assert re.search(r"\n(anna to play |Match over: )", output[notes[-1].end() :])
    else:
        raise AssertionError("the match did not end")
    assert bot_turns >= 2
    end = output.rsplit("[bot → ", 1)[-1]
    assert end.startswith("#main]\n")  # the bot does not mention itself
    assert "\nMatch over: " in end
    transcript = console.pictures / "match-1-transcript.json"  # the files of the end
    assert f"(file: {transcript})" in end
    assert seed in transcript.read_text()  # the seed is revealed

    mark = len(console.out.getvalue())
    for message in await console.core.ports.analyst.work():
        console.chat.show(message)
    shown = console.out.getvalue()[mark:]
    assert shown.startswith("[bot → #main]\nAnalysis of match 1 ")
    picture = console.pictures / "match-1-analysis.png"
    assert f"(picture: {picture})" in shown
    assert picture.read_bytes().startswith(b"\x89PNG")
    assert f"(file: {console.pictures / 'match-1-analysis.txt'})" in shown
    assert not list(console.pictures.glob("board-*.png"))  # no boards drawn: only the chart


async def test_challenging_gammonbot_offers_a_match_against_the_bot(console: Console) -> None:
    offer = await console.line("anna: /challenge @gammonbot 1")
    assert "[Accept]" not in offer  # nobody else accepts: anna starts it
    assert "[Start]" in offer
    output = await console.line("anna: [Start]")
    assert "Match 1: anna vs gammonbot (expert), 1-point match" in output
    loaded = await console.match_of("anna")
    assert loaded is not None
    assert loaded.info.bot_level == "expert"


async def test_nobody_types_as_the_bot(console: Console) -> None:
    output = await console.line("gammonbot: /play 1")
    assert output.startswith("? gammonbot is the bot")
    assert await console.core.ports.repositories.users.find_user(PLATFORM, "gammonbot") is None
