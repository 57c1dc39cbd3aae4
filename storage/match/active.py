"""A user's active match in a chat, found by their seat (a user has at most one per chat)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from storage.match.loads import MatchLoads
from storage.match.sql import ACTIVE_MATCH_ID, ACTIVE_PLAYERS, LOAD_ACTIVE, players_by_id
from storage.records import LoadedMatch, UserRecord
from storage.results import BufferedResult


class ActiveMatches:
    """The match a user plays in a chat: its id, or loaded with its players in one read."""

    def __init__(self, loads: MatchLoads) -> None:
        self.engine = loads.engine
        self._loads = loads

    async def active_match_for(self, chat_id: int, user_id: int) -> LoadedMatch | None:
        """The user's active match in this chat (a user has at most one per chat)."""
        match_id = await self.active_match_id_for(chat_id, user_id)
        return await self._loads.load_match(match_id) if match_id is not None else None

    async def active_match_with_players(
        self, chat_id: int, user_id: int
    ) -> tuple[LoadedMatch, dict[int, UserRecord]] | None:
        """The user's active match in this chat with its players, as
        :meth:`MatchLoads.load_match_with_players` reads them, found and read in one
        hand-over to the database thread; None when the user plays none here."""
        queries = self.active_match_queries(chat_id, user_id)
        return await self.active_match_read(await self.engine.read_many(*queries))

    def active_match_queries(self, chat_id: int, user_id: int) -> list[tuple[Any, dict[str, Any]]]:
        """The statements that read the user's active match in this chat and its players, to
        be read along with something else (see :meth:`active_match_read`)."""
        seat = {"seat_chat": chat_id, "seat_user": user_id}
        return [(LOAD_ACTIVE, seat), (ACTIVE_PLAYERS, seat)]

    async def active_match_read(
        self, results: Sequence[BufferedResult]
    ) -> tuple[LoadedMatch, dict[int, UserRecord]] | None:
        """The match and players :meth:`active_match_queries` read; None: no active match."""
        match_row, players = results
        row = match_row.first()
        if row is None:
            return None
        loaded = await self._loads.loaded(int(row._mapping["id"]), row)
        return loaded, players_by_id(players)

    async def active_match_id_for(self, chat_id: int, user_id: int) -> int | None:
        """The id of the user's active match in this chat, without loading its state."""
        found = await self.engine.read(ACTIVE_MATCH_ID, {"chat_id": chat_id, "user_id": user_id})
        value = found.scalar()
        return None if value is None else int(value)
