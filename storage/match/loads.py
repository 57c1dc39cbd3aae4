"""Loading a match: its row and its state, from memory when the stored version's state is kept,
else from the snapshot, else replayed from the event log (and the snapshot stored again)."""

from __future__ import annotations

import logging
from typing import Any

import sqlalchemy as sa

from gammon.flow import MatchState, replay
from gammon.serialization import state_from_dict
from storage.errors import NotFoundError
from storage.match.history import MatchHistory
from storage.match.memory import MatchStates
from storage.match.sql import (
    ACTIVE,
    LOAD_MATCH,
    MATCH_PLAYERS,
    info_from_row,
    players_by_id,
    snapshot_of,
)
from storage.records import LoadedMatch, UserRecord
from storage.schema import matches

logger = logging.getLogger(__name__)


class MatchLoads:
    """A match by its id, with its current state (and its players, in the same read)."""

    def __init__(self, history: MatchHistory, states: MatchStates) -> None:
        self.engine = history.engine
        self._history = history
        self._states = states

    async def load_match(self, match_id: int) -> LoadedMatch:
        """The match and its current state (rebuilt from the log if the snapshot is stale). The
        state carries no history when it comes from the snapshot: see
        :meth:`MatchHistory.with_history`.

        When the state of the stored version is in memory already, the snapshot is not even
        read: the row says which version is current, the cache has that version's state."""
        row = (await self.engine.read(*self._load_query(match_id))).first()
        return await self.loaded(match_id, row)

    async def load_match_with_players(
        self, match_id: int
    ) -> tuple[LoadedMatch, dict[int, UserRecord]]:
        """:meth:`load_match`, and the match's players by id, read in the same hand-over to
        the database thread (a command on a match needs both)."""
        found, players = await self.engine.read_many(
            self._load_query(match_id), (MATCH_PLAYERS, {"match_id": match_id})
        )
        return await self.loaded(match_id, found.first()), players_by_id(players)

    def _load_query(self, match_id: int) -> tuple[Any, dict[str, Any]]:
        known = self._states.known_version(match_id)
        return LOAD_MATCH, {"match_id": match_id, "known_version": known}

    async def loaded(self, match_id: int, row: Any) -> LoadedMatch:
        """The match from its row as :data:`storage.match.sql.LOAD_MATCH` read it (or
        :data:`storage.match.sql.LOAD_ACTIVE`: the same columns)."""
        if row is None:
            raise NotFoundError(f"no match {match_id}")
        info = info_from_row(row._mapping)
        self._states.know(info)
        known = self._states.recall(match_id, info.version)
        if known is not None:
            return LoadedMatch(info, known)
        snapshot = row._mapping["snapshot"]
        if snapshot is not None and row._mapping["snapshot_version"] == info.version:
            state = state_from_dict(snapshot)
            self._states.remember(match_id, info.version, state)
            return LoadedMatch(info, state)
        # Only the events of the version read: a write may have added more since.
        state = replay(info.rules, await self._history.history(match_id, info.version))
        if info.status == ACTIVE:
            logger.info("match %s: snapshot rebuilt from %s events", match_id, info.version)
            await self._store_snapshot(match_id, info.version, state)
        self._states.remember(match_id, info.version, state)
        return LoadedMatch(info, state)

    async def _store_snapshot(self, match_id: int, version: int, state: MatchState) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                sa.update(matches)
                .where(matches.c.id == match_id, matches.c.version == version)
                .values(snapshot=snapshot_of(state), snapshot_version=version)
            )
