"""The current time, as one object every service reads: tests move it for all of them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime


def _utc_now() -> datetime:
    return datetime.now(UTC)


class TimeSource:
    """``time()`` is now; ``time.now`` may be replaced (tests jump days ahead)."""

    def __init__(self, now: Callable[[], datetime] = _utc_now) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now()
