"""The shape of knockout brackets, shared by single and double elimination.

A bracket is a list of :class:`Node`: a slot and where its two players come from (a seeded
entrant, nobody, or the winner or loser of an earlier slot). The shape depends only on the
number of entrants, never on results, so a slot's key names the same place whatever happens;
:mod:`gammon.tournament.progress` then fills the players in from the results.

Seeding: a field of ``n`` entrants plays in a bracket of ``size`` places, the smallest power of
two not below ``n``. The places are in the classic order (seed 1 against seed ``size``, seed 2
against ``size - 1``, ..., each half built the same way, recursively), so that the better seed
wins every match when seeds 1 and 2 meet in the final, 1 to 4 in the semifinals, and so on.
The seeds above ``n`` do not exist: their opponents, the top ``size - n`` seeds, have a bye.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gammon.tournament.model import Bracket, Slot, Stage, TournamentError


class Nobody(enum.Enum):
    """A place that no player will ever take (a missing seed, the loser of a bye)."""

    NOBODY = "nobody"


NOBODY = Nobody.NOBODY


@dataclass(frozen=True)
class Winner:
    """The place goes to the winner of the slot ``key``."""

    key: str


@dataclass(frozen=True)
class Loser:
    """The place goes to the loser of the slot ``key``."""

    key: str


# Where a slot's player comes from: a seeded entrant, nobody, an earlier slot's winner or loser.
Feed = int | Nobody | Winner | Loser


@dataclass(frozen=True)
class Node:
    """One slot of the structure and the sources of its two players."""

    slot: Slot
    feeds: tuple[Feed, Feed]


def bracket_size(entrants: int) -> int:
    """The smallest power of two (at least 2) that holds ``entrants`` places."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """The seeds (1-based) of a ``size``-place bracket, in bracket order from the top: 1 v size,
    then the match whose winner meets seed 1 in round 2, and so on (8: 1 8 4 5 2 7 3 6)."""
    order = [1]
    while len(order) < size:
        doubled = 2 * len(order)
        order = [seed for top in order for seed in (top, doubled + 1 - top)]
    return order


def first_round(entrants: Sequence[int]) -> list[tuple[Feed, Feed]]:
    """The seeded first round: pairs of entrants, NOBODY where a seed does not exist."""
    check_entrants(entrants)
    order = seed_order(bracket_size(len(entrants)))
    places: list[Feed] = [entrants[seed - 1] if seed <= len(entrants) else NOBODY for seed in order]
    return [(places[at], places[at + 1]) for at in range(0, len(places), 2)]


def check_entrants(entrants: Sequence[int]) -> None:
    if len(entrants) < 2:
        raise TournamentError(f"a knockout needs at least 2 entrants, not {len(entrants)}")
    if len(set(entrants)) != len(entrants):
        raise TournamentError("an entrant is listed twice")


def key(bracket: Bracket, round_: int, index: int) -> str:
    return f"{bracket.value}-{round_}-{index}"


def stage(round_: int, rounds: int) -> Stage:
    """The last round of a bracket is its final, the one before the semifinals, and so on."""
    left = rounds - round_
    return {0: Stage.FINAL, 1: Stage.SEMIFINAL, 2: Stage.QUARTERFINAL}.get(left, Stage.ROUND)


def build(bracket: Bracket, rounds: Sequence[Sequence[tuple[Feed, Feed]]]) -> list[Node]:
    """The nodes of a bracket given each round's feeds (round 1 first)."""
    return [
        Node(
            Slot(key(bracket, number, index), bracket, number, index, stage(number, len(rounds))),
            feeds,
        )
        for number, feeds_of_round in enumerate(rounds, start=1)
        for index, feeds in enumerate(feeds_of_round, start=1)
    ]


def halving(bracket: Bracket, round_: int, count: int) -> list[tuple[Feed, Feed]]:
    """The next round of an ordinary knockout: the winners of slots 1 and 2 of ``round_`` (of
    ``count`` slots), then of 3 and 4, ..."""
    return [
        (Winner(key(bracket, round_, index)), Winner(key(bracket, round_, index + 1)))
        for index in range(1, count + 1, 2)
    ]


def losers_paired(bracket: Bracket, round_: int, count: int) -> list[tuple[Feed, Feed]]:
    """The losers of slots 1 and 2 of ``round_`` (of ``count`` slots), then of 3 and 4, ..."""
    return [
        (Loser(key(bracket, round_, index)), Loser(key(bracket, round_, index + 1)))
        for index in range(1, count + 1, 2)
    ]


def paired_in_order(sources: Sequence[Feed]) -> list[tuple[Feed, Feed]]:
    """A first round over ``sources`` in their order, byes last: in a bracket of ``size``
    places, the first ``len - size/2`` pairs play (1 v 2, 3 v 4, ...) and the rest have a bye,
    so that no later round has one."""
    matches = len(sources) - bracket_size(len(sources)) // 2
    played = [(sources[2 * at], sources[2 * at + 1]) for at in range(matches)]
    return played + [(source, NOBODY) for source in sources[2 * matches :]]


def other_half(index: int, count: int) -> int:
    """The slot in the other half of a round of ``count`` slots at the same place in its half
    (1 <-> count/2 + 1, ...): where a dropping-in loser comes from, so that nobody meets again
    straight away the player who just beat their new opponent's earlier opponent. A round of one
    slot has no other half."""
    if count == 1:
        return 1
    half = count // 2
    return index + half if index <= half else index - half


def drop_in(
    bracket: Bracket, round_: int, dropping: Bracket, dropping_round: int, count: int
) -> list[tuple[Feed, Feed]]:
    """A round where the winners of ``bracket``'s ``round_`` (``count`` slots) each meet a
    loser of ``dropping``'s ``dropping_round`` (also ``count`` slots), from the other half."""
    return [
        (
            Winner(key(bracket, round_, index)),
            Loser(key(dropping, dropping_round, other_half(index, count))),
        )
        for index in range(1, count + 1)
    ]


def knockout(bracket: Bracket, entrants: Sequence[int]) -> list[Node]:
    """A seeded single-elimination bracket (the main bracket, the winners' bracket)."""
    return build(bracket, down_to_final(bracket, [first_round(entrants)]))


def down_to_final(
    bracket: Bracket, rounds: list[list[tuple[Feed, Feed]]]
) -> list[list[tuple[Feed, Feed]]]:
    """``rounds`` followed by ordinary knockout rounds until one slot, the final, is left."""
    while len(rounds[-1]) > 1:
        rounds.append(halving(bracket, len(rounds), len(rounds[-1])))
    return rounds


@functools.lru_cache(maxsize=64)
def structure(
    nodes_of: Callable[[Sequence[int]], list[Node]], entrants: tuple[int, ...]
) -> tuple[Node, ...]:
    """``nodes_of(entrants)``, built once: a format's structure depends on its options and
    entrants alone, and a tournament is viewed again after every result."""
    return tuple(nodes_of(entrants))
