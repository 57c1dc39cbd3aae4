"""Random legal play for tests: every action type, chosen by a seeded generator."""

from __future__ import annotations

import random

from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    Double,
    Drop,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.fair_dice import FairDice
from gammon.flow import MatchState, Phase, advance, new_match
from gammon.match_rules import MatchRules


def random_action(state: MatchState, rng: random.Random, dice: FairDice) -> Action:
    """A legal action for the state, with cube actions and resignations mixed in."""
    player = state.turn
    if state.phase is Phase.OPENING:
        return OpeningRoll(dice.roll(state.dice_events))
    assert player is not None
    if state.phase is Phase.ROLLING:
        chance = rng.random()
        if chance < 0.01:
            return Resign(rng.randint(0, 1), WinKind(rng.randint(1, 3)))
        if chance < 0.1 and state.double_refusal(player) is None:
            return Double(player)
        return Roll(player, dice.roll(state.dice_events))
    if state.phase is Phase.MOVING:
        if rng.random() < 0.005:
            return Resign(rng.randint(0, 1), WinKind(rng.randint(1, 3)))
        return Move(player, str(rng.choice(state.legal_plays())))
    if state.phase is Phase.DOUBLED:
        chance = rng.random()
        if state.rules.beavers and chance < 0.1:
            return Beaver(player)
        return Take(player) if chance < 0.7 else Drop(player)
    if rng.random() < 0.5:
        return AcceptResignation(player)
    return RejectResignation(player)


def play_random_match(
    rng: random.Random, *, length: int, rules: MatchRules | None = None, max_games: int = 50
) -> MatchState:
    """Play until the match ends (or ``max_games`` games of a money session)."""
    rules = rules or MatchRules(length=length)
    dice = FairDice(rng.randbytes(32), f"p0-{rng.random()}|p1-{rng.random()}")
    state = new_match(rules)
    while state.phase is not Phase.FINISHED and (rules.length or len(state.games) < max_games):
        state, _recorded = advance(state, random_action(state, rng, dice))
    return state
