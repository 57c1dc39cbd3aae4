"""Whole matches between two bot levels, with the cube, from seeded dice: material to analyse.

Each player decides as the bot does at its level (:func:`engine.decide.decide`, noise and all),
so the weaker levels make the errors an analysis has to find. The dice and the players' noise
come from ``random.Random`` seeded by the match's seed, so a match is the same every time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.acting import action_for
from engine.api import Level
from engine.decide import decide
from gammon.actions import OpeningRoll
from gammon.flow import MatchState, Phase, advance, new_match
from gammon.mat_format import export_mat
from gammon.match_rules import MatchRules

MAX_ACTIONS = 20_000


@dataclass(frozen=True)
class SelfPlay:
    """A match to play: its seed, length and the two players' levels (player 0 first)."""

    seed: int
    length: int
    levels: tuple[Level, Level]

    @property
    def name(self) -> str:
        return f"{self.length}p-{self.levels[0].value}-{self.levels[1].value}-{self.seed}"

    @property
    def names(self) -> tuple[str, str]:
        return (f"{self.levels[0].value.title()}A", f"{self.levels[1].value.title()}B")


def play_match(match: SelfPlay) -> MatchState:
    """The match played to its end."""
    dice = random.Random(f"dice:{match.seed}")
    choices = random.Random(f"choices:{match.seed}")
    state = new_match(MatchRules(length=match.length))

    def roll() -> tuple[int, int]:
        return (dice.randint(1, 6), dice.randint(1, 6))

    for _count in range(MAX_ACTIONS):
        if state.phase is Phase.FINISHED:
            return state
        if state.phase is Phase.OPENING:
            state, _recorded = advance(state, OpeningRoll(roll()))
            continue
        seat = state.turn
        assert seat is not None
        decision = decide(state, seat, match.levels[seat], choices.randrange(1 << 30))
        state, _recorded = advance(state, action_for(state, decision, seat, roll))
    raise RuntimeError(f"{match.name} did not end within {MAX_ACTIONS} actions")


def mat_text(match: SelfPlay) -> str:
    """The match as a .mat file."""
    return export_mat(play_match(match), match.names, event_date="2026.12.04")
