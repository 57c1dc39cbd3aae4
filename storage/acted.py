"""What this process has seen of when players last acted at a table (a match or a chouette):
for each (table, user), the time of the newest of their events it has seen.

Events are only ever added, never changed or removed, so a time seen is never later than the
player's newest event, whatever other processes wrote since: "they acted after ``since``" may
be answered from memory; anything else must be read from the log."""

from __future__ import annotations

from datetime import datetime


class SeenActions:
    def __init__(self, size: int) -> None:
        self._seen: dict[tuple[int, int], datetime] = {}
        self._size = size  # how many (table, user) pairs are kept before starting afresh

    def saw(self, table_id: int, user_id: int, at: datetime) -> None:
        """The user has an event at the table at ``at``."""
        key = (table_id, user_id)
        seen = self._seen.get(key)
        if seen is None or at > seen:
            if len(self._seen) > self._size:
                self._seen.clear()
            self._seen[key] = at

    def after(self, table_id: int, user_id: int, since: datetime) -> bool:
        """Whether an event of the user at the table later than ``since`` has been seen."""
        seen = self._seen.get((table_id, user_id))
        return seen is not None and seen > since
