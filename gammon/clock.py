"""Match clocks (WBGF § 4.3): a delay per timed period plus a reserve per player.

A **period** is what one press of a tournament clock times (seed 001: "Mit Uhr endet [der Zug]
mit dem Druck auf die Uhr"): from the moment the board is handed to the player who must act
until they hand it back. Rolling and then moving is one period (the player presses the clock
once, after the move); doubling ends the doubler's period and starts the doubled player's;
taking (or beavering) ends theirs and starts a new one of the doubler, who then rolls; an offer
to resign and its answer are periods likewise. A new game starts a new period.

Each period the first ``delay`` seconds are free; what is used beyond them comes off the
player's reserve. The reserve is ``reserve`` seconds, or that many per match point
(``per_point``). Reaching the delay plus what is left of the reserve is the time-out
(:func:`charge`). Times here are integer milliseconds on any one scale (the caller's).

A seat may be ``untimed``: the bot's, which plays at once (``/play … clock=…``). Its periods
run on nobody's clock, so a turn of its that waited (a restart, a failed decision) costs it
nothing and has no deadline; the person's period starts when the bot has played.

>>> parse_clock("fast").reserve_for(5), parse_clock("10s+1m").text()
(100, '10s+1m')
>>> charge(parse_clock("10s+1m"), 60_000, 25_000)
Charge(reserve_left=45000, timed_out=False)
"""

from __future__ import annotations

from dataclasses import dataclass

from gammon.clock_setting import PRESETS, ClockSetting, parse_clock
from gammon.flow import MatchState, Phase

__all__ = [
    "PRESETS",
    "Charge",
    "ClockSetting",
    "ClockState",
    "after_steps",
    "charge",
    "continues_period",
    "parse_clock",
    "start_clock",
]


@dataclass(frozen=True)
class Charge:
    """What one period leaves: the reserve (ms) and whether the time ran out in it."""

    reserve_left: int
    timed_out: bool


def charge(setting: ClockSetting, reserve_left: int, used: int) -> Charge:
    """Charge a period of ``used`` ms to a player with ``reserve_left`` ms: the time beyond the
    delay comes off the reserve. Using the whole delay and reserve is the time-out (the reserve
    is then 0)."""
    over = max(0, used - setting.delay * 1000)
    if over >= reserve_left:
        return Charge(0, True)
    return Charge(reserve_left - over, False)


@dataclass(frozen=True)
class ClockState:
    """Both reserves (ms), the seat whose period runs (``None``: nobody's, e.g. before an
    opening roll or after the match) and when that period started (ms)."""

    reserves: tuple[int, int]
    running: int | None
    started: int

    def deadline(self, setting: ClockSetting) -> int | None:
        """The moment (ms) the running player's time runs out, if a period runs."""
        if self.running is None:
            return None
        return self.started + setting.delay * 1000 + self.reserves[self.running]


def start_clock(
    setting: ClockSetting, length: int, state: MatchState, now: int, untimed: int | None = None
) -> ClockState:
    """Full reserves; the period of whoever must act in ``state`` starts ``now`` (none when
    that is the ``untimed`` seat)."""
    full = setting.reserve_for(length) * 1000
    return ClockState((full, full), _on_clock(state, untimed), now)


def continues_period(before: MatchState, after: MatchState) -> bool:
    """Whether ``after`` is still in the period running in ``before``: the player rolled and
    must now move (one clock press covers the roll and the move)."""
    return (
        before.phase is Phase.ROLLING
        and after.phase is Phase.MOVING
        and before.game_number == after.game_number
        and before.turn == after.turn
    )


def after_steps(
    setting: ClockSetting,
    clock: ClockState,
    before: MatchState,
    after: MatchState,
    now: int,
    untimed: int | None = None,
) -> tuple[ClockState, bool]:
    """The clock after the match went from ``before`` to ``after`` at ``now``: the running
    period is charged (unless it continues) and the next one starts, unless it is the
    ``untimed`` seat's. Also returns whether the running player had already run out of time
    (the caller applies the time-out instead)."""
    # A clock stored before the seat was untimed may run on it: not charged either.
    running = None if clock.running == untimed else clock.running
    if running is not None and continues_period(before, after):
        return clock, now >= (clock.deadline(setting) or now + 1)
    reserves = list(clock.reserves)
    timed_out = False
    if running is not None:
        result = charge(setting, reserves[running], now - clock.started)
        reserves[running] = result.reserve_left
        timed_out = result.timed_out
    return ClockState((reserves[0], reserves[1]), _on_clock(after, untimed), now), timed_out


def _on_clock(state: MatchState, untimed: int | None) -> int | None:
    if state.phase is Phase.FINISHED or state.turn == untimed:
        return None
    return state.turn
