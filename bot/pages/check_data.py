"""What the dice check page needs to know about a match, and the rolls read from its record.

The page recomputes every roll in the browser, so it needs each dice event in nonce order with
the dice that were recorded for it. The record holds the dice inside the actions; the game each
roll belongs to only follows from the rules, so the actions are replayed
(:func:`gammon.flow.replay_states`) instead of being counted by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gammon.actions import Action, OpeningRoll, Roll
from gammon.fair_dice import SEED_BYTES
from gammon.flow import MatchState, new_match, replay_states
from gammon.match_rules import MatchRules
from gammon.position import Variant

_VARIANTS = frozenset(variant.value for variant in Variant)


@dataclass(frozen=True)
class RecordedRoll:
    """One dice event of a match: ``nonce`` counts every roll of the match from 0, opening
    rolls (tied re-rolls included) too. ``player`` is ``None`` for an opening roll, where
    ``dice[0]`` is player 0's die and ``dice[1]`` player 1's.

    In a chouette, whose players change from game to game, ``names`` says who rolled: the
    player (a roll, or ``seating``: a seating die, game 0, whose first die counts), or the
    box and the captain (an opening roll); empty where that was not kept."""

    nonce: int
    game: int
    player: int | None
    opening: bool
    dice: tuple[int, int]
    names: tuple[str, ...] = ()
    seating: bool = False


@dataclass(frozen=True)
class CheckData:
    """Everything the dice check page shows.

    ``server_seed`` is the hex seed once it may be revealed and ``None`` before: the page shows
    the seed only when it is given, so the caller decides (normally: when the match is over).
    ``length`` 0 means money play (single games in long nardy).

    A match has two players and a client seed of each; a ``chouette`` session (its number in
    ``match_number``) has everyone who sat at it in ``names`` and one client seed.
    """

    match_number: int
    names: tuple[str, ...]
    variant: str
    length: int
    commitment: str
    client_seeds: tuple[str, ...]
    server_seed: str | None
    finished: bool
    rolls: tuple[RecordedRoll, ...]
    chouette: bool = False

    def __post_init__(self) -> None:
        if self.variant not in _VARIANTS:
            raise ValueError(f"variant is one of {sorted(_VARIANTS)}, got {self.variant!r}")
        seeds = 1 if self.chouette else 2
        if len(self.client_seeds) != seeds or (not self.chouette and len(self.names) != 2):
            raise ValueError(f"a {'chouette' if self.chouette else 'match'}: {seeds} client seeds")
        if self.server_seed is not None and len(self.server_seed) != 2 * SEED_BYTES:
            # A wrong length is a caller's mistake; the page itself flags a wrong seed.
            raise ValueError(f"the server seed is {2 * SEED_BYTES} hex digits")

    @property
    def client_seed(self) -> str:
        """The client seed the dice were drawn with: a match's two joined with "|"
        (:func:`gammon.fair_dice.join_client_seeds`), a chouette's own."""
        return "|".join(self.client_seeds)


def recorded_rolls(
    rules: MatchRules,
    actions: Sequence[Action],
    states: Sequence[MatchState] | None = None,
) -> tuple[RecordedRoll, ...]:
    """Every dice event of the record, in order, with the game it belongs to. ``states``: the
    state after each action, when the caller has replayed them already
    (:func:`gammon.flow.replay_states`).

    Raises :class:`gammon.flow.ActionError` if the record is not a legal match.

    >>> from gammon.actions import Move
    >>> record = [OpeningRoll((2, 2)), OpeningRoll((3, 1)), Move(0, "8/5 6/5"), Roll(1, (6, 4))]
    >>> for roll in recorded_rolls(MatchRules(length=1), record):
    ...     print(roll.nonce, roll.game, roll.player, roll.opening, roll.dice)
    0 1 None True (2, 2)
    1 1 None True (3, 1)
    2 1 1 False (6, 4)
    """
    after = replay_states(rules, actions) if states is None else states
    rolls: list[RecordedRoll] = []
    befores = [new_match(rules), *after][: len(after)]
    for action, state in zip(actions, befores, strict=True):
        if isinstance(action, OpeningRoll | Roll):
            player = action.player if isinstance(action, Roll) else None
            rolls.append(
                RecordedRoll(
                    nonce=state.dice_events,
                    game=state.game_number,
                    player=player,
                    opening=player is None,
                    dice=(action.dice[0], action.dice[1]),
                )
            )
    return tuple(rolls)
