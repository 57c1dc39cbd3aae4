"""The playoff after round-robin groups: single elimination among the group winners.

Kept to what the playoff needs (the main single-elimination format lives apart): the winner
of group 1 is playoff seed 1, of group 2 seed 2, and so on. The bracket has the next power of
two of places, filled in the usual order (seed 1 meets the last seed, and seeds 1 and 2 can
meet only in the final: for 8 places 1-8, 4-5, 2-7, 3-6); a missing seed is a bye for its
opponent, so the best seeds get the byes. Keys ``playoff-R-I``; the last round is the final,
the one before the semifinals, the one before that the quarterfinals. A group winner is known
as soon as their group is complete, so a playoff match starts when both its groups are done.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gammon.tournament.model import Bracket, Pairing, Result, Slot, Stage


def bracket_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for ``size`` places, a power of two."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def _stage(round_number: int, rounds: int) -> Stage:
    from_last = rounds - round_number
    stages = (Stage.FINAL, Stage.SEMIFINAL, Stage.QUARTERFINAL)
    return stages[from_last] if from_last < len(stages) else Stage.ROUND


@dataclass(frozen=True)
class PlayoffState:
    pairings: tuple[Pairing, ...]
    rounds: int
    winner: int | None


def playoff(qualifiers: Sequence[int | None], results: Mapping[str, Result]) -> PlayoffState:
    """The playoff of ``qualifiers`` (group winners by group, None while a group plays)."""
    size = 1
    while size < len(qualifiers):
        size *= 2
    rounds = size.bit_length() - 1
    places: list[int | None] = [
        qualifiers[seed - 1] if seed <= len(qualifiers) else None for seed in bracket_order(size)
    ]
    present = [seed <= len(qualifiers) for seed in bracket_order(size)]
    pairings: list[Pairing] = []
    winners: list[int | None] = []
    for round_number in range(1, rounds + 1):
        stage = _stage(round_number, rounds)
        winners = []
        for index in range(1, len(places) // 2 + 1):
            first, second = places[2 * index - 2], places[2 * index - 1]
            key = f"playoff-{round_number}-{index}"
            slot = Slot(key, Bracket.PLAYOFF, round_number, index, stage)
            if round_number == 1 and not present[2 * index - 1]:
                pairings.append(Pairing(slot, (first, None), bye=True))
                winners.append(first)
                continue
            pairings.append(Pairing(slot, (first, second)))
            result = results.get(key)
            winners.append(result.winner if result is not None else None)
        places = winners
    return PlayoffState(tuple(pairings), rounds, winners[0] if winners else None)
