"""Whom a message calls: the player who must act is mentioned unless they caused it (they are
at the table already), and privately notified only when they have been away from the table
for a while (and want notices). The same for a match and for a chouette: each keeps a log of
who acted when (:class:`ActivityLog`). Reminders of the clock are not decided here: they
always notify."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Final, Protocol

from bot.core.context import Context, wants_private_notice
from bot.core.runtime.time_source import TimeSource
from storage import UserRecord

AWAY_AFTER: Final = timedelta(minutes=10)  # no action at the table for this long: away


class ActivityLog(Protocol):
    """Matches or chouettes: whether a user acted at one of them later than ``since``."""

    async def acted_since(self, table_id: int, user_id: int, since: datetime, /) -> bool: ...


class Attention:
    def __init__(self, log: ActivityLog, time: TimeSource) -> None:
        self._log = log
        self._time = time

    async def call(
        self, context: Context, table_id: int, *players: UserRecord
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The platform ids to mention and, among them, to notify privately, of ``players``
        who must act at the match or chouette ``table_id``."""
        others = [player for player in players if not player.is_bot]
        others = [player for player in others if player.id != context.user.id]
        mention = tuple(player.platform_user_id for player in others)
        notify = []
        for player in others:
            if wants_private_notice(player) and await self.away(table_id, player):
                notify.append(player.platform_user_id)
        return mention, tuple(notify)

    async def away(self, table_id: int, player: UserRecord) -> bool:
        """Whether ``player`` has not acted at the table for :data:`AWAY_AFTER` (or never)."""
        # last is None or now - last >= AWAY_AFTER, i.e. not (last > now - AWAY_AFTER); a
        # player who just acted is known to be here without a query.
        return not await self._log.acted_since(table_id, player.id, self._time() - AWAY_AFTER)
