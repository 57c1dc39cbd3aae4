"""What a game's and a match's end set off (bot/core/events.py): the events emitted from the
steps the rules planned, and their handlers, written inside the transaction that appends the
last events, so that a handler that fails leaves nothing written at all."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import sqlalchemy as sa

from bot.core.events import (
    HANDLERS,
    EventHandlers,
    GameFinished,
    MatchFinished,
    SessionEnded,
    match_events,
)
from gammon.actions import AcceptResignation, ClaimWin, OpeningRoll, Resign, WinKind
from gammon.flow import plan
from gammon.match_rules import MatchRules
from gammon.position import Variant
from storage import AnalysisRepository, AnalysisStatus, LoadedMatch
from storage.schema import match_seats, player_results, rated_matches
from storage.transaction import Transaction
from tests.storage.players import Table, append_action, open_table

# The end's writes commit or roll back with the append: each database's transactions.
pytestmark = pytest.mark.both_databases


@pytest.fixture
async def table(migrated_url: str) -> AsyncIterator[Table]:
    opened = await open_table(migrated_url, migrate=False)
    yield opened
    await opened.database.close()


def _no_dice(nonce: int) -> tuple[int, int]:
    raise AssertionError("no dice here")


async def _opened(table: Table, rules: MatchRules) -> LoadedMatch:
    """A new match after its opening roll."""
    match = await table.new_match(rules)
    return (await append_action(table.matches, match.info.id, 0, OpeningRoll((3, 1)))).match


async def _count(table: Table, query: sa.Select[tuple[int]]) -> int:
    return int((await table.database.engine.read(query)).scalar() or 0)


def _rows(table_: sa.Table, match_id: int) -> sa.Select[tuple[int]]:
    return sa.select(sa.func.count()).select_from(table_).where(table_.c.match_id == match_id)


async def test_the_steps_that_end_a_game_and_the_match_emit_both(table: Table) -> None:
    opened = await _opened(table, MatchRules(length=1))
    waiting = 1 - opened.state.player_on_roll
    steps = plan(opened.state, ClaimWin(waiting), None, _no_dice)
    events = match_events(opened.info, opened.state, steps)
    assert events == (
        GameFinished("match", opened.info.id, 1),
        MatchFinished(opened.info, steps[-1].after),
    )
    assert match_events(opened.info, opened.state, []) == ()


async def test_a_game_that_leaves_the_match_running_emits_only_its_end(table: Table) -> None:
    opened = await _opened(table, MatchRules(length=5))
    mover = opened.state.player_on_roll
    steps = plan(opened.state, Resign(mover, WinKind.SINGLE), None, _no_dice)
    steps += plan(steps[-1].after, AcceptResignation(1 - mover), None, _no_dice)
    assert steps[-1].after.score != (0, 0)
    assert match_events(opened.info, opened.state, steps) == (
        GameFinished("match", opened.info.id, 1),
    )


@pytest.mark.parametrize(
    ("variant", "status"),
    [(Variant.BACKGAMMON, AnalysisStatus.PENDING), (Variant.LONG_NARDY, AnalysisStatus.SKIPPED)],
)
async def test_a_finished_match_frees_its_seats_and_queues_its_analysis_by_variant(
    table: Table, variant: Variant, status: AnalysisStatus
) -> None:
    opened = await _opened(table, MatchRules(length=3, variant=variant))
    match_id = opened.info.id
    assert await _count(table, _rows(match_seats, match_id)) == 2
    waiting = 1 - opened.state.player_on_roll
    await append_action(table.matches, match_id, opened.info.version, ClaimWin(waiting))
    assert await _count(table, _rows(match_seats, match_id)) == 0
    analysis = await AnalysisRepository(table.database).get(match_id)
    assert analysis is not None
    assert analysis.status is status
    assert await _count(table, _rows(player_results, match_id)) == 2
    assert await _count(table, _rows(rated_matches, match_id)) == 1


async def test_a_handler_that_fails_leaves_nothing_written(table: Table) -> None:
    """The handlers run in the append's transaction: when one fails after the others wrote,
    neither the match's last events nor anything the handlers wrote is kept."""
    opened = await _opened(table, MatchRules(length=3))
    match_id = opened.info.id
    steps = plan(opened.state, ClaimWin(1 - opened.state.player_on_roll), None, _no_dice)
    events = match_events(opened.info, opened.state, steps)

    def fails(event: MatchFinished, transaction: Transaction) -> None:
        raise RuntimeError("the disk is full")

    handlers = EventHandlers()
    for handler in (
        lambda event, transaction: transaction.free_match_seats(event.info.id),
        lambda event, transaction: transaction.queue_analysis(event.info.id, "pending"),
        fails,
    ):
        handlers.on(MatchFinished, handler)
    with pytest.raises(RuntimeError):
        await table.matches.append(
            match_id, opened.info.version, steps, then=handlers.inside(events)
        )
    after = await table.matches.load_match(match_id)
    assert after.info.version == opened.info.version
    assert after.info.status == "active"
    assert len(await table.matches.history(match_id)) == opened.info.version
    assert await _count(table, _rows(match_seats, match_id)) == 2
    assert await AnalysisRepository(table.database).get(match_id) is None


def test_every_end_has_its_handlers_registered_in_one_place() -> None:
    assert HANDLERS.inside([GameFinished("chouette", 1, 1)]) is not None  # marked over
    assert HANDLERS.inside([SessionEnded(1)]) is not None
    assert HANDLERS.inside([]) is None
