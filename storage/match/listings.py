"""Matches found by what they are: by id, slug, chat or player, and those the clock and the
bot's restart must look at; rows only (no state is read)."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from storage.errors import NotFoundError
from storage.match.sql import ACTIVE, FINISHED, INFO_COLUMNS, info_from_row
from storage.records import MatchInfo
from storage.schema import matches, users
from storage.threaded import ThreadedEngine


def _plays(user_id: int) -> sa.ColumnElement[bool]:
    return sa.or_(matches.c.player0_id == user_id, matches.c.player1_id == user_id)


class MatchListings:
    """Match rows by a condition, oldest first."""

    def __init__(self, engine: ThreadedEngine) -> None:
        self.engine = engine

    async def _infos(self, *conditions: Any) -> list[MatchInfo]:
        rows = await self.engine.read(
            sa.select(*INFO_COLUMNS).where(*conditions).order_by(matches.c.id)
        )
        return [info_from_row(row._mapping) for row in rows]

    async def match_info(self, match_id: int) -> MatchInfo:
        """The match's row without its state (cheap: no snapshot is read)."""
        found = await self._infos(matches.c.id == match_id)
        if not found:
            raise NotFoundError(f"no match {match_id}")
        return found[0]

    async def latest_match_for(self, chat_id: int, user_id: int) -> MatchInfo | None:
        """The user's newest match in this chat, active or ended."""
        found = await self._infos(matches.c.chat_id == chat_id, _plays(user_id))
        return found[-1] if found else None

    async def latest_match_in(self, chat_id: int) -> MatchInfo | None:
        """The chat's newest match, whoever plays it."""
        rows = await self.engine.read(
            sa.select(*INFO_COLUMNS)
            .where(matches.c.chat_id == chat_id)
            .order_by(matches.c.id.desc())
            .limit(1)
        )
        found = rows.first()
        return None if found is None else info_from_row(found._mapping)

    async def active_matches_of(self, user_id: int) -> list[MatchInfo]:
        """Every active match the user plays in, in any chat."""
        return await self._infos(matches.c.status == ACTIVE, _plays(user_id))

    async def timed_matches(self) -> list[MatchInfo]:
        """Active matches with a move time limit running (for reminders and claims)."""
        return await self._infos(matches.c.status == ACTIVE, matches.c.deadline.is_not(None))

    async def clocks_before(self, moment: datetime) -> list[MatchInfo]:
        """Active matches whose clock runs out before ``moment`` (ran out already, for a
        moment now; or soon, for a timer): the soonest first."""
        found = await self._infos(
            matches.c.status == ACTIVE,
            matches.c.clock_deadline.is_not(None),
            matches.c.clock_deadline <= moment,
        )
        return sorted(found, key=_deadline)

    async def bot_turn_matches(self) -> list[MatchInfo]:
        """Active matches against the bot in which the bot must act (after a restart: its
        turn was interrupted)."""
        return await self._infos(
            matches.c.status == ACTIVE,
            matches.c.bot_level.is_not(None),
            matches.c.turn_user_id.in_(sa.select(users.c.id).where(users.c.is_bot)),
        )

    async def versions_of(self, match_ids: Collection[int]) -> dict[int, int]:
        """Each of these matches' version, in one statement (what the board pages watch);
        an unknown id is left out."""
        if not match_ids:
            return {}
        rows = await self.engine.read(
            sa.select(matches.c.id, matches.c.version).where(matches.c.id.in_(sorted(match_ids)))
        )
        return {int(row.id): int(row.version) for row in rows}

    async def find_by_slug(self, slug: str) -> MatchInfo | None:
        """The match whose web addresses use ``slug``, or None."""
        if not slug or len(slug) > 32:
            return None
        found = await self._infos(matches.c.slug == slug)
        return found[0] if found else None

    async def latest_finished_for(self, chat_id: int, user_id: int) -> MatchInfo | None:
        """The user's newest finished match in this chat."""
        found = await self._infos(
            matches.c.chat_id == chat_id, matches.c.status == FINISHED, _plays(user_id)
        )
        return found[-1] if found else None


def _deadline(info: MatchInfo) -> datetime:
    assert info.clock is not None  # as selected
    assert info.clock.deadline is not None
    return info.clock.deadline
