"""What a board shows of the dice, also for a state read back from a snapshot (no history)."""

from __future__ import annotations

from gammon.actions import Move, OpeningRoll, Roll
from gammon.flow import apply, new_match
from gammon.match_rules import MatchRules
from gammon.serialization import state_from_dict, state_to_dict
from rendering import BoardView


def test_the_opening_roll_is_shown_as_such_with_or_without_history() -> None:
    opened = apply(new_match(MatchRules(length=3)), OpeningRoll((5, 2)))
    snapshot = state_from_dict(state_to_dict(opened, with_actions=False))
    assert snapshot.actions == ()
    for state in (opened, snapshot):
        view = BoardView.from_state(state)
        assert (view.opening_dice, view.dice) == ((5, 2), None)


def test_a_later_roll_is_an_ordinary_roll_with_or_without_history() -> None:
    state = apply(new_match(MatchRules(length=3)), OpeningRoll((5, 2)))
    state = apply(state, Move(0, "13/8 13/11"))
    state = apply(state, Roll(1, (6, 4)))
    snapshot = state_from_dict(state_to_dict(state, with_actions=False))
    for each in (state, snapshot):
        view = BoardView.from_state(each)
        assert (view.opening_dice, view.dice) == (None, (6, 4))
