"""A match clock in the database: reserves, the running period and its deadline written with
the match and every append, read back by another process (times by hand, fake moments)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gammon.actions import Double, Move, OpeningRoll, Roll, Take
from gammon.clock import parse_clock
from gammon.match_rules import MatchRules
from storage import Database, MatchClock, MatchRepository
from storage.dice import SecretSeed
from tests.storage.players import Table, append_action

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


async def test_the_clock_is_charged_with_each_append_and_read_by_another_process(
    table: Table, migrated_url: str
) -> None:
    # 10 s delay, 1 min a point: 3 min each in a 3-point match.
    rules = MatchRules(length=3, clock=parse_clock("10s+1m/pt"))
    started = await table.matches.start_match(
        chat_id=table.chat_id,
        player_ids=table.player_ids,
        rules=rules,
        client_seeds=("a", "b"),
        seed=SecretSeed(b"\x01" * 32),
        now=T0,
    )
    match = started.match
    assert match.info.clock == MatchClock((180_000, 180_000), None, None, None)  # no turn yet
    matches, match_id = table.matches, match.info.id
    step = await append_action(matches, match_id, 0, OpeningRoll((3, 1)), now=at(1))
    assert step.match.info.clock == MatchClock((180_000, 180_000), 0, at(1), at(191))
    # Player 0 plays 31 s later: 21 s beyond the delay.
    step = await append_action(matches, match_id, 1, Move(0, "8/5 6/5"), now=at(32))
    assert step.match.info.clock == MatchClock((159_000, 180_000), 1, at(32), at(222))
    # Player 1 rolls (the same period) and plays, 15 s in all: 5 s beyond.
    step = await append_action(matches, match_id, 2, Roll(1, (6, 4)), now=at(40))
    assert step.match.info.clock == MatchClock((159_000, 180_000), 1, at(32), at(222))
    step = await append_action(matches, match_id, 3, Move(1, "24/14"), now=at(47))
    assert step.match.info.clock == MatchClock((159_000, 175_000), 0, at(47), at(216))
    # A double within the delay; the take 70 s later (60 s off the reserve).
    step = await append_action(matches, match_id, 4, Double(0), now=at(50))
    assert step.match.info.clock == MatchClock((159_000, 175_000), 1, at(50), at(235))
    step = await append_action(matches, match_id, 5, Take(1), now=at(120))
    assert step.match.info.clock == MatchClock((159_000, 115_000), 0, at(120), at(289))

    other = Database(migrated_url)  # another process, or this one after a restart
    try:
        again = await MatchRepository(other).load_match(match_id)
        assert again.info.clock == MatchClock((159_000, 115_000), 0, at(120), at(289))
        assert [info.id for info in await MatchRepository(other).clocks_before(at(289))] == [
            match_id
        ]
        assert await MatchRepository(other).clocks_before(at(288.999)) == []
    finally:
        await other.close()


async def test_a_match_without_a_clock_has_none(table: Table) -> None:
    match = await table.new_match()
    step = await append_action(table.matches, match.info.id, 0, OpeningRoll((3, 1)), now=T0)
    assert step.match.info.clock is None
    assert await table.matches.clocks_before(at(10**6)) == []
