"""What the board page (``/m/<slug>/play``) reads: the match's state for the page, the
versions of the matches open pages watch, and who a player of the match is.

The page acts only through the core's requests (:mod:`bot.web.play_actions`); this port reads.
The state of one version is built once and kept for the pages that ask for it; only the
running clock's time left is worked out again for each answer. The players' names and who a
page's player is are kept for :data:`RECENT_SECONDS`: every request of a page (an action, a
stream, a look after a change) would otherwise read them again, one after the other on the
database's one thread.
"""

from __future__ import annotations

import time as clock
from collections import OrderedDict
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from bot.core.info.page_reads import PageMatch
from bot.core.info.play_state import clock_json, play_state
from bot.core.model import Actor, ChatRef
from bot.core.people import PlayerNames
from bot.core.runtime.time_source import TimeSource
from storage import (
    ChatRecord,
    ChatRepository,
    MatchInfo,
    MatchRepository,
    PageSecretRepository,
    UserRepository,
)

_KEPT = 512  # states of recent versions (a few KB each; a tree of doubles is the largest)
RECENT_SECONDS = 60.0  # names and seats read again after this long (a renamed player)
_RECENT_MOST = 4096


@dataclass(frozen=True)
class Seat:
    """A player of a match, as a request of theirs names them and their chat."""

    index: int
    actor: Actor
    chat: ChatRef


class BoardPageReads:
    """The board page's reads (see the module's docstring)."""

    def __init__(
        self,
        matches: MatchRepository,
        users: UserRepository,
        chats: ChatRepository,
        names: PlayerNames,
        time: TimeSource,
        secrets: PageSecretRepository,
        now: Callable[[], float] = clock.monotonic,
    ) -> None:
        self._matches = matches
        self._now = now
        self._recent: dict[tuple[object, ...], tuple[float, Any]] = {}
        self._secrets = secrets
        self._users = users
        self._chats = chats
        self._names = names
        self._time = time
        self._states: OrderedDict[tuple[int, int], dict[str, Any]] = OrderedDict()

    async def find(self, slug: str) -> PageMatch | None:
        """The match at the secret address ``slug``, or None."""
        info = await self._matches.find_by_slug(slug)
        if info is None:
            return None
        return PageMatch(info, await self._names_of(info))

    async def state_now(self, number: int) -> dict[str, Any]:
        """The page's state of the match numbered ``number`` as it is now (the open pages'
        streams after a change), the match read once."""
        loaded = await self._matches.load_match(number)
        key = (number, loaded.info.version)
        kept = self._states.get(key)
        if kept is None:
            names = await self._names_of(loaded.info)
            kept = self._keep(key, play_state(loaded.info, loaded.state, names, self._time()))
        return {**kept, "clock": clock_json(loaded.info, self._time())}

    async def secret(self) -> bytes:
        """The secret the players' keys are signed with, the same in every process."""
        return await self._secrets.secret()

    def on_change(self, changed: Callable[[int], None]) -> None:
        """Call ``changed(match_number)`` after every change of a match this process writes
        (a page's action, a typed move, the clock, the bot's turn)."""
        self._matches.listen_to_appends(lambda number, _version: changed(number))

    async def versions(self, numbers: Collection[int]) -> dict[int, int]:
        """The version of each of these matches, in one read."""
        return await self._matches.versions_of(numbers)

    async def state(self, match: PageMatch) -> dict[str, Any]:
        """The page's state of ``match`` at its version (or newer, if it moved on meanwhile),
        its clock as of now."""
        key = (match.number, match.info.version)
        kept = self._states.get(key)
        if kept is None:
            return await self.state_now(match.number)
        self._states.move_to_end(key)
        return {**kept, "clock": clock_json(match.info, self._time())}

    async def _names_of(self, info: MatchInfo) -> tuple[str, str]:
        key = ("names", *info.player_ids)
        names: tuple[str, str] | None = self._recently(key)
        if names is None:
            players = await self._names.of_info(info)
            names = self._remember(key, (players[0].display_name, players[1].display_name))
        return names

    def _recently(self, key: tuple[object, ...]) -> Any:
        """What was read under ``key`` less than :data:`RECENT_SECONDS` ago, or None."""
        found = self._recent.get(key)
        if found is None or self._now() - found[0] >= RECENT_SECONDS:
            return None
        return found[1]

    def _remember(self, key: tuple[object, ...], value: Any) -> Any:
        if value is not None:
            if len(self._recent) >= _RECENT_MOST:
                self._recent.clear()
            self._recent[key] = (self._now(), value)
        return value

    def _keep(self, key: tuple[int, int], state: dict[str, Any]) -> dict[str, Any]:
        self._states[key] = state
        if len(self._states) > _KEPT:
            self._states.popitem(last=False)
        return state

    async def seat(self, match: PageMatch, platform: str, user_id: str) -> Seat | None:
        """The player of ``match`` who is ``user_id`` on ``platform``, or None for anyone
        else (a spectator, a player of another platform, the bot). The user is read anew each
        time: their name goes with the request, and a name kept from before a rename would
        be written back. The chat is kept for a minute."""
        key = ("chat", match.info.chat_id)
        chat: ChatRecord | None = self._recently(key)
        if chat is None:
            chat = self._remember(key, await self._chats.get_chat(match.info.chat_id))
        if chat.platform != platform:
            return None
        user = await self._users.find_user(platform, user_id)
        if user is None or user.is_bot:
            return None
        index = match.info.player_index(user.id)
        if index is None:
            return None
        where = ChatRef(chat.platform, chat.platform_chat_id, private=False, locale=chat.locale)
        return Seat(index, Actor(platform, user_id, user.display_name, user.locale), where)

    async def applied(self, number: int, event_id: str) -> bool:
        """Whether the request with ``event_id`` was applied to match ``number`` already."""
        return await self._matches.applied(number, event_id)
