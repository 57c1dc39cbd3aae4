"""Console users who take part in a tournament (issue 39's whole-tournament tests): they press
the [Start] of the pairings announced to them and type their turns, on whichever process (a
:class:`ConsoleChat` and its core) is running."""

from __future__ import annotations

import random

from bot.console_app.chat import PLATFORM, ConsoleChat
from bot.core.service import Core
from tests.tournament_runs import next_turn


class ConsolePlayers:
    """Console users who type their turns: /roll, and a random legal /move (the bot's
    messages say whose turn it is; the test reads it from the database instead of parsing
    boards). ``restarted`` moves them to a new process."""

    def __init__(self, core: Core, chat: ConsoleChat, seed: int) -> None:
        self.core = core
        self.chat = chat
        self.rng = random.Random(seed)

    def restarted(self, core: Core, chat: ConsoleChat) -> None:
        self.core = core
        self.chat = chat

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
