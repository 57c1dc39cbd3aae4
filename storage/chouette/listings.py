"""The chouette sessions a caller looks for by what they are in: where a user sits, which
games the clock must watch or finish, which session a chat ended last."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa

from storage.chouette.records import ChouetteInfo, ChouetteStatus
from storage.chouette.sql import INFO_COLUMNS, NOT_ENDED, info_from_row, seated_condition
from storage.schema import chouettes
from storage.threaded import ThreadedEngine

PLAYING, ENDED = ChouetteStatus.PLAYING, ChouetteStatus.ENDED


class ChouetteListings:
    """Sessions found by a condition, as rows (nothing is replayed)."""

    def __init__(self, engine: ThreadedEngine) -> None:
        self.engine = engine

    async def _infos(self, *conditions: Any) -> list[ChouetteInfo]:
        rows = await self.engine.read(
            sa.select(*INFO_COLUMNS).where(*conditions).order_by(chouettes.c.id)
        )
        return [info_from_row(row._mapping) for row in rows]

    async def seated_in(self, user_id: int) -> list[ChouetteInfo]:
        """Every session that has not ended where the user sits (at the table or, between
        games, for the next one), in any chat, oldest first."""
        dialect = self.engine.sync_engine.dialect.name
        return await self._infos(
            chouettes.c.status.in_([status.value for status in NOT_ENDED]),
            seated_condition(dialect, user_id),
        )

    async def timed_chouettes(self) -> list[ChouetteInfo]:
        """Sessions with a game running against a move time limit (for the clock)."""
        return await self._infos(
            chouettes.c.status == PLAYING.value, chouettes.c.deadline.is_not(None)
        )

    async def unsettled_chouettes(self, before: datetime) -> list[ChouetteInfo]:
        """Sessions whose running game was over before ``before`` with its points not yet
        written: the process that wrote its last action stopped before settling it (for the
        clock, which settles it; ``before`` leaves a process that is settling it now alone)."""
        return await self._infos(
            chouettes.c.status == PLAYING.value, chouettes.c.game_over_at <= before
        )

    async def unrolled_chouettes(self, before: datetime) -> list[ChouetteInfo]:
        """Sessions whose running game started before ``before`` and has no roll yet, not even
        its opening roll: the process that started it stopped before writing the roll (for
        the clock, which makes it; ``before`` leaves a process that is writing it now alone).
        A game's first dice event is its opening roll, so the dice counter is still at the
        game's first nonce; the session's row is written with every action."""
        return await self._infos(
            chouettes.c.status == PLAYING.value,
            chouettes.c.dice_nonce == chouettes.c.game_nonce,
            chouettes.c.updated_at <= before,
        )

    async def latest_ended_in_chat(self, chat_id: int) -> ChouetteInfo | None:
        """The chat's session that ended last, if any."""
        row = (
            await self.engine.read(
                sa.select(*INFO_COLUMNS)
                .where(chouettes.c.chat_id == chat_id, chouettes.c.status == ENDED.value)
                .order_by(chouettes.c.ended_at.desc(), chouettes.c.id.desc())
                .limit(1)
            )
        ).first()
        return None if row is None else info_from_row(row._mapping)
