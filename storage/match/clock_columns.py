"""A match clock in the match row (:mod:`gammon.clock`): the columns written when a match starts
and with every append, read back as a :class:`storage.records.MatchClock`.

The period that starts with an append starts at the append's moment: the moment the action
that handed the board to the player was committed (the board reaches the chat a moment later;
the delivery time is not known here, so the player is charged for the send too).

In a match against the bot (``bot_level`` set) the bot is the second seat, and untimed: it plays
at once, and a turn of its that waited (a restart) costs it nothing and has no deadline.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from gammon.clock import ClockSetting, ClockState, after_steps, start_clock
from gammon.flow import MatchState
from gammon.match_rules import MatchRules
from storage.direct import DirectConnection
from storage.records import MatchClock
from storage.schema import matches

COLUMNS: Final = (
    "clock_reserve0",
    "clock_reserve1",
    "clock_running",
    "clock_started_at",
    "clock_deadline",
)
BOT_SEAT: Final = 1  # a match against the bot seats the person first (storage.match.starts)
_NONE: Final = dict.fromkeys(COLUMNS)
_READ: Final = sa.select(*(matches.c[name] for name in COLUMNS), matches.c.bot_level).where(
    matches.c.id == sa.bindparam("match_id"),
    matches.c.version == sa.bindparam("version"),
)
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


def to_ms(moment: datetime) -> int:
    return (moment - _EPOCH) // timedelta(milliseconds=1)


def from_ms(ms: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=ms)


def untimed_seat(bot_level: str | None) -> int | None:
    """The seat on nobody's clock: the bot's, in a match against it."""
    return None if bot_level is None else BOT_SEAT


def start_values(
    rules: MatchRules, state: MatchState, moment: datetime, bot_level: str | None = None
) -> dict[str, Any]:
    """The columns of a new match: full reserves, the period of whoever must act first."""
    if rules.clock is None:
        return dict(_NONE)
    untimed = untimed_seat(bot_level)
    start = start_clock(rules.clock, rules.length, state, to_ms(moment), untimed)
    return _values(rules.clock, start)


def append_values(
    connection: DirectConnection,
    match_id: int,
    version: int,
    before: MatchState,
    after: MatchState,
    moment: datetime,
) -> dict[str, Any]:
    """The columns after going from ``before`` (the match at ``version``) to ``after`` at
    ``moment``, read and written in the append's transaction (the append's version check makes
    what was read the clock of ``before``)."""
    setting = after.rules.clock
    if setting is None:
        return dict(_NONE)
    row = connection.execute(_READ, {"match_id": match_id, "version": version}).first()
    clock = clock_of(row._mapping) if row is not None else None
    untimed = untimed_seat(row.bot_level if row is not None else None)
    if clock is None:  # a clock the row lacks: it starts now
        start = start_clock(setting, after.rules.length, before, to_ms(moment), untimed)
    else:
        start = state_of(clock)
    updated, _late = after_steps(setting, start, before, after, to_ms(moment), untimed)
    return _values(setting, updated)


def _values(setting: ClockSetting, clock: ClockState) -> dict[str, Any]:
    deadline = clock.deadline(setting)
    return {
        "clock_reserve0": clock.reserves[0],
        "clock_reserve1": clock.reserves[1],
        "clock_running": clock.running,
        "clock_started_at": from_ms(clock.started) if clock.running is not None else None,
        "clock_deadline": None if deadline is None else from_ms(deadline),
    }


def clock_of(data: RowMapping) -> MatchClock | None:
    """The clock in a match row, if the match has one."""
    if data["clock_reserve0"] is None:
        return None
    return MatchClock(
        reserves=(data["clock_reserve0"], data["clock_reserve1"]),
        running=data["clock_running"],
        started_at=data["clock_started_at"],
        deadline=data["clock_deadline"],
    )


def state_of(clock: MatchClock) -> ClockState:
    started = 0 if clock.started_at is None else to_ms(clock.started_at)
    return ClockState(clock.reserves, clock.running, started)
