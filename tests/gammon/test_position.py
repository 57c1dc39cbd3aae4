"""Positions and GNU Backgammon Position IDs."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gammon
from gammon import Position
from tests.oracle import oracle_cases

START_ID = "4HPwATDgc/ABMA"


def test_the_starting_position_has_gnubgs_id() -> None:
    start = Position.start()
    assert start.id() == START_ID
    assert Position.from_id(START_ID) == start
    # Each side: 2 on the 24 point, 5 on 13, 3 on 8, 5 on 6.
    for side in (start.player, start.opponent):
        assert (side[24], side[13], side[8], side[6]) == (2, 5, 3, 5)
    assert start.pip_counts() == (167, 167)
    assert start.on_bar() == (0, 0)
    assert start.borne_off() == (0, 0)


def test_the_side_not_on_roll_is_encoded_first() -> None:
    # The rule text's board after White opens 3-1 with 8/5 6/5, Black now on roll.
    white = {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}
    black = {24: 2, 13: 5, 8: 3, 6: 5}
    after = Position.from_points(player=black, opponent=white)
    gnubg_results_of_opening_31 = next(
        case.result_ids
        for case in oracle_cases()
        if case.position_id == START_ID and sorted(case.dice) == [1, 3]
    )
    assert after.id() in gnubg_results_of_opening_31
    assert after.pip_counts() == (167, 163)
    assert after.swapped().id() not in gnubg_results_of_opening_31


def test_repr_evaluates_back_to_the_same_position() -> None:
    position = Position.from_id("0GfwQSDg88QBMA")
    assert eval(repr(position), vars(gammon)) == position
    assert pickle.loads(pickle.dumps(position)) == position


def test_positions_are_immutable_and_hashable() -> None:
    start = Position.start()
    with pytest.raises(AttributeError):
        start.player = start.opponent  # type: ignore[misc]
    assert len({start, Position.from_id(START_ID)}) == 1


@pytest.mark.parametrize(
    "bad_id",
    ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPw!TDgc/ABMA", "//////////////", 4],
)
def test_malformed_position_ids_are_refused(bad_id: object) -> None:
    with pytest.raises(ValueError, match="Position ID"):
        Position.from_id(bad_id)  # type: ignore[arg-type]


def test_a_point_cannot_hold_both_sides() -> None:
    with pytest.raises(ValueError, match="both sides"):
        Position.from_points({6: 1}, {19: 1})


@pytest.mark.parametrize(
    ("player", "opponent"),
    [((0,) * 25, (15,) + (0,) * 25), ((16,) + (0,) * 25, (15,) + (0,) * 25)],
)
def test_a_side_needs_fifteen_checkers(player: tuple[int, ...], opponent: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="player"):
        Position(player, opponent)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal arrangement: up to 15 checkers a side, no point shared by both sides."""
    player = [0] * 26
    opponent = [0] * 26
    for side, other, own_index in ((player, opponent, 1), (opponent, player, 0)):
        del own_index
        for _ in range(draw(st.integers(0, 15))):
            slot = draw(st.integers(1, 25))
            mirror = 25 - slot
            if slot != 25 and other[mirror]:
                continue
            side[slot] += 1
        side[0] = 15 - sum(side)
    return Position(player, opponent)


@given(positions())
def test_position_ids_round_trip(position: Position) -> None:
    position_id = position.id()
    assert len(position_id) == 14
    assert Position.from_id(position_id) == position
    assert Position.from_id(position.swapped().id()) == position.swapped()


@given(positions())
def test_pip_counts_count_each_checker_by_its_distance(position: Position) -> None:
    own, theirs = position.pip_counts()
    assert own == sum(point * position.player[point] for point in range(1, 26))
    assert (theirs, own) == position.swapped().pip_counts()
