"""Console users who take part in a tournament (issue 39's whole-tournament tests): they open
it, join, press the [Start] of the pairings announced to them and type their turns, on
whichever process (a :class:`ConsoleChat` and its core) is running."""

from __future__ import annotations

import io
import random

from bot.console_app.chat import PLATFORM, ConsoleChat
from bot.core.service import Core
from storage import TournamentRecord
from tests.tournament_runs import next_turn


class ConsolePlayers:
    """Console users who type into one console's output: the first of ``names`` organises
    (an administrator of the console's chats), every pairing's second player presses its
    [Start], and both type their turns, /roll and a random legal /move (the bot's messages
    say whose turn it is; the test reads it from the database instead of parsing boards).
    ``restarted`` moves them to a new process, which prints into the same output."""

    def __init__(self, core: Core, names: tuple[str, ...], session: str, seed: int) -> None:
        self.names = names
        self.output = io.StringIO()
        self.core = core
        self.chat = ConsoleChat(core, self.output, session=session, admins=names[:1])
        self.rng = random.Random(seed)
        self.started: list[tuple[str, str]] = []

    def restarted(self, core: Core, session: str) -> None:
        self.core = core
        self.chat = ConsoleChat(core, self.output, session=session, admins=self.names[:1])

    async def line(self, line: str) -> str:
        """Type a line: what the bot printed for it."""
        before = len(self.output.getvalue())
        await self.chat.line(line)
        return self.output.getvalue()[before:]

    async def open(self, opening: str) -> TournamentRecord:
        """The organiser opens the tournament with ``/tournament new OPENING``, three players
        join with [Join] and the others with /tournament join, and the organiser starts it."""
        await self.line(f"{self.names[0]}: /tournament new {opening}")
        for name in self.names[1:4]:
            await self.line(f"{name}: [Join]")
        for name in self.names[4:]:
            await self.line(f"{name}: /tournament join")
        await self.line(f"{self.names[0]}: /tournament start")
        stores = self.core.ports.repositories
        where = await stores.chats.upsert_chat(PLATFORM, "main")
        (running,) = await stores.tournaments.live_in_chat(where.id)
        return running

    def unstarted(self) -> list[tuple[str, str]]:
        """The pairings announced in the output, in order, that nobody has started."""
        return [pair for pair in announced(self.output.getvalue()) if pair not in self.started]

    async def start(self, pair: tuple[str, str], button: str = "[Start]") -> None:
        begun = await self.line(f"{pair[1]}: {button}")
        assert ", match " in begun, begun
        self.started.append(pair)

    async def step(self, names: tuple[str, str]) -> bool:
        """One typed turn of the match the two play here: False once it has ended."""
        stores = self.core.ports.repositories
        chat = await stores.chats.upsert_chat(PLATFORM, "main")
        first = await stores.users.upsert_user(PLATFORM, names[0], names[0])
        turn = await next_turn(stores, chat.id, first.id, self.rng)
        if turn is None:
            return False
        mover = await stores.users.get_user(turn[0])
        assert mover.platform_user_id in names
        await self.chat.line(f"{mover.platform_user_id}: {turn[1]}")
        return True

    async def play(self, names: tuple[str, str], limit: int = 2000) -> None:
        for _step in range(limit):
            if not await self.step(names):
                return
        raise AssertionError("the match did not end")


def announced(text: str) -> list[tuple[str, str]]:
    """The pairings announced in the console's output, in order: the mentions above each
    announcement with [Start]."""
    pairs: list[tuple[str, str]] = []
    blocks = text.split("[bot → #main]")
    for block in blocks:
        if "Commitment to its dice" in block and "[Start]" in block:
            first, second = block.split("\n", 1)[0].split()
            pairs.append((first.lstrip("@"), second.lstrip("@")))
    return pairs


def end_told(text: str, name: str) -> str:
    """The message that told the tournament's end (once, and nothing after it)."""
    (end,) = text.split(f"{name} is over.\n")[1:]
    return end.split("[bot → ")[0]
