"""Whom a message calls: the player who must act is mentioned unless they caused it (they are
at the table already), and privately notified only when they have been away from the match for
a while (and want notices). Reminders of the clock are not decided here: they always notify."""

from __future__ import annotations

from datetime import timedelta
from typing import Final

from bot.core.context import Context, wants_private_notice
from bot.core.time_source import TimeSource
from storage import MatchInfo, MatchRepository, UserRecord

AWAY_AFTER: Final = timedelta(minutes=10)  # no action in the match for this long: away


class Attention:
    def __init__(self, matches: MatchRepository, time: TimeSource) -> None:
        self._matches = matches
        self._time = time

    async def call(
        self, context: Context, info: MatchInfo, *players: UserRecord
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The platform ids to mention and, among them, to notify privately."""
        others = [player for player in players if not player.is_bot]
        others = [player for player in others if player.id != context.user.id]
        mention = tuple(player.platform_user_id for player in others)
        notify = []
        for player in others:
            if wants_private_notice(player) and await self.away(info, player):
                notify.append(player.platform_user_id)
        return mention, tuple(notify)

    async def away(self, info: MatchInfo, player: UserRecord) -> bool:
        """Whether ``player`` has not acted in the match for :data:`AWAY_AFTER` (or never)."""
        # last is None or now - last >= AWAY_AFTER, i.e. not (last > now - AWAY_AFTER); a
        # player who just acted is known to be here without a query.
        return not await self._matches.acted_since(info.id, player.id, self._time() - AWAY_AFTER)
