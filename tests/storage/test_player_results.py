"""Each player's results, written when a match ends, and the statistics read from them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa

from gammon.actions import AcceptResignation, Double, Drop, Resign, Take, WinKind
from gammon.flow import MatchState, Phase, new_match
from gammon.match_rules import MatchRules
from storage import AnalysisRepository, UserRepository
from storage.player_results import FinishedMatch, PlayerResultRepository, record_results
from storage.schema import match_analyses
from tests.gammon.test_flow import opening, reach_rolling, run
from tests.storage.players import Table

START = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def anna_wins_three_points() -> MatchState:
    """Game 1: Anna (0) doubles, Bob takes, then resigns a single game (2 points). Game 2,
    the Crawford game: Bob resigns a gammon. Anna wins 4-0 with one single game and one
    gammon; she offered one double, Bob took it."""
    state = reach_rolling(new_match(MatchRules(length=3)), 0)
    state = run(state, Double(0), Take(1), Resign(1, WinKind.SINGLE), AcceptResignation(0))
    state = run(state, *opening(1), Resign(1, WinKind.GAMMON), AcceptResignation(0))
    assert state.phase is Phase.FINISHED
    assert state.winner == 0
    return state


def bob_wins_a_gammon() -> MatchState:
    """Bob (1) doubles, Anna takes and resigns a gammon: 4 points, Bob wins 4-0."""
    state = reach_rolling(new_match(MatchRules(length=3)), 1)
    state = run(state, Double(1), Take(0), Resign(0, WinKind.GAMMON), AcceptResignation(1))
    assert state.phase is Phase.FINISHED
    assert state.winner == 1
    return state


def bob_wins_by_a_drop() -> MatchState:
    """A 2-point match: Bob doubles, Anna drops (0-1); in the Crawford game Anna resigns a
    single game."""
    state = reach_rolling(new_match(MatchRules(length=2)), 1)
    state = run(state, Double(1), Drop(0))
    state = run(state, *opening(1), Resign(0, WinKind.SINGLE), AcceptResignation(1))
    assert state.phase is Phase.FINISHED
    assert state.winner == 1
    return state


async def _record(
    table: Table, state: MatchState, moment: datetime, seats: tuple[int | None, int | None]
) -> int:
    match = await table.new_match()
    await table.database.engine.write(
        lambda connection: record_results(
            connection,
            FinishedMatch(
                match_id=match.info.id,
                chat_id=match.info.chat_id,
                game="backgammon",
                state=state,
                actions=state.actions,
                seats=seats,
                bot_level=None if None not in seats else "expert",
                rated=None not in seats,
            ),
            moment,
        )
    )
    return match.info.chat_id


async def test_a_player_who_never_played_has_empty_statistics(table: Table) -> None:
    stats = await PlayerResultRepository(table.database).statistics(
        table.player_ids[0], "backgammon"
    )
    assert (stats.played, stats.current_streak, stats.opponents, stats.against_bot) == (
        0,
        0,
        [],
        {},
    )


async def test_games_cubes_and_streaks_are_counted_per_player(table: Table) -> None:
    anna, bob = table.player_ids
    results = [anna_wins_three_points(), anna_wins_three_points(), bob_wins_a_gammon()]
    results += [anna_wins_three_points(), bob_wins_by_a_drop()]
    for number, state in enumerate(results):
        await _record(table, state, START + timedelta(minutes=number), (anna, bob))
    repository = PlayerResultRepository(table.database)
    mine = await repository.statistics(anna, "backgammon")
    assert (mine.matches_won, mine.matches_lost) == (3, 2)
    assert (mine.singles_won, mine.gammons_won, mine.backgammons_won) == (3, 3, 0)
    assert mine.games_lost == 3
    assert (mine.doubles_offered, mine.doubles_taken, mine.doubles_dropped) == (3, 1, 1)
    assert (mine.current_streak, mine.longest_streak) == (0, 2)  # won, won, lost, won, lost
    assert [(o.user_id, o.matches) for o in mine.opponents] == [(bob, 5)]
    his = await repository.statistics(bob, "backgammon")
    assert (his.matches_won, his.singles_won, his.gammons_won, his.games_lost) == (2, 2, 1, 6)
    assert (his.doubles_offered, his.doubles_taken, his.doubles_dropped) == (2, 3, 0)
    assert (his.current_streak, his.longest_streak) == (1, 1)
    assert (await repository.statistics(anna, "nardy")).played == 0


async def test_matches_against_the_bot_are_a_record_of_their_own(table: Table) -> None:
    anna, _ = table.player_ids
    await _record(table, anna_wins_three_points(), START, (anna, None))
    await _record(table, bob_wins_a_gammon(), START + timedelta(minutes=1), (anna, None))
    stats = await PlayerResultRepository(table.database).statistics(anna, "backgammon")
    assert stats.played == 0  # against people
    assert stats.against_bot == {"expert": (1, 1)}


async def test_statistics_in_one_chat_and_overall(table: Table) -> None:
    anna, bob = table.player_ids
    carl = (await UserRepository(table.database).upsert_user("telegram", "carl", "Carl")).id
    here = await _record(table, anna_wins_three_points(), START, (anna, bob))
    there = await _record(table, anna_wins_three_points(), START, (anna, carl))
    assert here != there  # the second match was in a chat of its own
    repository = PlayerResultRepository(table.database)
    assert (await repository.statistics(anna, "backgammon", chat_id=here)).matches_won == 1
    assert (await repository.statistics(anna, "backgammon")).matches_won == 2
    overall = await repository.statistics(anna, "backgammon")
    assert {o.user_id for o in overall.opponents} == {bob, carl}


async def test_an_analysis_adds_each_players_error_rate(table: Table) -> None:
    anna, bob = table.player_ids
    match = await table.new_match()
    await table.database.engine.write(
        lambda connection: record_results(
            connection,
            FinishedMatch(
                match_id=match.info.id,
                chat_id=match.info.chat_id,
                game="backgammon",
                state=anna_wins_three_points(),
                actions=(),
                seats=(anna, bob),
                bot_level=None,
                rated=True,
            ),
            START,
        )
    )
    await table.database.engine.write(
        lambda connection: connection.execute(
            sa.insert(match_analyses).values(
                match_id=match.info.id, status="pending", level="expert", requested_at=START
            )
        )
    )
    analyses = AnalysisRepository(table.database)
    assert await analyses.claim(match.info.id, "expert")
    await analyses.store(match.info.id, {}, START, error_rates=(4.5, 12.25))
    repository = PlayerResultRepository(table.database)
    mine = await repository.statistics(anna, "backgammon")
    assert (mine.error_rate, mine.analysed) == (4.5, 1)
    assert (await repository.statistics(bob, "backgammon")).error_rate == 12.25
