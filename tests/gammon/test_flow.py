"""Game and match flow, scripted game by game as the tournament rules describe it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gammon import Match, Position
from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    CannotMove,
    ClaimWin,
    Double,
    Drop,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
    WinKind,
    action_from_dict,
    action_to_dict,
)
from gammon.errors import IllegalPlayError
from gammon.flow import ActionError, MatchState, Phase, advance, apply, new_match, replay
from gammon.match_rules import MatchRules


def run(state: MatchState, *actions: Action) -> MatchState:
    for action in actions:
        state = apply(state, action)
    return state


def refused(state: MatchState, action: Action) -> str:
    with pytest.raises(ActionError) as error:
        apply(state, action)
    assert str(error.value)
    return error.value.reason


def opening(winner: int) -> tuple[Action, Action]:
    """The winner opens 4-2 and makes the 4 point."""
    dice = (4, 2) if winner == 0 else (2, 4)
    return OpeningRoll(dice), Move(winner, "8/4 6/4")


def reach_rolling(state: MatchState, starter: int) -> MatchState:
    """Opening by ``starter``, the reply 3-1, so ``starter`` is on roll again."""
    other = 1 - starter
    return run(state, *opening(starter), Roll(other, (3, 1)), Move(other, "8/5 6/5"))


def win_by_drop(state: MatchState, winner: int) -> MatchState:
    state = reach_rolling(state, winner)
    return run(state, Double(winner), Drop(1 - winner))


def test_the_opening_roll_is_rerolled_on_a_tie_and_the_higher_die_starts() -> None:
    state = new_match(MatchRules(length=5))
    state = apply(state, OpeningRoll((5, 5)))
    assert state.phase is Phase.OPENING
    assert state.cube_value == 1  # no automatic doubles in a match
    state = apply(state, OpeningRoll((2, 6)))
    assert state.phase is Phase.MOVING
    assert state.player_on_roll == 1
    assert state.dice == (2, 6)  # the starter plays both numbers: never a double
    assert state.dice_events == 2
    state = apply(state, Move(1, "24/18 13/11"))
    assert (state.player_on_roll, state.phase) == (0, Phase.ROLLING)


def test_out_of_turn_and_out_of_order_actions_are_refused() -> None:
    state = new_match(MatchRules(length=5))
    assert refused(state, Roll(0, (3, 1))) == "opening_roll_first"
    state = run(state, *opening(0))
    assert refused(state, Roll(0, (3, 1))) == "not_your_turn"
    assert refused(state, Move(1, "8/5 6/5")) == "roll_first"
    assert refused(state, Take(1)) == "no_double_pending"
    assert refused(state, AcceptResignation(0)) == "no_resignation_pending"
    assert refused(state, Roll(1, (7, 1))) == "invalid_dice"
    state = apply(state, Roll(1, (3, 1)))
    assert refused(state, Roll(1, (3, 1))) == "dice_rolled"
    assert refused(state, Move(0, "8/5 6/5")) == "not_your_turn"
    error_reason = refused(state, Move(1, "8/3"))
    assert error_reason == "illegal_play"
    assert refused(state, CannotMove(1)) == "must_move"


def test_out_of_turn_the_reason_is_the_turn_whether_or_not_the_dice_are_rolled() -> None:
    rolling = reach_rolling(new_match(MatchRules(length=5)), 0)  # player 0 is on roll
    moving = apply(rolling, Roll(0, (6, 5)))
    for state in (rolling, moving):
        assert refused(state, Roll(1, (3, 1))) == "not_your_turn"
        assert refused(state, Double(1)) == "not_your_turn"
        assert refused(state, Move(1, "8/5 6/5")) == "not_your_turn"
        assert refused(state, CannotMove(1)) == "not_your_turn"
    error = moving.double_refusal(1)
    assert error is not None
    assert error.reason == "not_your_turn"
    no_cube = reach_rolling(new_match(MatchRules(length=5, cube=False)), 0)
    assert refused(no_cube, Double(1)) == "not_your_turn"
    assert refused(apply(no_cube, Roll(0, (6, 5))), Double(1)) == "not_your_turn"


def test_rolling_twice_and_doubling_after_rolling_have_their_own_reasons() -> None:
    moving = apply(reach_rolling(new_match(MatchRules(length=5)), 0), Roll(0, (6, 5)))
    assert refused(moving, Roll(0, (3, 1))) == "dice_rolled"
    assert refused(moving, Double(0)) == "already_rolled"


def test_the_opening_roll_and_pending_answers_keep_their_reasons_for_either_player() -> None:
    opening_state = new_match(MatchRules(length=5))
    for player in (0, 1):
        for action in (Roll(player, (3, 1)), Double(player), Move(player, "8/5 6/5")):
            assert refused(opening_state, action) == "opening_roll_first"
        assert refused(opening_state, CannotMove(player)) == "opening_roll_first"
    rolling = reach_rolling(new_match(MatchRules(length=5)), 0)
    doubled = apply(rolling, Double(0))  # player 1 must answer
    resigning = apply(rolling, Resign(1, WinKind.SINGLE))  # player 0 must answer
    for state, reason in ((doubled, "double_pending"), (resigning, "resignation_pending")):
        for player in (0, 1):
            assert refused(state, Roll(player, (3, 1))) == reason
            assert refused(state, Double(player)) == reason
            assert refused(state, Move(player, "8/5 6/5")) == reason
            assert refused(state, CannotMove(player)) == reason


def test_nobody_can_claim_while_the_opening_roll_decides_who_starts() -> None:
    for rules in (MatchRules(length=5), MatchRules(length=0)):
        state = new_match(rules)
        assert refused(state, ClaimWin(0)) == "nobody_on_turn"
        assert refused(state, ClaimWin(1)) == "nobody_on_turn"
    tie = apply(new_match(MatchRules(length=5)), OpeningRoll((4, 4)))
    assert refused(tie, ClaimWin(0)) == "nobody_on_turn"


def test_the_player_who_must_act_cannot_claim() -> None:
    rolling = reach_rolling(new_match(MatchRules(length=5)), 0)  # player 0 is on roll
    assert refused(rolling, ClaimWin(0)) == "not_waiting"
    assert refused(apply(rolling, Roll(0, (6, 5))), ClaimWin(0)) == "not_waiting"
    assert refused(apply(rolling, Double(0)), ClaimWin(1)) == "not_waiting"
    assert refused(apply(rolling, Resign(0, WinKind.SINGLE)), ClaimWin(1)) == "not_waiting"


@pytest.mark.parametrize(
    ("actions", "claimant", "score"),
    [
        ((), 1, (0, 5)),  # player 0 has to roll
        ((Roll(0, (6, 5)),), 1, (0, 5)),  # player 0 has to move
        ((Double(0),), 0, (5, 0)),  # player 1 has to answer the double
        ((Resign(0, WinKind.GAMMON),), 0, (5, 0)),  # player 1 has to answer the resignation
    ],
)
def test_the_waiting_player_may_claim_while_the_opponent_must_act(
    actions: tuple[Action, ...], claimant: int, score: tuple[int, int]
) -> None:
    state = run(reach_rolling(new_match(MatchRules(length=5)), 0), *actions)
    claimed = apply(state, ClaimWin(claimant))
    assert claimed.phase is Phase.FINISHED
    assert claimed.winner == claimant
    assert claimed.score == score
    assert claimed.games[-1].reason == "forfeit"


def test_an_illegal_play_carries_the_notation_error() -> None:
    state = run(new_match(MatchRules(length=5)), *opening(0), Roll(1, (3, 1)))
    with pytest.raises(ActionError) as error:
        apply(state, Move(1, "13/11"))
    assert isinstance(error.value.play_error, IllegalPlayError)
    assert error.value.play_error.alternatives


def test_a_double_comes_only_before_rolling() -> None:
    state = reach_rolling(new_match(MatchRules(length=5)), 0)
    rolled = apply(state, Roll(0, (6, 5)))
    assert refused(rolled, Double(0)) == "already_rolled"
    assert refused(state, Double(1)) == "not_your_turn"
    assert state.double_refusal(0) is None


def test_take_gives_the_taker_the_cube_at_twice_the_value() -> None:
    state = reach_rolling(new_match(MatchRules(length=7)), 0)
    state = apply(state, Double(0))
    assert state.phase is Phase.DOUBLED
    assert state.turn == 1
    assert refused(state, Take(0)) == "not_doubled_player"
    assert refused(state, Roll(0, (3, 1))) == "double_pending"
    state = apply(state, Take(1))
    assert (state.cube_value, state.cube_owner, state.turn) == (2, 1, 0)
    # The doubler plays on and may not double again: nobody doubles twice in a row.
    state = run(state, Roll(0, (6, 5)), Move(0, "24/13"))
    state = run(state, Roll(1, (6, 5)), Move(1, "24/13"))
    assert refused(state, Double(0)) == "not_cube_owner"
    # The owner redoubles to 4 on their turn.
    state = run(state, Roll(0, (2, 1)), Move(0, "13/11 6/5"))
    state = run(state, Double(1), Take(0))
    assert (state.cube_value, state.cube_owner) == (4, 0)


def test_a_drop_ends_the_game_at_the_value_before_the_double() -> None:
    state = reach_rolling(new_match(MatchRules(length=7)), 0)
    state = run(state, Double(0), Take(1), Roll(0, (6, 5)), Move(0, "24/13"))
    state = run(state, Double(1), Drop(0))
    assert state.score == (0, 2)
    result = state.games[-1]
    assert (result.winner, result.points, result.kind, result.reason) == (
        1,
        2,
        WinKind.SINGLE,
        "drop",
    )
    assert result.cube_value == 2
    # The next game starts afresh: centred cube, opening roll.
    assert state.phase is Phase.OPENING
    assert (state.cube_value, state.cube_owner, state.game_number) == (1, None, 2)
    assert state.position == Position.start()


def test_the_crawford_game_and_post_crawford_doubling() -> None:
    state = new_match(MatchRules(length=3))
    state = win_by_drop(state, 0)
    assert not state.crawford_game
    state = win_by_drop(state, 0)  # 2-0: player 0 is one point away for the first time
    assert state.score == (2, 0)
    assert state.crawford_game
    state = reach_rolling(state, 1)
    assert Match.from_id(state.match_id()).crawford
    assert refused(state, Double(1)) == "crawford_game"
    state = run(state, Roll(1, (6, 5)), Move(1, "24/13"))
    assert refused(state, Double(0)) == "crawford_game"
    state = run(state, Resign(0, WinKind.SINGLE), AcceptResignation(1))
    assert state.score == (2, 1)
    assert state.games[-1].crawford
    # Post-Crawford: doubling is back, but the leader's cube is dead.
    assert not state.crawford_game
    state = reach_rolling(state, 1)
    assert state.double_refusal(1) is None
    state = run(state, Roll(1, (6, 5)), Move(1, "24/13"))
    assert refused(state, Double(0)) == "dead_cube"
    state = run(state, Roll(0, (6, 5)), Move(0, "24/13"), Double(1), Take(0))
    assert state.cube_value == 2


def test_the_crawford_game_happens_only_once() -> None:
    state = new_match(MatchRules(length=3))
    state = win_by_drop(state, 1)
    state = win_by_drop(state, 1)  # 0-2: Crawford next
    state = run(state, *opening(0), Resign(1, WinKind.SINGLE), AcceptResignation(0))
    state = win_by_drop(state, 0)  # 2-2: both one point away, no second Crawford game
    assert state.score == (2, 2)
    assert not state.crawford_game
    assert state.crawford_used


def test_a_one_point_match_has_a_dead_cube_from_the_start() -> None:
    state = reach_rolling(new_match(MatchRules(length=1)), 0)
    assert refused(state, Double(0)) == "dead_cube"


def test_a_cube_that_already_wins_the_match_cannot_be_turned() -> None:
    state = reach_rolling(new_match(MatchRules(length=5)), 0)
    owned_eight = replace(state, cube_value=8, cube_owner=0)
    assert refused(owned_eight, Double(0)) == "dead_cube"
    owned_four = replace(state, cube_value=4, cube_owner=0, score=(0, 0))
    assert owned_four.double_refusal(0) is None


def test_the_match_ends_when_a_player_reaches_the_length() -> None:
    state = new_match(MatchRules(length=2))
    state = win_by_drop(state, 1)  # 0-1, Crawford next
    state = run(state, *opening(1), Resign(0, WinKind.GAMMON), AcceptResignation(1))
    assert state.phase is Phase.FINISHED
    assert state.winner == 1
    assert state.score == (0, 3)
    assert refused(state, OpeningRoll((3, 1))) == "match_over"


def test_a_resigned_gammon_scores_twice_the_cube() -> None:
    state = reach_rolling(new_match(MatchRules(length=9)), 0)
    state = run(state, Double(0), Take(1), Resign(1, WinKind.GAMMON))
    assert state.phase is Phase.RESIGNING
    assert state.turn == 0
    assert refused(state, AcceptResignation(1)) == "not_your_resignation"
    state = apply(state, AcceptResignation(0))
    result = state.games[-1]
    assert (result.points, result.kind, result.reason) == (4, WinKind.GAMMON, "resign")


def test_a_rejected_resignation_resumes_play_where_it_stopped() -> None:
    state = run(reach_rolling(new_match(MatchRules(length=9)), 0), Roll(0, (6, 5)))
    offered = apply(state, Resign(1, WinKind.SINGLE))
    resumed = apply(offered, RejectResignation(0))
    assert (resumed.phase, resumed.turn, resumed.dice) == (Phase.MOVING, 0, (6, 5))


def bearing_off_last_checker(loser: dict[int, int]) -> MatchState:
    """Player 0 on roll with one checker left on the ace point; ``loser`` in player 1's numbers."""
    rules = MatchRules(length=0)
    state = run(new_match(rules), *opening(0))
    return replace(
        state,
        phase=Phase.MOVING,
        position=Position.from_points({1: 1}, loser),
        player_on_roll=0,
        dice=(2, 1),
        cube_value=2,
    )


@pytest.mark.parametrize(
    ("loser", "kind", "points"),
    [
        ({6: 14}, WinKind.SINGLE, 2),  # one checker borne off
        ({6: 15}, WinKind.GAMMON, 4),  # none off
        ({6: 14, 25: 1}, WinKind.BACKGAMMON, 6),  # none off, one on the bar
        ({6: 14, 20: 1}, WinKind.BACKGAMMON, 6),  # none off, one in the winner's home
        ({6: 14, 18: 1}, WinKind.GAMMON, 4),  # the winner's 7 point is outside their home
    ],
)
def test_bearing_off_scores_single_gammon_or_backgammon_times_the_cube(
    loser: dict[int, int], kind: WinKind, points: int
) -> None:
    state = apply(bearing_off_last_checker(loser), Move(0, "1/off"))
    result = state.games[-1]
    assert (result.winner, result.kind, result.points, result.reason) == (
        0,
        kind,
        points,
        "bear_off",
    )


def test_jacoby_counts_gammons_single_until_the_cube_is_turned() -> None:
    jacoby = MatchRules(length=0, jacoby=True)
    state = replace(bearing_off_last_checker({6: 15}), rules=jacoby, cube_value=1)
    assert apply(state, Move(0, "1/off")).games[-1].points == 1
    turned = replace(state, cube_value=2, cube_owner=1, cube_turned=True)
    assert apply(turned, Move(0, "1/off")).games[-1].points == 4


def test_beavers_in_money_play() -> None:
    money = MatchRules(length=0, beavers=True)
    state = run(reach_rolling(new_match(money), 0), Double(0), Beaver(1))
    assert (state.cube_value, state.cube_owner, state.turn, state.phase) == (4, 1, 0, Phase.ROLLING)
    plain = run(reach_rolling(new_match(MatchRules(length=0)), 0), Double(0))
    assert refused(plain, Beaver(1)) == "beaver_disabled"
    match = run(reach_rolling(new_match(MatchRules(length=7)), 0), Double(0))
    assert refused(match, Beaver(1)) == "beaver_disabled"


def test_automatic_doubles_on_tied_openings_up_to_the_cap() -> None:
    money = MatchRules(length=0, automatic_doubles=1)
    state = run(new_match(money), OpeningRoll((4, 4)), OpeningRoll((2, 2)), OpeningRoll((5, 3)))
    assert (state.cube_value, state.cube_owner) == (2, None)
    assert not state.cube_turned


def test_money_only_rules_are_refused_in_matches() -> None:
    for options in ({"jacoby": True}, {"beavers": True}, {"automatic_doubles": 1}):
        with pytest.raises(ValueError, match="money"):
            MatchRules(length=5, **options)
    with pytest.raises(ValueError, match="1 to 25"):
        MatchRules(length=26)


def test_without_the_cube_nobody_doubles() -> None:
    state = reach_rolling(new_match(MatchRules(length=5, cube=False)), 0)
    assert refused(state, Double(0)) == "cube_disabled"


def test_a_roll_that_cannot_be_played_is_recorded_and_the_turn_passes() -> None:
    state = reach_rolling(new_match(MatchRules(length=5)), 0)
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    dancing = replace(state, position=Position.from_points({25: 1, 13: 14}, closed))
    after, recorded = advance(dancing, Roll(0, (6, 6)))
    assert recorded == [Roll(0, (6, 6)), CannotMove(0)]
    assert (after.phase, after.player_on_roll) == (Phase.ROLLING, 1)
    assert after.position == dancing.position.swapped()


def test_advance_records_plays_in_canonical_notation() -> None:
    state = run(new_match(MatchRules(length=5)), OpeningRoll((3, 1)))
    _after, recorded = advance(state, Move(0, "8-5, 6-5"))
    assert recorded == [Move(0, "8/5 6/5")]


def test_the_record_serialises_and_replays_to_the_same_state() -> None:
    state = reach_rolling(new_match(MatchRules(length=5)), 0)
    state = run(state, Double(0), Take(1), Roll(0, (6, 6)), Resign(1, WinKind.BACKGAMMON))
    state = apply(state, RejectResignation(0))
    stored = [action_to_dict(action) for action in state.actions]
    rebuilt = replay(MatchRules.from_dict(state.rules.to_dict()), map(action_from_dict, stored))
    assert rebuilt == state


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"type": "fly"},
        {"type": "roll", "player": 2, "dice": [1, 2]},
        {"type": "move", "player": 0},
    ],
)
def test_malformed_stored_actions_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"action|player|needs"):
        action_from_dict(bad)


def test_the_match_id_of_a_state_is_gnubgs() -> None:
    # 9-point match at 2-4, player 0 owns a 2-cube, player 1 has rolled 5-2. GNU Backgammon
    # 1.07 writes "QYkqASAAIAAE" for it (new match 9, set score 2 4, set cube value 2, set
    # cube owner 0, set turn 1, set dice 5 2): the manual's "QYkqASAAIAAA" with bit 66, the
    # "no Jacoby" flag gnubg sets in every match; "set dice 2 5" gives the same ID.
    state = replace(
        new_match(MatchRules(length=9)),
        phase=Phase.MOVING,
        player_on_roll=1,
        dice=(5, 2),
        cube_value=2,
        cube_owner=0,
        score=(2, 4),
    )
    assert state.match_id() == "QYkqASAAIAAE"
    assert replace(state, dice=(2, 5)).match_id() == "QYkqASAAIAAE"


@pytest.mark.parametrize(("jacoby", "expected"), [(False, "cAkHAAAAAAAE"), (True, "cAkHAAAAAAAA")])
def test_the_match_id_of_a_money_game_carries_the_jacoby_rule(jacoby: bool, expected: str) -> None:
    # gnubg 1.07: set jacoby off|on, new session, set turn 1, set dice 1 6, show board.
    state = replace(
        new_match(MatchRules(length=0, jacoby=jacoby)),
        phase=Phase.MOVING,
        player_on_roll=1,
        dice=(1, 6),
    )
    assert state.match_id() == expected


def test_a_recorded_move_carries_its_parsed_play_but_stores_only_the_text() -> None:
    from gammon.actions import action_from_dict, action_to_dict

    state = apply(new_match(MatchRules(length=3)), OpeningRoll((3, 1)))
    _after, recorded = advance(state, Move(0, "8-5, 6-5"))
    move = recorded[0]
    assert isinstance(move, Move)
    assert move.play == "8/5 6/5"
    assert move.value is not None
    assert sorted((step.start, step.end) for step in move.value.steps) == [(6, 5), (8, 5)]
    assert move.value.start == state.position
    assert action_to_dict(move) == {"type": "move", "player": 0, "play": "8/5 6/5"}
    assert action_from_dict(action_to_dict(move)) == move  # equal by the text alone


def test_a_parsed_play_is_trusted_only_when_it_is_legal_now() -> None:
    state = apply(new_match(MatchRules(length=3)), OpeningRoll((3, 1)))
    _after, recorded = advance(state, Move(0, "8/5 6/5"))
    legal = recorded[0]
    assert isinstance(legal, Move)
    assert legal.value is not None
    # The same value offered in another position (after the opponent's roll) is read again
    # from the text, and the text decides.
    later = apply(new_match(MatchRules(length=3)), OpeningRoll((4, 2)))
    with pytest.raises(ActionError) as refused:
        advance(later, Move(0, "8/5 6/5", legal.value))
    assert refused.value.reason == "illegal_play"
    _after, again = advance(later, Move(0, "8/4 6/4", legal.value))
    assert again[0] == Move(0, "8/4 6/4")
