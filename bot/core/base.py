"""Shared by the parts of the command layer: the request context, repositories, locks,
player names and board pictures."""

from __future__ import annotations

import asyncio
import logging
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial

from bot.core.context import Context
from bot.core.delivery import Delivery
from bot.core.painter import shared_painter
from bot.core.presenter import Presenter
from gammon.actions import (
    Action,
    WinKind,
)
from gammon.fair_dice import new_server_seed
from rendering import BoardView, LastPlay, render_board
from storage import (
    ChallengeLimits,
    ChallengeRepository,
    ChatRepository,
    Database,
    DiceRepository,
    LoadedMatch,
    MatchRepository,
    PostedMessageRepository,
    UserRecord,
    UserRepository,
)

logger = logging.getLogger(__name__)

Maker = Callable[[LoadedMatch, int], Awaitable[Action]]
_MAX_TEXT = 500
MAX_NAME = 64  # characters of a display name kept
MAX_ACCOUNT_ID = 64  # a platform account id longer than this is not one
# Requests computing at once (see Core.handle); measured with 200 matches played together.
REQUESTS_AT_ONCE = 4
_RESIGN_LEVELS = {
    "single": WinKind.SINGLE,
    "gammon": WinKind.GAMMON,
    "backgammon": WinKind.BACKGAMMON,
}


def clean_name(name: str, fallback: str) -> str:
    """A display name fit to store and show: no control or format characters, no lone
    surrogates (undecodable input), single spaces, at most :data:`MAX_NAME` characters.

    >>> clean_name("al\\udcffice\\x00  smith", "u1")
    'al\ufffdice smith'
    >>> clean_name("\\x07", "u1")
    'u1'
    >>> len(clean_name("x" * 200_000, "u1"))
    64
    """
    kept = (
        "\ufffd" if category == "Cs" else char
        for char in name[: MAX_NAME * 4]
        if (category := unicodedata.category(char)) not in ("Cc", "Cf", "Co", "Cn")
    )
    cleaned = " ".join("".join(kept).split())[:MAX_NAME].strip()
    return cleaned or fallback[:MAX_NAME]


@dataclass
class _Held:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0  # requests holding or waiting for the lock


class MatchLocks:
    """One lock per match, kept only while a request holds or waits for it.

    A lock kept for every match ever touched would grow with every match played. The count
    of holders and waiters keeps the lock while anyone still needs it: a waiter and a request
    arriving after the holder left share one lock, so they still exclude each other."""

    def __init__(self) -> None:
        self._held: dict[int, _Held] = {}

    def __len__(self) -> int:
        return len(self._held)

    @asynccontextmanager
    async def hold(self, match_id: int) -> AsyncIterator[None]:
        """Hold the match's lock for the body (waiting for the request that has it)."""
        held = self._held.get(match_id)
        if held is None:
            held = self._held[match_id] = _Held()
        held.users += 1
        try:
            async with held.lock:
                yield
        finally:  # also when cancelled while waiting
            held.users -= 1
            if not held.users:
                del self._held[match_id]


class CoreBase:
    """What every part of the command layer uses: repositories, the clock, locks, pictures."""

    def __init__(
        self,
        database: Database,
        *,
        render_images: bool = True,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        server_seeds: Callable[[], bytes] = new_server_seed,
        challenge_limits: ChallengeLimits | None = None,
    ) -> None:
        self.clock = clock
        # Where secret server seeds come from: tests pass a fixed source to replay the dice.
        self.server_seeds = server_seeds
        self.challenge_limits = challenge_limits or ChallengeLimits()
        self.users = UserRepository(database)
        self.chats = ChatRepository(database)
        self.challenges = ChallengeRepository(database)
        self.matches = MatchRepository(database)
        self.dice = DiceRepository(database)
        self.posted = PostedMessageRepository(database)
        self.delivery = Delivery(self.posted, self.users)  # the adapters' port
        self.render_images = render_images
        self._locks = MatchLocks()
        self._admission = asyncio.Semaphore(REQUESTS_AT_ONCE)
        self._pending = 0  # requests being answered or waiting for their turn
        self.painter = shared_painter()
        self.presenter = Presenter(self._render, self._names, self.dice, self.matches)

    def _lock(self, match_id: int) -> AbstractAsyncContextManager[None]:
        """``async with self._lock(match_id):`` makes the requests for one match take turns."""
        return self._locks.hold(match_id)

    async def _names(
        self, loaded: LoadedMatch, context: Context | None = None
    ) -> tuple[UserRecord, UserRecord]:
        known = context.known_users if context is not None else {}
        if context is not None:
            known.setdefault(context.user.id, context.user)
        found = []
        for user_id in loaded.info.player_ids:
            if user_id not in known:
                known[user_id] = await self.users.get_user(user_id)
            found.append(known[user_id])
        return (found[0], found[1])

    async def _render(
        self,
        context: Context,
        view: BoardView,
        names: list[str],
        last: LastPlay | None,
        perspective: int,
    ) -> bytes | None:
        if not self.render_images:
            return None
        _ = context._
        labels = {
            "match_to": _("Match to {length}"),
            "money": _("Money game"),
            "crawford": _("Crawford"),
            "long_nardy_to": _("Long nardy · to {length}"),
            "long_nardy_single": _("Long nardy · single games"),
            "pips": _("{pips} pips"),
            "doubles": _("{name} doubles to {value}"),
            "played": _("{name}: {play}"),
            "wins": _("{name} wins"),
            "player": _("Player {number}"),
        }
        theme = context.user.prefs.theme
        draw = partial(
            render_board,
            view,
            perspective=perspective,
            names=names,
            last_play=last,
            labels=labels,
            theme=theme if theme in ("classic", "dark") else "classic",
        )
        return await self.painter.paint(draw)
