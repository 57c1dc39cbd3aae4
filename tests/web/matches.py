"""Real matches for the web page tests: played with the rules and fair dice, no database.

Each player takes the first legal play the move generator lists and never doubles, so a seed
always gives the same match; the dice come from :class:`gammon.fair_dice.FairDice` by each dice
event's nonce, exactly as the bot draws them.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

from bot.pages.check_data import CheckData, RecordedRoll, recorded_rolls
from gammon.actions import Action, Move, OpeningRoll, Roll
from gammon.fair_dice import FairDice, join_client_seeds, roll
from gammon.flow import MatchState, Phase, advance, new_match
from gammon.match_rules import MatchRules


@dataclass(frozen=True)
class PlayedMatch:
    rules: MatchRules
    dice: FairDice
    client_seeds: tuple[str, str]
    state: MatchState

    @property
    def actions(self) -> tuple[Action, ...]:
        return self.state.actions


def play_match(
    label: str = "web-1",
    client_seeds: tuple[str, str] = ("alice", "bob"),
    rules: MatchRules | None = None,
) -> PlayedMatch:
    """A whole match (by default to 3 points), its server seed made from ``label`` (the same
    every run). With the defaults it has 4 games and 198 rolls, three of them tied opening
    rolls."""
    rules = rules or MatchRules(length=3)
    dice = FairDice(hashlib.sha256(label.encode()).digest(), join_client_seeds(*client_seeds))
    state = new_match(rules)
    while state.phase is not Phase.FINISHED:
        action: Action
        if state.phase is Phase.OPENING:
            action = OpeningRoll(dice.roll(state.dice_events))
        elif state.phase is Phase.ROLLING:
            action = Roll(state.player_on_roll, dice.roll(state.dice_events))
        else:
            play = state.legal_plays()[0]
            action = Move(state.player_on_roll, str(play), play)
        state, _recorded = advance(state, action)
    return PlayedMatch(rules, dice, client_seeds, state)


def check_data(
    match: PlayedMatch, names: tuple[str, str] = ("Alice", "Bob"), *, revealed: bool = True
) -> CheckData:
    """The check page's data for ``match``; ``revealed`` False: as while it is played."""
    return CheckData(
        match_number=12,
        names=names,
        variant=match.rules.variant.value,
        length=match.rules.length,
        commitment=match.dice.commitment,
        client_seeds=match.client_seeds,
        server_seed=match.dice.server_seed.hex() if revealed else None,
        finished=revealed,
        rolls=recorded_rolls(match.rules, match.actions),
    )


def with_die_changed(data: CheckData, nonce: int) -> CheckData:
    """The same data with the first die of roll ``nonce`` recorded one pip higher (6 -> 1)."""
    rolls = tuple(
        dataclasses.replace(item, dice=(item.dice[0] % 6 + 1, item.dice[1]))
        if item.nonce == nonce
        else item
        for item in data.rolls
    )
    return dataclasses.replace(data, rolls=rolls)


def synthetic_check_data(count: int, client_seeds: tuple[str, str] = ("a", "b")) -> CheckData:
    """``count`` rolls straight from the dice (no game behind them): for timing the check."""
    server_seed = hashlib.sha256(b"many rolls").digest()
    client_seed = join_client_seeds(*client_seeds)
    rolls = tuple(
        RecordedRoll(
            nonce=nonce,
            game=nonce // 60 + 1,
            player=None if nonce % 60 == 0 else nonce % 2,
            opening=nonce % 60 == 0,
            dice=roll(server_seed, client_seed, nonce),
        )
        for nonce in range(count)
    )
    return CheckData(
        match_number=1,
        names=("Anna", "Ben"),
        variant="backgammon",
        length=0,
        commitment=FairDice(server_seed, client_seed).commitment,
        client_seeds=client_seeds,
        server_seed=server_seed.hex(),
        finished=True,
        rolls=rolls,
    )
