"""GNU Backgammon Match IDs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import GameState, Match, Resignation


def test_nine_point_match_at_two_four_with_a_two_cube() -> None:
    match = Match.from_id("QYkqASAAIAAA")
    assert match.length == 9
    assert match.score == (2, 4)
    assert match.cube_value == 2
    assert match.cube_owner == 0
    assert match.player_on_roll == 1
    assert match.turn == 1
    assert match.dice == (5, 2)
    assert match.game_state is GameState.PLAYING
    assert not match.crawford
    assert not match.double_offered
    assert match.resignation is Resignation.NONE
    assert match.id() == "QYkqASAAIAAA"


def test_money_game_with_a_centred_cube_and_no_dice() -> None:
    match = Match.from_id("cAkAAAAAAAAA")
    assert match.is_money()
    assert match.cube_value == 1
    assert match.cube_owner is None
    assert match.player_on_roll == 1
    assert match.turn == 1
    assert match.dice is None
    assert match.score == (0, 0)
    assert match.id() == "cAkAAAAAAAAA"


def test_gnubgs_no_jacoby_flag_is_read() -> None:
    """GNU Backgammon 1.07 sets bit 66 when the Jacoby rule is off, as in every match."""
    match = Match.from_id("QYkqASAAIAAE")
    assert (match.length, match.score, match.dice) == (9, (2, 4), (5, 2))
    assert not match.jacoby
    assert match.id() == "QYkqASAAIAAE"
    assert Match.from_id("QYkqASAAIAAA").jacoby


@pytest.mark.parametrize(
    "bad_id", ["", "QYkqASAAIAA", "QYkqASAAIAAAA", "QYkq*SAAIAAA", "////////////"]
)
def test_malformed_match_ids_are_refused(bad_id: str) -> None:
    with pytest.raises(ValueError, match="Match ID"):
        Match.from_id(bad_id)


def test_impossible_values_are_refused() -> None:
    with pytest.raises(ValueError, match="power of two"):
        Match(cube_value=3)
    with pytest.raises(ValueError, match="dice"):
        Match(dice=(0, 7))


matches = st.builds(
    Match,
    length=st.integers(0, 25),
    score=st.tuples(st.integers(0, 24), st.integers(0, 24)),
    cube_value=st.sampled_from([1 << power for power in range(16)]),
    cube_owner=st.sampled_from([None, 0, 1]),
    player_on_roll=st.integers(0, 1),
    turn=st.integers(0, 1),
    crawford=st.booleans(),
    game_state=st.sampled_from(list(GameState)),
    double_offered=st.booleans(),
    resignation=st.sampled_from(list(Resignation)),
    dice=st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)),
    jacoby=st.booleans(),
)


@given(matches)
def test_match_ids_round_trip(match: Match) -> None:
    match_id = match.id()
    assert len(match_id) == 12
    assert Match.from_id(match_id) == match
