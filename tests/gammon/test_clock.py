"""The match clock: settings, charging a period, periods as the clock is pressed (by hand)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon.actions import Double, Move, OpeningRoll, Roll, Take
from gammon.clock import (
    ClockSetting,
    ClockState,
    after_steps,
    charge,
    parse_clock,
    start_clock,
)
from gammon.flow import MatchState, apply, new_match
from gammon.match_rules import MatchRules


def test_presets_and_explicit_settings_read_as_written() -> None:
    assert parse_clock("fast") == ClockSetting(8, 20, per_point=True)
    assert parse_clock("Normal") == ClockSetting(10, 60, per_point=True)
    assert parse_clock("10s+5m") == ClockSetting(10, 300)
    assert parse_clock("10s+1m") == ClockSetting(10, 60)
    assert parse_clock("5s+2h") == ClockSetting(5, 7200)
    assert parse_clock("12s+90s/pt") == ClockSetting(12, 90, per_point=True)
    assert parse_clock("fast").reserve_for(5) == 100  # 20 s for each of 5 points
    assert parse_clock("normal").reserve_for(7) == 420
    assert parse_clock("10s+5m").reserve_for(7) == 300
    assert [parse_clock(text).text() for text in ("8s+20s/pt", "10s+300s", "7s+90s")] == [
        "fast",
        "10s+5m",
        "7s+90s",
    ]


@pytest.mark.parametrize("text", ["", "10s", "fast2", "10s+0s", "601s+1m", "10s+1d", "s+1m"])
def test_other_settings_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"clock|delay|reserve"):
        parse_clock(text)


def test_a_clock_rides_with_the_rules_and_only_on_backgammon_matches() -> None:
    rules = MatchRules(length=5, clock=parse_clock("fast"))
    assert rules.to_dict()["clock"] == {"delay": 8, "reserve": 20, "per_point": True}
    assert MatchRules.from_dict(rules.to_dict()) == rules
    assert "clock" not in MatchRules(length=5).to_dict()  # rules stored before read the same
    with pytest.raises(ValueError, match="clocks are for backgammon matches"):
        MatchRules(length=0, clock=parse_clock("10s+5m"))


def test_a_period_is_charged_beyond_the_delay() -> None:
    setting = parse_clock("10s+1m")
    assert charge(setting, 60_000, 9_000).reserve_left == 60_000  # within the delay
    assert charge(setting, 60_000, 25_000).reserve_left == 45_000
    assert charge(setting, 60_000, 69_999) == charge(setting, 60_000, 69_999)
    assert charge(setting, 60_000, 69_999).reserve_left == 1
    assert charge(setting, 60_000, 69_999).timed_out is False
    assert charge(setting, 60_000, 70_000).timed_out is True  # delay and reserve used up
    assert charge(setting, 60_000, 70_000).reserve_left == 0


@given(
    delay=st.integers(0, 30),
    reserve=st.integers(1, 600),
    used=st.lists(st.integers(0, 120_000), min_size=1, max_size=40),
)
def test_the_time_used_never_exceeds_the_delays_and_the_reserve(
    delay: int, reserve: int, used: list[int]
) -> None:
    """Fake time: each period lasts ``used`` ms unless the clock runs out first (the time-out
    is applied at the deadline, delay plus reserve left). In ``n`` periods a player used at most
    ``n`` delays and the reserve, and ran out exactly when the time beyond the delays reached
    the reserve."""
    setting = ClockSetting(delay, reserve)
    left, spent, periods, timed_out = reserve * 1000, 0, 0, False
    for period in used:
        periods += 1
        result = charge(setting, left, period)
        spent += min(period, delay * 1000 + left)
        left = result.reserve_left
        if result.timed_out:
            timed_out = True
            break
    assert spent <= delay * 1000 * periods + reserve * 1000
    beyond = sum(max(0, period - delay * 1000) for period in used[:periods])
    assert timed_out == (beyond >= reserve * 1000)
    if timed_out:
        # the last period ended at its deadline: the delay and what the others left
        earlier = used[: periods - 1]
        before = sum(max(0, period - delay * 1000) for period in earlier)
        assert spent == sum(earlier) + delay * 1000 + reserve * 1000 - before
    else:
        assert left == reserve * 1000 - beyond


def _state_after(*actions: object) -> MatchState:
    state = new_match(MatchRules(length=3, clock=parse_clock("10s+1m")))
    for action in actions:
        state = apply(state, action)  # type: ignore[arg-type]
    return state


def test_rolling_and_moving_is_one_period_and_a_double_hands_the_clock_over() -> None:
    setting = parse_clock("10s+1m")
    opening = _state_after(OpeningRoll((3, 1)))  # player 0 plays 3-1
    clock = start_clock(setting, 3, opening, 0)
    assert clock == ClockState((60_000, 60_000), 0, 0)
    assert clock.deadline(setting) == 70_000
    moved = apply(opening, Move(0, "8/5 6/5"))
    clock, late = after_steps(setting, clock, opening, moved, 30_000)  # 20 s beyond the delay
    assert (clock, late) == (ClockState((40_000, 60_000), 1, 30_000), False)
    rolled = apply(moved, Roll(1, (6, 4)))
    same, late = after_steps(setting, clock, moved, rolled, 35_000)
    assert (same, late) == (clock, False)  # the roll does not press the clock
    played = apply(rolled, Move(1, "24/14"))
    clock, late = after_steps(setting, clock, rolled, played, 50_000)  # 20 s: 10 s beyond
    assert (clock, late) == (ClockState((40_000, 50_000), 0, 50_000), False)
    doubled = apply(played, Double(0))
    clock, late = after_steps(setting, clock, played, doubled, 52_000)  # within the delay
    assert clock == ClockState((40_000, 50_000), 1, 52_000)
    taken = apply(doubled, Take(1))
    clock, late = after_steps(setting, clock, doubled, taken, 72_000)  # 10 s beyond
    assert (clock, late) == (ClockState((40_000, 40_000), 0, 72_000), False)
    assert clock.deadline(setting) == 72_000 + 10_000 + 40_000


def test_an_action_at_the_deadline_is_too_late() -> None:
    setting = parse_clock("10s+1m")
    opening = _state_after(OpeningRoll((3, 1)))
    clock = start_clock(setting, 3, opening, 0)
    moved = apply(opening, Move(0, "8/5 6/5"))
    assert after_steps(setting, clock, opening, moved, 70_000)[1] is True
    assert after_steps(setting, clock, opening, moved, 69_999)[1] is False


def test_the_untimed_seat_is_on_nobodys_clock() -> None:
    """The bot's seat (1) in a match against it: its periods are neither charged nor timed,
    however long they take; the person's starts when the bot has played."""
    setting = parse_clock("10s+1m")
    opening = _state_after(OpeningRoll((1, 3)))  # the bot plays 3-1
    assert start_clock(setting, 3, opening, 0, untimed=1) == ClockState((60_000, 60_000), None, 0)
    clock = ClockState((60_000, 60_000), None, 0)
    moved = apply(opening, Move(1, "8/5 6/5"))
    clock, late = after_steps(setting, clock, opening, moved, 500_000, untimed=1)
    assert (clock, late) == (ClockState((60_000, 60_000), 0, 500_000), False)
    rolled = apply(moved, Roll(0, (6, 4)))
    played = apply(rolled, Move(0, "24/14"))
    clock, late = after_steps(setting, clock, rolled, played, 525_000, untimed=1)  # 15 s beyond
    assert (clock, late) == (ClockState((45_000, 60_000), None, 525_000), False)
    assert clock.deadline(setting) is None
    # A stored clock on which the bot's seat runs (written before it was untimed): not charged.
    stale = ClockState((45_000, 60_000), 1, 525_000)
    again = apply(apply(played, Roll(1, (2, 1))), Move(1, "6/4 6/5"))
    clock, late = after_steps(setting, stale, played, again, 900_000, untimed=1)
    assert (clock, late) == (ClockState((45_000, 60_000), 0, 900_000), False)
