"""The webhook's inbox: each update a platform pushes is stored before it is acknowledged and
handled by exactly one of the bot's processes.

A platform that gets no answer in time sends an update again, perhaps to another process
behind the same address. :meth:`InboxRepository.receive` stores an update once (its primary
key is the platform's update id), so only the first arrival is handled; a process that died
between storing and handling leaves the row unhandled, and another process takes it over with
:meth:`InboxRepository.claim_stale`, a conditional update that only one process can win.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from storage.database import Database
from storage.direct import DirectConnection
from storage.schema import inbox_updates

_KEY = (inbox_updates.c.platform, inbox_updates.c.update_id)
# Built once: both run for every update, and building a statement cost more CPU than the
# database's work on it.
_RECEIVE = sa.insert(inbox_updates)
_HANDLED = (
    sa.update(inbox_updates)
    .where(inbox_updates.c.platform == sa.bindparam("key_platform"))
    .where(inbox_updates.c.update_id == sa.bindparam("key_update_id"))
    .values(handled_at=sa.bindparam("moment"))
)


@dataclass(frozen=True)
class InboxUpdate:
    """An update taken over from a process that did not handle it."""

    update_id: int
    payload: dict[str, Any]


class InboxRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def receive(
        self, platform: str, update_id: int, payload: Mapping[str, Any], now: datetime | None = None
    ) -> bool:
        """Store the update, claimed by the caller: True when it is new, False when it had
        arrived before (the caller acknowledges it and does nothing)."""
        moment = now or datetime.now(UTC)
        values = {
            "platform": platform,
            "update_id": update_id,
            "payload": dict(payload),
            "received_at": moment,
            "claimed_at": moment,
        }

        def write(connection: DirectConnection) -> None:
            connection.execute(_RECEIVE, values)

        try:
            await self.engine.write(write)
        except IntegrityError:
            return False
        return True

    async def handled(self, platform: str, update_id: int, now: datetime | None = None) -> None:
        """The update has been handled: nobody takes it over."""
        moment = now or datetime.now(UTC)

        values = {"key_platform": platform, "key_update_id": update_id, "moment": moment}

        def write(connection: DirectConnection) -> None:
            connection.execute(_HANDLED, values)

        await self.engine.write(write)

    async def claim_stale(
        self, platform: str, older_than: timedelta, now: datetime | None = None, limit: int = 50
    ) -> list[InboxUpdate]:
        """Take over updates that were claimed ``older_than`` ago and are still unhandled (their
        process died, or is stuck): each is claimed anew by a conditional update on its claim
        time, so of several processes asking at once exactly one gets it."""
        moment = now or datetime.now(UTC)
        found = await self.engine.read(
            sa.select(inbox_updates.c.update_id, inbox_updates.c.claimed_at)
            .where(inbox_updates.c.platform == platform)
            .where(inbox_updates.c.handled_at.is_(None))
            .where(inbox_updates.c.claimed_at < moment - older_than)
            .order_by(*_KEY)
            .limit(limit)
        )
        candidates = [(int(update_id), claimed_at) for update_id, claimed_at in found]

        def write(connection: DirectConnection) -> list[InboxUpdate]:
            won = []
            for update_id, claimed_at in candidates:
                row = connection.execute(
                    sa.update(inbox_updates)
                    .where(inbox_updates.c.platform == platform)
                    .where(inbox_updates.c.update_id == update_id)
                    .where(inbox_updates.c.claimed_at == claimed_at)
                    .where(inbox_updates.c.handled_at.is_(None))
                    .values(claimed_at=moment)
                    .returning(inbox_updates.c.payload)
                ).first()
                if row is not None:
                    won.append(InboxUpdate(update_id, dict(row[0])))
            return won

        return await self.engine.write(write) if candidates else []

    async def forget_handled(self, before: datetime) -> int:
        """Delete updates handled before ``before`` (the platform gives up resending an update
        within a day, so a day's rows are enough to know a repeat); how many went."""

        def write(connection: DirectConnection) -> int:
            result = connection.execute(
                sa.delete(inbox_updates)
                .where(inbox_updates.c.handled_at.is_not(None))
                .where(inbox_updates.c.handled_at < before)
            )
            return int(result.rowcount)

        return await self.engine.write(write)
