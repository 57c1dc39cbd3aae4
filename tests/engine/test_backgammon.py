"""The bgsage adapter: boards, the set of plays, evaluations, luck and match equity."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine import backgammon
from engine.api import CubeOwner, Level, Situation
from engine.backgammon import (
    board_after,
    from_board,
    match_equity,
    rank_plays,
    roll_luck,
    to_board,
)
from engine.backgammon_cube import cube_advice, evaluate
from engine.decide import decide
from gammon import Position, format_play, legal_plays
from gammon.actions import Move
from gammon.flow import MatchState, Phase, apply, new_match
from gammon.match_rules import MatchRules
from gammon.position import CHECKERS, OFF

# bgsage's STARTING_BOARD: the mover's checkers positive, the opponent's negative, index 25
# the mover's bar and 0 the opponent's bar.
STARTING_BOARD = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0]

seeds = st.integers(min_value=0, max_value=2**32 - 1)
plies = st.integers(min_value=0, max_value=160)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))


def random_position(seed: int, moves: int) -> Position:
    """The position after up to ``moves`` random legal plays from the start (stopping before
    a play that would end the game), with the side to play next on roll."""
    rng = random.Random(seed)
    position = Position.start()
    for _ in range(moves):
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        plays = legal_plays(position, roll)
        if not plays:
            position = position.swapped()
            continue
        after = rng.choice(plays).result
        if after.opponent[OFF] == CHECKERS:
            break
        position = after
    return position


def moving_state(position: Position, roll: tuple[int, int], rules: MatchRules) -> MatchState:
    return replace(new_match(rules), phase=Phase.MOVING, position=position, dice=roll)


# --- boards ---------------------------------------------------------------------------------


def test_the_starting_position_is_bgsages_starting_board() -> None:
    assert to_board(Position.start()) == STARTING_BOARD
    assert from_board(STARTING_BOARD) == Position.start()


def test_bars_map_to_the_ends_of_the_board() -> None:
    position = Position.from_points({25: 1, 6: 2}, {25: 2, 24: 1})
    board = to_board(position)
    assert (board[25], board[0]) == (1, 2)
    assert board[1] == -1  # the opponent's 24-point is the mover's 1-point
    assert from_board(board) == position


@settings(max_examples=100, derandomize=True)
@given(seeds, plies)
def test_boards_round_trip(seed: int, moves: int) -> None:
    position = random_position(seed, moves)
    board = to_board(position)
    assert from_board(board) == position
    # The other side's board is the mirror image (bgsage's flip_board), bars exchanged.
    mirrored = [board[25], *(-board[25 - point] for point in range(1, 25)), board[0]]
    assert to_board(position.swapped()) == mirrored


@settings(max_examples=60, derandomize=True)
@given(seeds, plies, dice)
def test_the_board_after_a_play_is_the_movers_board_of_its_result(
    seed: int, moves: int, roll: tuple[int, int]
) -> None:
    """How the engine's plays are matched to ours: ``board_after`` is the board of the
    result seen by the player who moved, and reads back as that result."""
    for play in legal_plays(random_position(seed, moves), roll):
        board = board_after(play.result)
        assert board == tuple(to_board(play.result.swapped()))
        assert from_board(board).swapped() == play.result


def test_long_nardy_is_not_for_this_engine() -> None:
    with pytest.raises(ValueError, match="backgammon only"):
        to_board(Position.start("long_nardy"))


# --- the plays ------------------------------------------------------------------------------


SITUATIONS = {
    "money": {},
    "money, cube owned, Jacoby": {
        "cube_value": 2,
        "cube_owner": CubeOwner.DECIDER,
        "jacoby": True,
        "beavers": True,
    },
    "match 3-away 5-away": {"away": (3, 5)},
    "post-Crawford": {"away": (4, 1)},
    "no cube": {"cube_enabled": False},
    "no cube, match": {"cube_enabled": False, "away": (2, 3)},
}


@settings(max_examples=60, derandomize=True)
@given(seeds, plies, dice, st.sampled_from(sorted(SITUATIONS)))
def test_rank_plays_ranks_exactly_the_legal_plays(
    seed: int, moves: int, roll: tuple[int, int], kind: str
) -> None:
    position = random_position(seed, moves)
    situation = Situation(position, **SITUATIONS[kind])  # type: ignore[arg-type]
    ranked = rank_plays(situation, roll, Level.EXPERT)
    plays = {play.result.id(): play for play in legal_plays(position, roll)}
    assert len(ranked) == len(plays)
    assert {play.result_id for play in ranked} == set(plays)
    for play in ranked:
        assert play.notation == format_play(plays[play.result_id])
        assert 0.0 <= play.probabilities.win <= 1.0
    equities = [play.equity for play in ranked]
    assert equities == sorted(equities, reverse=True)
    if ranked:
        assert ranked[0].loss == 0.0
        assert all(play.loss == pytest.approx(equities[0] - play.equity) for play in ranked)


def test_a_roll_that_cannot_be_played_has_no_plays() -> None:
    closed_out = Position.from_points({25: 2, 13: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert rank_plays(Situation(closed_out), (6, 6), Level.EXPERT) == ()


def test_the_best_opening_three_one_makes_the_five_point() -> None:
    """Every strong program and every book: 3-1 opens 8/5 6/5."""
    for level in (Level.EXPERT, Level.WORLD_CLASS):
        assert rank_plays(Situation(Position.start()), (3, 1), level)[0].notation == "8/5 6/5"


# --- the cube shortcut ----------------------------------------------------------------------


def test_evaluation_without_a_cube_is_cubeless() -> None:
    situation = Situation(random_position(7, 30), cube_enabled=False)
    evaluation = evaluate(situation, Level.EXPERT)
    assert evaluation.cubeful_equity == evaluation.cubeless_equity
    p = evaluation.probabilities
    money = 2 * p.win - 1 + p.win_gammon - p.lose_gammon + p.win_backgammon - p.lose_backgammon
    assert evaluation.cubeless_equity == pytest.approx(money)
    assert not cube_advice(situation, Level.EXPERT).double


def test_the_cubeful_equity_of_the_opening_is_a_small_edge_for_the_roller() -> None:
    evaluation = evaluate(Situation(Position.start()), Level.EXPERT)
    assert 0.5 < evaluation.probabilities.win < 0.56
    assert 0.0 < evaluation.cubeful_equity < 0.2


# --- luck and match equity ------------------------------------------------------------------


def test_entering_from_the_bar_against_a_five_point_board() -> None:
    """Only a 1 enters against points 2 to 6 closed: every roll with a 1 is lucky, every
    other roll dances, and all dances are the same misfortune."""
    position = Position.from_points(
        {25: 1, 6: 4, 8: 3, 13: 4, 24: 3}, {2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2, 13: 2}
    )
    situation = Situation(position)
    entering = [roll_luck(situation, roll, Level.EXPERT) for roll in [(1, 1), (2, 1), (6, 1)]]
    dancing = [roll_luck(situation, roll, Level.EXPERT) for roll in [(6, 6), (5, 4), (3, 2)]]
    assert min(entering) > 0 > max(dancing)
    assert max(dancing) == pytest.approx(min(dancing))


def test_the_opening_three_one_is_lucky() -> None:
    assert roll_luck(Situation(Position.start()), (3, 1), Level.EXPERT, opening=True) > 0


def test_luck_is_judged_one_ply_below_the_level() -> None:
    assert backgammon.luck_depth(Level.EXPERT) == "1ply"
    assert backgammon.luck_depth(Level.WORLD_CLASS) == "1ply"


def test_the_match_equity_table() -> None:
    assert match_equity(1, 1, False) == 0.5
    assert match_equity(0, 3, False) == 1.0
    assert match_equity(3, 0, False) == 0.0
    for away, other in [(2, 5), (3, 4), (7, 7), (1, 4)]:
        assert match_equity(away, other, False) + match_equity(other, away, False) == (
            pytest.approx(1.0)
        )
    # 1-away/2-away: about 68-70 % for the leader at the start of the Crawford game, but only
    # about 51 % post-Crawford, when the trailer doubles at once.
    assert 0.65 < match_equity(1, 2, False) < 0.72
    assert 0.5 < match_equity(1, 2, True) < 0.53


# --- the bot's play is always legal ---------------------------------------------------------


FAST_LEVELS = [Level.BEGINNER, Level.INTERMEDIATE, Level.ADVANCED, Level.EXPERT]


@settings(max_examples=40, derandomize=True)
@given(seeds, plies, dice, st.sampled_from(FAST_LEVELS), seeds)
def test_the_bot_always_plays_a_legal_play(
    seed: int, moves: int, roll: tuple[int, int], level: Level, decision_seed: int
) -> None:
    position = random_position(seed, moves)
    assume(legal_plays(position, roll))
    state = moving_state(position, roll, MatchRules(length=0))
    decision = decide(state, 0, level, decision_seed)
    assert decision.action == "move"
    assert decision.play is not None
    apply(state, Move(0, decision.play))  # raises unless legal


@settings(max_examples=6, derandomize=True)
@given(seeds, plies, st.sampled_from([(3, 1), (6, 5), (4, 2), (5, 2)]))
def test_the_world_class_bot_plays_a_legal_play(
    seed: int, moves: int, roll: tuple[int, int]
) -> None:
    """World class looks a roll ahead, which can take a second with many candidates, so it
    is tried on fewer positions (and rolls that are not doubles)."""
    position = random_position(seed, moves)
    assume(legal_plays(position, roll))
    state = moving_state(position, roll, MatchRules(length=5))
    decision = decide(state, 0, Level.WORLD_CLASS, 0)
    assert decision.play is not None
    apply(state, Move(0, decision.play))
