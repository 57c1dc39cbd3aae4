"""A decision turned into the action the rules apply: the one place that knows how."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from engine.api import Decision
from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    Double,
    Drop,
    Move,
    RejectResignation,
    Roll,
    Take,
)
from gammon.flow import MatchState

_SIMPLE: Final[dict[str, Callable[[int], Action]]] = {
    "double": Double,
    "take": Take,
    "drop": Drop,
    "beaver": Beaver,
    "accept": AcceptResignation,
    "reject": RejectResignation,
}


def action_for(
    state: MatchState, decision: Decision, seat: int, roll: Callable[[], tuple[int, int]]
) -> Action:
    """The action of ``decision`` by ``seat`` in ``state``; ``roll`` gives the dice of a roll.
    Raises ``ValueError`` for a decision that names no action."""
    if decision.action == "roll":
        return Roll(seat, roll())
    if decision.action == "move":
        if decision.play is None:
            raise ValueError("a move decision without a play")
        # A decider names one of the legal plays in its canonical notation: hand the rules
        # that play itself, as a preview does, so nothing reads the text again.
        chosen = next((play for play in state.legal_plays() if str(play) == decision.play), None)
        return Move(seat, decision.play, chosen)
    make = _SIMPLE.get(decision.action)
    if make is None:
        raise ValueError(f"unknown decision: {decision.action!r}")
    return make(seat)
