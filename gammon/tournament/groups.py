"""Round-robin groups: who plays whom in which round, which matches can start, the table.

Shared by :class:`~gammon.tournament.round_robin.RoundRobin` (groups, keys ``group-G-R-I``)
and :class:`~gammon.tournament.league.League` (divisions, keys ``division-D-R-I``).

- Schedule: the circle method. The group's best seed keeps its seat, the others turn one
  seat clockwise each round (the last one moves to the second seat); seat ``i`` plays seat
  ``n - 1 - i``. An odd group gets an empty seat: whoever faces it rests that round (a rest is
  no match and no result). Each pair is written best seed first.
- Ready: a match can start once both its players have finished every match of their earlier
  rounds, without waiting for the rest of the round.
- Table: tournament points (one a win), then matches won minus lost, then match points scored
  minus conceded, then the wins in the matches among the players still level, then seed.
  Players who withdrew keep the place those numbers give them (their matches still to play
  are walkovers they lose), so a finished table never changes; they are marked ``out``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby

from gammon.tournament.model import Bracket, Pairing, Result, Slot, Standing
from gammon.tournament.tally import Tally, tally


def circle_rounds(players: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Every pair of ``players`` (seed order) once, round by round, by the circle method."""
    seed = {player: place for place, player in enumerate(players)}
    seats: list[int | None] = list(players)
    if len(seats) % 2:
        seats.append(None)  # the resting seat
    fixed, turning = seats[0], seats[1:]
    rounds: list[list[tuple[int, int]]] = []
    for shift in range(len(turning)):
        cut = len(turning) - shift
        table = [fixed, *turning[cut:], *turning[:cut]]
        pairs: list[tuple[int, int]] = []
        for seat in range(len(table) // 2):
            first, second = table[seat], table[-1 - seat]
            if first is None or second is None:
                continue
            pairs.append((first, second) if seed[first] < seed[second] else (second, first))
        rounds.append(pairs)
    return rounds


@dataclass(frozen=True)
class GroupState:
    """One group's schedule, its table (best first) and whether all its matches are played."""

    number: int
    pairings: tuple[Pairing, ...]
    table: tuple[Standing, ...]
    complete: bool

    @property
    def rounds(self) -> int:
        """Rounds of the schedule: one fewer than the players, or as many when odd."""
        return len(self.table) - 1 + len(self.table) % 2

    @property
    def winner(self) -> int | None:
        return self.table[0].player if self.complete and self.table else None


def group_pairings(players: Sequence[int], number: int, prefix: str) -> list[Pairing]:
    """The slots of group ``number``: ``{prefix}-{number}-{round}-{index}``."""
    pairings: list[Pairing] = []
    for round_number, pairs in enumerate(circle_rounds(players), start=1):
        for index, pair in enumerate(pairs, start=1):
            key = f"{prefix}-{number}-{round_number}-{index}"
            slot = Slot(key, Bracket.GROUP, round_number, index, group=number)
            pairings.append(Pairing(slot, pair))
    return pairings


def ready_in_groups(pairings: Sequence[Pairing], results: Mapping[str, Result]) -> list[Pairing]:
    """The unplayed matches both of whose players have no unplayed match in an earlier round
    (each player has one match a round at most, so that is their next one)."""
    open_pairings = [p for p in pairings if p.known and p.slot.key not in results]
    next_round: dict[int | None, int] = {}
    for pairing in open_pairings:
        for player in pairing.players:
            next_round[player] = min(next_round.get(player, pairing.slot.round), pairing.slot.round)
    return [
        pairing
        for pairing in open_pairings
        if all(next_round[player] == pairing.slot.round for player in pairing.players)
    ]


def rank_key(tallied: Tally) -> tuple[int, int, int]:
    """The table's first three criteria, larger is better."""
    return (tallied.points, tallied.match_difference, tallied.points_difference)


def group_table(
    players: Sequence[int],
    pairings: Sequence[Pairing],
    results: Mapping[str, Result],
    withdrawn: frozenset[int],
    number: int,
) -> tuple[Standing, ...]:
    """The group's table, best first (see the module's docstring for the criteria)."""
    tallies = tally(players, pairings, results)
    seed = {player: place for place, player in enumerate(players)}
    by_numbers = sorted(players, key=lambda p: (rank_key(tallies[p]), -seed[p]), reverse=True)
    ordered: list[int] = []
    for _, level in groupby(by_numbers, key=lambda p: rank_key(tallies[p])):
        tied = list(level)
        among = _wins_among(frozenset(tied), pairings, results)
        ordered.extend(sorted(tied, key=lambda p: (-among.get(p, 0), seed[p])))
    return tuple(
        tallies[player].standing(player, rank, group=number, out=player in withdrawn)
        for rank, player in enumerate(ordered, start=1)
    )


def _wins_among(
    tied: frozenset[int], pairings: Sequence[Pairing], results: Mapping[str, Result]
) -> dict[int, int]:
    """Head to head: each tied player's wins in the matches between the tied players."""
    wins: dict[int, int] = {}
    if len(tied) < 2:
        return wins
    for pairing in pairings:
        result = results.get(pairing.slot.key)
        if result is not None and result.winner in tied and result.loser in tied:
            wins[result.winner] = wins.get(result.winner, 0) + 1
    return wins


def play_groups(
    groups: Sequence[Sequence[int]],
    prefix: str,
    results: Mapping[str, Result],
    withdrawn: frozenset[int],
) -> tuple[GroupState, ...]:
    """Every group's schedule and table after ``results``."""
    states: list[GroupState] = []
    for number, players in enumerate(groups, start=1):
        pairings = group_pairings(players, number, prefix)
        table = group_table(players, pairings, results, withdrawn, number)
        complete = all(pairing.slot.key in results for pairing in pairings)
        states.append(GroupState(number, tuple(pairings), table, complete))
    return tuple(states)


def in_play_order(states: Sequence[GroupState]) -> list[Pairing]:
    """All groups' pairings, round by round (round 1 of every group first)."""
    every = [pairing for state in states for pairing in state.pairings]
    return sorted(every, key=lambda p: (p.slot.round, p.slot.group, p.slot.index))
