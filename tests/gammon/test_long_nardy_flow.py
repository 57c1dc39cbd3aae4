"""Long nardy games and series: the lot, no cube, oin and mars, the last roll, who starts next."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from gammon import Position, Variant, legal_plays
from gammon.actions import (
    AcceptResignation,
    Action,
    CannotMove,
    Double,
    Move,
    OpeningRoll,
    Resign,
    Roll,
    WinKind,
)
from gammon.flow import ActionError, MatchState, Phase, advance, apply, new_match, replay
from gammon.mat_format import export_mat, import_mat
from gammon.match_rules import MatchRules
from tests.gammon.nardy_reference import has_forbidden_block, their_point
from tests.gammon.selfplay import play_random_match
from tests.gammon.test_mat_format import essentials


def run(state: MatchState, *actions: Action) -> MatchState:
    for action in actions:
        state = apply(state, action)
    return state


def nardy_rules(**options: object) -> MatchRules:
    return MatchRules(variant=Variant.LONG_NARDY, **options)  # type: ignore[arg-type]


def test_the_lot_chooses_white_and_the_first_play_gets_fresh_dice() -> None:
    state = new_match(nardy_rules(length=3))
    assert state.position == Position.start("long_nardy")
    state = apply(state, OpeningRoll((4, 4)))
    assert state.phase is Phase.OPENING  # a tie is rolled again
    state = apply(state, OpeningRoll((2, 5)))
    assert (state.phase, state.player_on_roll, state.white, state.dice) == (
        Phase.ROLLING,
        1,
        1,
        None,
    )
    state = run(state, Roll(1, (6, 6)), Move(1, "24/18(2)"))
    assert state.player_on_roll == 0


def test_long_nardy_has_no_cube() -> None:
    state = run(new_match(nardy_rules(length=3)), OpeningRoll((5, 2)))
    with pytest.raises(ActionError) as error:
        apply(state, Double(0))
    assert error.value.reason == "cube_disabled"
    with pytest.raises(ValueError, match="without the doubling cube"):
        nardy_rules(cube=True)
    with pytest.raises(ValueError, match="long nardy options"):
        MatchRules(length=3, last_roll=True)


def last_checker(rules: MatchRules, loser: dict[int, int], starter: int = 0) -> MatchState:
    """Player 0 on roll with one checker on the ace point; ``loser`` in player 1's numbers."""
    state = run(new_match(rules), OpeningRoll((5, 2) if starter == 0 else (2, 5)))
    return replace(
        state,
        phase=Phase.MOVING,
        player_on_roll=0,
        dice=(2, 1),
        position=Position.from_points({1: 1}, loser, Variant.LONG_NARDY),
    )


@pytest.mark.parametrize(
    ("mars", "loser", "kind", "points"),
    [
        (True, {24: 15}, WinKind.GAMMON, 2),  # mars: nothing borne off
        (True, {3: 14}, WinKind.SINGLE, 1),  # oin: one already off
        (False, {24: 15}, WinKind.SINGLE, 1),  # every result counts one
    ],
)
def test_oin_and_mars(mars: bool, loser: dict[int, int], kind: WinKind, points: int) -> None:
    state = apply(last_checker(nardy_rules(length=5, mars=mars), loser), Move(0, "1/off"))
    result = state.games[-1]
    assert (result.winner, result.kind, result.points) == (0, kind, points)


def test_a_resignation_scores_by_the_position_at_that_moment() -> None:
    state = run(new_match(nardy_rules(length=5)), OpeningRoll((5, 2)), Roll(0, (6, 5)))
    state = run(state, Resign(1, WinKind.SINGLE), AcceptResignation(0))
    assert state.games[-1].points == 2  # nothing borne off: a mars, whatever was offered
    no_mars = run(new_match(nardy_rules(length=5, mars=False)), OpeningRoll((5, 2)))
    no_mars = run(no_mars, Resign(1, WinKind.BACKGAMMON), AcceptResignation(0))
    assert no_mars.games[-1].points == 1


def test_the_last_roll_can_draw_the_game() -> None:
    rules = nardy_rules(length=5, last_roll=True)
    state = apply(last_checker(rules, {1: 1}), Move(0, "1/off"))
    assert (state.phase, state.turn, state.last_roll) == (Phase.ROLLING, 1, True)
    state = run(state, Roll(1, (3, 2)), Move(1, "1/off"))
    result = state.games[-1]
    assert (result.winner, result.points, result.kind, result.reason) == (None, 0, None, "draw")
    assert state.score == (0, 0)


def test_the_last_roll_that_does_not_finish_leaves_the_win_with_the_starter() -> None:
    rules = nardy_rules(length=5, last_roll=True)
    state = apply(last_checker(rules, {6: 15}), Move(0, "1/off"))
    state = run(state, Roll(1, (2, 1)), Move(1, "6/4 6/5"))
    assert (state.games[-1].winner, state.games[-1].points) == (0, 2)  # still a mars


def test_the_game_is_scored_after_the_last_roll() -> None:
    # The other side bears off two checkers with the extra roll: a mars becomes an oin.
    rules = nardy_rules(length=5, last_roll=True)
    state = apply(last_checker(rules, {1: 15}), Move(0, "1/off"))
    state = run(state, Roll(1, (2, 1)), Move(1, "1/off(2)"))
    assert (state.games[-1].winner, state.games[-1].points) == (0, 1)


def test_without_the_option_or_for_the_second_player_there_is_no_last_roll() -> None:
    plain = apply(last_checker(nardy_rules(length=5), {1: 1}), Move(0, "1/off"))
    assert plain.games[-1].winner == 0
    second_player_finishes = apply(
        last_checker(nardy_rules(length=5, last_roll=True), {1: 1}, starter=1), Move(0, "1/off")
    )
    assert second_player_finishes.games[-1].winner == 0


@pytest.mark.parametrize(("series_start", "expected"), [("loser", 1), ("alternate", 1)])
def test_who_starts_the_next_game(series_start: str, expected: int) -> None:
    rules = nardy_rules(length=5, series_start=series_start)
    state = apply(last_checker(rules, {24: 15}), Move(0, "1/off"))  # player 0 started and won
    assert (state.phase, state.player_on_roll, state.game_starter) == (
        Phase.ROLLING,
        expected,
        expected,
    )
    assert state.position == Position.start("long_nardy")


def test_a_loser_who_started_starts_again_under_loser_starts() -> None:
    rules = nardy_rules(length=5, series_start="loser")
    state = run(new_match(rules), OpeningRoll((5, 2)), Resign(0, WinKind.SINGLE))
    state = apply(state, AcceptResignation(1))
    assert (state.player_on_roll, state.game_starter) == (0, 0)
    alternate = run(new_match(nardy_rules(length=5, series_start="alternate")), OpeningRoll((5, 2)))
    alternate = run(alternate, Resign(0, WinKind.SINGLE), AcceptResignation(1))
    assert alternate.player_on_roll == 1


def test_a_series_ends_at_its_length() -> None:
    state = run(new_match(nardy_rules(length=3)), OpeningRoll((5, 2)))
    state = run(state, Resign(1, WinKind.SINGLE), AcceptResignation(0))  # mars: 2
    assert state.phase is Phase.ROLLING
    state = run(state, Resign(1, WinKind.SINGLE), AcceptResignation(0))
    assert state.phase is Phase.FINISHED
    assert (state.winner, state.score) == (0, (4, 0))


def test_a_dance_passes_the_turn_in_long_nardy() -> None:
    # Player 0's only checker outside the home faces a closed 8 point (their 20) with 1-1,
    # and the others cannot bear off while it is out.
    state = run(new_match(nardy_rules(length=3)), OpeningRoll((5, 2)))
    stuck = replace(
        state, position=Position.from_points({9: 1, 1: 14}, {20: 1, 24: 14}, Variant.LONG_NARDY)
    )
    assert legal_plays(stuck.position, (1, 1)) == ()
    after, recorded = advance(stuck, Roll(0, (1, 1)))
    assert recorded == [Roll(0, (1, 1)), CannotMove(0)]
    assert after.player_on_roll == 1


def test_a_series_survives_mat_export_and_import() -> None:
    rng = random.Random(8)
    for series_start in ("loser", "alternate"):
        rules = nardy_rules(length=5, last_roll=True, series_start=series_start)
        state = play_random_match(rng, length=5, rules=rules)
        text = export_mat(state, ["Али", "Борис"])
        assert '; [Variation "LongNardy"]' in text
        imported_rules, actions = import_mat(text)
        assert imported_rules == rules
        assert essentials(replay(imported_rules, actions)) == essentials(state)


def test_a_thousand_random_games_finish_within_the_rules() -> None:
    rng = random.Random(29112026)
    games = 0
    for game in range(1000):
        check_blocks = game % 4 == 0  # the plain block check is slow: every fourth game
        position = Position.start(Variant.LONG_NARDY)
        for _ply in range(2000):
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            options = legal_plays(position, dice)
            if not options:
                position = position.swapped()
                continue
            play = rng.choice(options)
            first_turn_double = position.player[24] == 15 and dice[0] == dice[1]
            limit = 2 if first_turn_double and dice[0] in (3, 4, 6) else 1
            assert sum(step.start == 24 for step in play.steps) <= limit
            board = list(position.player)
            for step in play.steps:
                board[step.start] -= 1
                board[step.end] += 1
                if step.end:
                    assert not position.opponent[their_point(step.end)]
                if check_blocks:
                    assert not has_forbidden_block(board, list(position.opponent))
            assert sum(play.result.player) == sum(play.result.opponent) == 15
            if play.result.opponent[0] == 15:
                games += 1
                break
            position = play.result
        else:
            raise AssertionError("a game did not finish in 2000 plies")
    assert games == 1000
