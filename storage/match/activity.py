"""When the players of a match last acted, and the clock's reminders: what the clock asks
before it reminds a player or lets the other claim the match."""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from storage.acted import SeenActions
from storage.direct import DirectConnection
from storage.match.listings import MatchListings
from storage.match.sql import ACTIVE
from storage.schema import challenges, match_events, matches

# Read for nearly every request (the clock's "acted since"), so built once: a statement object
# run again goes straight to the driver (storage/direct.py).
_NEWEST_EVENT = sa.select(sa.func.max(match_events.c.created_at)).where(
    match_events.c.match_id == sa.bindparam("match_id"),
    match_events.c.actor_id == sa.bindparam("user_id"),
)
_CHALLENGE_POSTED = sa.select(challenges.c.created_at).where(
    challenges.c.match_id == sa.bindparam("match_id"),
    challenges.c.challenger_id == sa.bindparam("user_id"),
    challenges.c.bot_level.is_(None),
)


class MatchActivity:
    """The players' last actions (read from the log, or seen by this process) and the marks
    of the reminders sent."""

    def __init__(self, listings: MatchListings, acted: SeenActions) -> None:
        self.engine = listings.engine
        self._listings = listings
        self._acted = acted

    async def claim_reminder(self, match_id: int, version: int, stage: int) -> bool:
        """Mark that the reminder of ``stage`` went out for the match at ``version``: True for
        the one caller that marks it, False when it was marked already (by another process's
        clock at the same minute, say) or the match has moved on. The first statement writes
        the row onto itself: it takes the row's lock (PostgreSQL) or the write lock (SQLite)
        before the marker is read, so of two clocks the second reads the first one's mark."""

        def write(connection: DirectConnection) -> bool:
            row = connection.execute(
                sa.update(matches)
                .where(matches.c.id == match_id)
                .where(matches.c.version == version)
                .where(matches.c.status == ACTIVE)
                .values(board_messages=matches.c.board_messages)
                .returning(matches.c.board_messages)
            ).first()
            if row is None:
                return False
            kept = dict(row[0] or {})
            marker = kept.get("reminded", {})
            if marker.get("version") == version and marker.get("stage", 0) >= stage:
                return False
            kept["reminded"] = {"version": version, "stage": stage}
            connection.execute(
                sa.update(matches).where(matches.c.id == match_id).values(board_messages=kept)
            )
            return True

        return await self.engine.write(write)

    async def last_action_at(self, match_id: int, user_id: int) -> datetime | None:
        """When the user last acted in the match: their newest event; before their first,
        when they joined it (the challenger: when the challenge was posted; whoever accepted
        it, or started a match against the bot with [Start]: when it began). None for a
        stranger."""
        asked = {"match_id": match_id, "user_id": user_id}
        found = await self.engine.read(_NEWEST_EVENT, asked)
        value: datetime | None = found.scalar()  # max() keeps the column's type: aware UTC
        if value is not None:
            self._acted.saw(match_id, user_id, value)
            return value
        challenged = await self.engine.read(_CHALLENGE_POSTED, asked)
        posted: datetime | None = challenged.scalar()
        if posted is not None:
            return posted
        info = await self._listings.match_info(match_id)
        return info.created_at if info.player_index(user_id) is not None else None

    async def acted_since(self, match_id: int, user_id: int, since: datetime) -> bool:
        """Whether :meth:`last_action_at` is later than ``since`` (False for a stranger).

        Without reading, when this process has seen an event of the user in the match later
        than ``since``: events are only ever added, never changed or removed, so the user's
        newest event is at least as late as any event of theirs once seen, whatever other
        processes wrote since. Only a "yes" is answered from memory; anything else is read."""
        if self._acted.after(match_id, user_id, since):
            return True
        last = await self.last_action_at(match_id, user_id)
        return last is not None and last > since
