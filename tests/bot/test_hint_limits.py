"""Per player: one hint at a time, and ``per_minute`` hints a minute with the time to wait."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.core.computer.hint_limits import HintLimits, StillComputing, TooSoon


class Clock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def _asked(limits: HintLimits, user: int) -> object:
    """One hint asked and answered at once: the refusal, or None."""
    refusal = limits.start(user)
    if refusal is None:
        limits.finish(user)
    return refusal


def test_three_a_minute_come_at_once_then_one_every_twenty_seconds() -> None:
    clock = Clock()
    limits = HintLimits(per_minute=3, clock=clock)
    assert [_asked(limits, 1) for _ in range(3)] == [None, None, None]
    assert _asked(limits, 1) == TooSoon(seconds=20, per_minute=3)
    assert _asked(limits, 2) is None  # another player has hints of their own
    clock.now += 19.25
    assert _asked(limits, 1) == TooSoon(seconds=1, per_minute=3)  # 0.75 s, said as 1
    clock.now += 0.75
    assert _asked(limits, 1) is None
    assert _asked(limits, 1) == TooSoon(seconds=20, per_minute=3)
    clock.now += 60
    assert [_asked(limits, 1) for _ in range(4)] == [None, None, None, TooSoon(20, 3)]


def test_one_at_a_time_and_a_refusal_takes_nothing() -> None:
    clock = Clock()
    limits = HintLimits(per_minute=2, clock=clock)
    assert limits.start(7) is None
    assert limits.start(7) == StillComputing()
    assert limits.start(7) == StillComputing()
    assert limits.start(8) is None  # someone else's hint is computed meanwhile
    limits.finish(7)
    assert limits.start(7) is None  # the second of two: the refusals took none
    limits.finish(7)
    assert limits.start(7) == TooSoon(30, 2)


@given(
    per_minute=st.integers(1, 12),
    gaps=st.lists(st.floats(0, 40, allow_nan=False), min_size=1, max_size=80),
)
def test_no_window_holds_more_than_the_rate_allows_and_the_wait_is_right(
    per_minute: int, gaps: list[float]
) -> None:
    """In any stretch of ``d`` seconds at most ``per_minute + d * per_minute / 60`` hints are
    given (a full bucket, then its refill); a player told to wait ``s`` seconds gets a hint
    when asking again ``s`` seconds later."""
    clock = Clock()
    limits = HintLimits(per_minute=per_minute, clock=clock)
    given_at: list[float] = []
    for gap in gaps:
        clock.now += gap
        refusal = _asked(limits, 1)
        if refusal is None:
            given_at.append(clock.now)
            continue
        assert isinstance(refusal, TooSoon)
        assert 1 <= refusal.seconds <= 60 / per_minute + 1
        clock.now += refusal.seconds
        assert _asked(limits, 1) is None
        given_at.append(clock.now)
    for first, start in enumerate(given_at):
        for last in range(first, len(given_at)):
            stretch = given_at[last] - start
            assert last - first + 1 <= per_minute + stretch * per_minute / 60 + 1e-6
