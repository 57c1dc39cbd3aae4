"""How many hints a player may have: one being computed at a time, and a few a minute.

A hint is a world-class search, up to seconds of a core; without limits one player asking
again and again would fill the hint worker's queue, and everyone else's hints would wait
behind theirs. Each player (by user id, so in all their chats at once) gets one hint at a
time, and a token bucket: ``per_minute`` hints at once, refilled at ``per_minute`` a minute.

The limits are counted in this process's memory: where several bot processes share one
database, a player's requests that reach different processes are counted by each apart.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

HINTS_PER_MINUTE: Final = 10
_ROUNDING: Final = 1e-6  # seconds: a player asking exactly when told is never refused by floats


@dataclass(frozen=True)
class StillComputing:
    """The player's previous hint is not answered yet."""


@dataclass(frozen=True)
class TooSoon:
    """The player has used their hints: the next one is theirs in ``seconds`` (≥ 1)."""

    seconds: int
    per_minute: int


HintRefusal = StillComputing | TooSoon


class HintLimits:
    """``clock`` gives seconds that only go forward (``time.monotonic``; tests move their own).

    The bucket of each player is kept as one time (the generic cell rate algorithm's
    "theoretical arrival time"): the moment their bucket would be full again if each hint took
    ``60 / per_minute`` seconds of it. A player whose moment has passed has a full bucket and is
    forgotten.
    """

    def __init__(
        self, per_minute: int = HINTS_PER_MINUTE, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if per_minute < 1:
            raise ValueError("a player needs at least one hint a minute")
        self.per_minute = per_minute
        self._interval = 60 / per_minute  # seconds of the bucket one hint uses
        self._burst = (per_minute - 1) * self._interval  # how far ahead a full bucket may go
        self._clock = clock
        self._full_at: dict[int, float] = {}
        self._computing: set[int] = set()

    def start(self, user_id: int) -> HintRefusal | None:
        """Take one of the player's hints and mark it as being computed, or say why not
        (nothing is taken then). After ``None``, call :meth:`finish` when the hint is done."""
        if user_id in self._computing:
            return StillComputing()
        now = self._clock()
        self._forget_full(now)
        full_at = max(self._full_at.get(user_id, now), now)
        ahead = full_at - now - self._burst
        if ahead > _ROUNDING:
            return TooSoon(max(1, math.ceil(ahead)), self.per_minute)
        self._full_at[user_id] = full_at + self._interval
        self._computing.add(user_id)
        return None

    def finish(self, user_id: int) -> None:
        """The player's hint is answered (or failed): they may ask for the next one."""
        self._computing.discard(user_id)

    def _forget_full(self, now: float) -> None:
        """Drop the players whose bucket is full again: that is the same as no bucket (so the
        memory holds only the players who asked within the last minute)."""
        for user in [user for user, full_at in self._full_at.items() if full_at <= now]:
            del self._full_at[user]
