"""A match's history: its actions read from the event log, the only place it is kept (the
snapshot leaves it out, so an append writes as much at move 500 as at move 5)."""

from __future__ import annotations

from dataclasses import replace

import sqlalchemy as sa

from gammon.actions import Action, action_from_dict
from storage.records import LoadedMatch, Logged
from storage.schema import match_events
from storage.threaded import ThreadedEngine

# Read for every board posted, so built once (storage/direct.py).
_RECENT = (
    sa.select(match_events.c.seq, match_events.c.action, match_events.c.actor_id)
    .where(
        match_events.c.match_id == sa.bindparam("match_id"),
        match_events.c.seq < sa.bindparam("version"),
        match_events.c.seq >= sa.bindparam("since"),
    )
    .order_by(match_events.c.seq)
)


class MatchHistory:
    """The event log of matches, read in order along its primary key."""

    def __init__(self, engine: ThreadedEngine) -> None:
        self.engine = engine

    async def events(self, match_id: int) -> list[Action]:
        """The event log in order: the truth of the match."""
        return list(await self.history(match_id))

    async def history(self, match_id: int, version: int | None = None) -> tuple[Action, ...]:
        """The match's actions in order, read from the event log along its primary key: the
        only place the history is kept. ``version`` stops at that version's last action, to go
        with a state loaded at it while the match may have moved on since."""
        query = sa.select(match_events.c.action).where(match_events.c.match_id == match_id)
        if version is not None:
            query = query.where(match_events.c.seq < version)
        rows = await self.engine.read(query.order_by(match_events.c.seq))
        return tuple(action_from_dict(action) for (action,) in rows)

    async def recent_events(
        self, match_id: int, version: int, count: int | None = None
    ) -> tuple[Logged, ...]:
        """The last ``count`` actions before ``version`` (all of them without ``count``), each
        with the user whose request made it: set on the first action of each write made for a
        person (or the bot), None on what followed by itself and on the dice's own writes."""
        since = 0 if count is None else version - count
        asked = {"match_id": match_id, "version": version, "since": since}
        rows = await self.engine.read(_RECENT, asked)
        return tuple(Logged(seq, action_from_dict(action), actor) for seq, action, actor in rows)

    async def with_history(self, loaded: LoadedMatch) -> LoadedMatch:
        """``loaded`` with its whole history in the state, for the transcript and the export.

        A state has one action for each event applied since it was loaded (none from a
        snapshot), so the log is read only when it has fewer than its version's events, i.e.
        unless it was replayed from the log or has been in memory since the match began."""
        if len(loaded.state.actions) == loaded.info.version:
            return loaded
        actions = await self.history(loaded.info.id, loaded.info.version)
        return LoadedMatch(loaded.info, replace(loaded.state, actions=actions))
