"""The adapters' port to the webhook inbox (see :mod:`storage.inbox`): an update pushed to the
bot is stored once before it is acknowledged, and handled by exactly one process."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from storage import InboxRepository

FORGET_AFTER = timedelta(days=1)  # platforms stop resending an update within a day


class UpdateInbox:
    def __init__(self, updates: InboxRepository) -> None:
        self._updates = updates

    async def receive(self, platform: str, update_id: int, payload: Mapping[str, Any]) -> bool:
        """Store an update that just arrived: True when it is new and the caller handles it,
        False when it came before."""
        return await self._updates.receive(platform, update_id, payload)

    async def handled(self, platform: str, update_id: int) -> None:
        await self._updates.handled(platform, update_id)

    async def take_over(
        self, platform: str, stale_after: timedelta
    ) -> list[tuple[int, dict[str, Any]]]:
        """Updates another process stored and did not handle within ``stale_after``, now the
        caller's to handle; handled updates older than a day are forgotten meanwhile."""
        taken = await self._updates.claim_stale(platform, stale_after)
        await self._updates.forget_handled(datetime.now(UTC) - FORGET_AFTER)
        return [(update.update_id, update.payload) for update in taken]
