"""A time-out loses the match unless the match was won for sure (WBGF § 4.3 iii): hand-built
positions, the counts of rolls worked out by hand in each docstring."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.actions import (
    Action,
    ClaimWin,
    Move,
    OpeningRoll,
    Roll,
    TimeOut,
    WinKind,
    action_from_dict,
    action_to_dict,
)
from gammon.clock import parse_clock
from gammon.flow import (
    ActionError,
    GameEnd,
    MatchState,
    Phase,
    ResignationOffer,
    apply,
    replay,
)
from gammon.mat_format import export_mat
from gammon.match_rules import MatchRules
from gammon.movegen import legal_plays
from gammon.position import OFF, Position
from gammon.replay import FrameKind, replay_games
from gammon.sure_win import fewest_rolls, most_rolls, no_contact, wins_race_for_sure


def _side(points: dict[int, int]) -> tuple[int, ...]:
    return Position.from_points(points, {}).player


def test_counts_of_rolls_by_hand() -> None:
    # One checker on the 1 or the 2 point: every roll bears it off (a die of 2 or more, or
    # 1-1 moving it twice).
    assert most_rolls(_side({1: 1})) == 1
    assert most_rolls(_side({2: 1})) == 1
    # On the 4 point: 2-1 leaves it on the 1 point, every other roll bears it off.
    assert most_rolls(_side({4: 1})) == 2
    # Five checkers: a roll bears off four at most, so two rolls at least (6-6, then any).
    assert fewest_rolls(_side({1: 5})) == 2
    assert fewest_rolls(_side({6: 1})) == 1
    # 20 pips in one checker: 6-6 carries it home and off.
    assert fewest_rolls(_side({20: 1})) == 1
    # Contact: a checker on the own 3 point against one on the opponent's 23 (our 2 point).
    assert no_contact(_side({3: 1}), _side({21: 1}))  # their 21 is our 4: passed
    assert not no_contact(_side({3: 1}), _side({23: 1}))
    assert not no_contact(_side({25: 1}), _side({1: 1}))  # on the bar


def _at(
    mine: dict[int, int],
    theirs: dict[int, int],
    *,
    phase: Phase = Phase.ROLLING,
    on_roll: int = 0,
    score: tuple[int, int] = (0, 0),
    length: int = 3,
    cube: int = 1,
) -> MatchState:
    """Player 0 (``mine``) must act; the position is seen from the player on roll."""
    seen = Position.from_points(mine, theirs)
    position = seen if on_roll == 0 else seen.swapped()
    return MatchState(
        rules=MatchRules(length=length),
        phase=phase,
        position=position,
        player_on_roll=on_roll,
        score=score,
        cube_value=cube,
        cube_owner=None if cube == 1 else on_roll,  # the one on roll took it earlier
    )


def _loses(state: MatchState) -> None:
    after = apply(state, TimeOut(0))
    assert after.phase is Phase.FINISHED
    assert after.winner == 1
    assert after.games[-1].reason is GameEnd.FORFEIT
    assert after.score[1] == state.rules.length


def test_a_race_won_whatever_the_dice_that_wins_the_match_is_not_lost() -> None:
    """Player 0 on roll bears their one checker off the 1 point with any roll; the opponent's
    checker on their 6 point needs a roll too, second. 2-0 to 3: a single game wins it."""
    state = _at({1: 1}, {6: 1}, score=(2, 0))
    after = apply(state, TimeOut(0))
    assert after.phase is Phase.FINISHED
    assert after.winner == 0
    assert after.score == (3, 0)
    assert after.games[-1].reason is GameEnd.TIME_OUT
    assert after.games[-1].points == 1


def test_near_miss_the_game_alone_does_not_win_the_match() -> None:
    """The same sure race, but 1-0 to 3: the single game leaves the match open."""
    _loses(_at({1: 1}, {6: 1}, score=(1, 0)))


def test_near_miss_almost_every_roll_wins() -> None:
    """One checker on the 4 point: 2-1 alone leaves it on the board (2 rolls at most), while
    the opponent's checker on the 1 point may go off with their first roll."""
    _loses(_at({4: 1}, {1: 1}, score=(2, 0)))


def test_near_miss_contact() -> None:
    """The player's checker on the 3 point has the opponent's on their 23 point ahead of it
    (our 2 point): not a race, so never sure (here it would even bear off first)."""
    _loses(_at({3: 1}, {23: 1, 1: 14}, score=(2, 0)))


def test_first_on_roll_with_two_rolls_against_two_rolls_is_sure() -> None:
    """Two rolls at most (4 point) against at least two for five checkers; the player rolls
    first, so their second roll comes before the opponent's."""
    state = _at({4: 1}, {1: 5}, score=(2, 0))
    assert apply(state, TimeOut(0)).winner == 0


def test_time_out_answering_a_double_counts_the_take() -> None:
    """The opponent (on roll, five checkers home: two rolls at least) doubled; the player's
    checker on the 1 point goes off with their first roll (one at most, less than two).
    3-0 to 5: taking makes the game worth 2, which wins; the time-out answering is that."""
    state = _at({1: 1}, {1: 5}, phase=Phase.DOUBLED, on_roll=1, score=(3, 0), length=5)
    after = apply(state, TimeOut(0))
    assert after.winner == 0
    assert after.score == (5, 0)
    assert after.games[-1].cube_value == 2


def test_near_miss_answering_a_double_second_on_roll() -> None:
    """One roll at most for the player, but the opponent (first on roll) may also be done in
    one: their checker on the 6 point."""
    _loses(_at({1: 1}, {6: 1}, phase=Phase.DOUBLED, on_roll=1, score=(3, 0), length=5))


def test_near_miss_answering_a_double_that_would_not_reach_the_length() -> None:
    _loses(_at({1: 1}, {1: 5}, phase=Phase.DOUBLED, on_roll=1, score=(2, 0), length=5))


def test_only_the_player_who_must_act_can_time_out() -> None:
    state = _at({1: 1}, {6: 1}, score=(2, 0))
    with pytest.raises(ActionError) as refused:
        apply(state, TimeOut(1))
    assert refused.value.reason == "not_your_turn"
    assert apply(state, ClaimWin(1)).winner == 1  # the old claim still forfeits


def test_a_time_out_is_recorded_like_every_action() -> None:
    assert action_to_dict(TimeOut(1)) == {"type": "time_out", "player": 1}
    assert action_from_dict({"type": "time_out", "player": 0}) == TimeOut(0)


def test_a_time_out_in_the_record_exports_as_a_forfeit() -> None:
    """Bob rolled 6-4 and his clock ran out before he moved: the .mat shows the roll unplayed
    and Anna winning the 3 points the match still needed, as a claimed forfeit does."""
    rules = MatchRules(length=3, clock=parse_clock("fast"))
    actions: list[Action] = [OpeningRoll((3, 1)), Move(0, "8/5 6/5"), Roll(1, (6, 4)), TimeOut(1)]
    text = export_mat(replay(rules, actions), ("Anna", "Bob"))
    game = text.split(" Game 1\n")[1]
    assert game.splitlines()[1].split() == ["1)", "31:", "8/5", "6/5", "64:"]
    assert game.splitlines()[2].strip() == "Wins 3 points"
    ending = replay_games(rules, actions)[-1]
    assert ending.frames[-1].kind is FrameKind.END
    assert ending.result is not None
    assert (ending.result.winner, ending.result.reason) == (0, GameEnd.FORFEIT)


# The brute counts by position, for the worst dice (max) and the best (min): shared by every
# example, which meet the same small endings again and again.
_BRUTE_COUNTS: dict[Callable[..., int], dict[tuple[int, ...], int]] = {max: {}, min: {}}


def _brute(
    side: tuple[int, ...],
    dice_pick: Callable[..., int],
    memo: dict[tuple[int, ...], int] | None = None,
) -> int:
    """Rolls to bear ``side`` off with its best plays, ``dice_pick`` over the 21 rolls, by the
    real move generator (:func:`gammon.movegen.legal_plays`), not the race search's own."""
    if memo is None:
        memo = _BRUTE_COUNTS[dice_pick]
    if side[OFF] == 15:
        return 0
    if side not in memo:
        position = Position(side, (15,) + (0,) * 25)
        memo[side] = 1 + dice_pick(
            min(
                _brute(play.result.opponent, dice_pick, memo)
                for play in legal_plays(position, dice)
            )
            for dice in ((a, b) for a in range(1, 7) for b in range(a, 7))
        )
    return memo[side]


# Up to three checkers on points 1 to 9: small enough for the exact search (and the brute one).
SMALL_SIDES = st.lists(st.integers(1, 9), min_size=1, max_size=3).map(Counter).map(dict)
# Four or five: the search may give up and fall back on its bounds.
LARGER_SIDES = st.lists(st.integers(1, 9), min_size=4, max_size=5).map(Counter).map(dict)


@settings(max_examples=40, deadline=None)
@given(mine=SMALL_SIDES, theirs=SMALL_SIDES, first=st.booleans())
def test_the_race_counts_match_the_rules_move_generator(
    mine: dict[int, int], theirs: dict[int, int], first: bool
) -> None:
    """Small races (no contact whatever the points: at most 9 + 9 pips apart): the counts of
    rolls and the sure-win decision agree with a search over the real legal plays."""
    own, other = _side(mine), _side(theirs)
    most, fewest = _brute(own, max), _brute(other, min)
    assert most_rolls(own) == most
    assert fewest_rolls(other) == fewest
    expected = most <= fewest if first else most < fewest
    assert wins_race_for_sure(own, other, first) is expected


@settings(max_examples=40, deadline=None)
@given(
    mine=SMALL_SIDES,
    theirs=SMALL_SIDES,
    doubled=st.booleans(),
    score=st.integers(0, 4),
    cube=st.sampled_from([1, 2]),
)
def test_the_time_out_decision_follows_the_rule(
    mine: dict[int, int], theirs: dict[int, int], doubled: bool, score: int, cube: int
) -> None:
    """Player 0's clock runs out in a 5-point match, on roll or answering the opponent's
    double: the match is theirs exactly when the race is won whatever the dice (by the real
    move generator) and a single game at the cube (doubled: twice it) reaches 5; else lost."""
    state = _at(
        mine,
        theirs,
        phase=Phase.DOUBLED if doubled else Phase.ROLLING,
        on_roll=1 if doubled else 0,
        score=(score, 0),
        length=5,
        cube=cube,
    )
    most, fewest = _brute(_side(mine), max), _brute(_side(theirs), min)
    race = most < fewest if doubled else most <= fewest
    reaches = score + cube * (2 if doubled else 1) >= 5
    after = apply(state, TimeOut(0))
    assert after.phase is Phase.FINISHED
    if race and reaches:
        assert after.winner == 0
        assert after.score[0] >= 5
    else:
        assert (after.winner, after.score[1]) == (1, 5)


def test_time_out_answering_an_offer_to_resign_accepts_it() -> None:
    """Anna (player 1) offers to resign a gammon with the cube on 1; Bob's time runs out
    answering: the offer counts as accepted, 2 points. At 3-0 to 5 that is the match; at 1-0
    the match goes on at 3-0 with the next game's opening roll."""
    offer = ResignationOffer(1, WinKind.GAMMON, Phase.ROLLING)
    state = replace(
        _at({6: 5}, {6: 5}, on_roll=1, score=(3, 0), length=5),
        phase=Phase.RESIGNING,
        resignation=offer,
    )
    after = apply(state, TimeOut(0))
    assert (after.phase, after.winner, after.score) == (Phase.FINISHED, 0, (5, 0))
    assert after.games[-1].reason is GameEnd.RESIGN
    goes_on = apply(replace(state, score=(1, 0)), TimeOut(0))
    assert (goes_on.phase, goes_on.score, goes_on.resignation) == (Phase.OPENING, (3, 0), None)


@settings(max_examples=8, deadline=None)
@given(mine=LARGER_SIDES, theirs=LARGER_SIDES, first=st.booleans())
def test_beyond_the_search_the_bounds_stay_on_the_safe_side(
    mine: dict[int, int], theirs: dict[int, int], first: bool
) -> None:
    """Larger races: the counts are bounds on the safe side of the real ones, so a sure win
    is never claimed that is not one (one may be missed)."""
    own, other = _side(mine), _side(theirs)
    most, fewest = _brute(own, max), _brute(other, min)
    assert most_rolls(own) >= most
    assert fewest_rolls(other) <= fewest
    if wins_race_for_sure(own, other, first):
        assert most <= fewest if first else most < fewest
