"""Round robin: everyone in a group plays everyone else in it once.

- Groups: as few as hold ``group_size`` players each (``ceil(N / group_size)``), filled by
  snake seeding: seeds 1..g go to groups 1..g, the next g seeds to groups g..1, the next to
  1..g again, and so on, so group sizes differ by one at most and every group gets a fair
  share of strong and weak players. Within a group the seed order is kept.
- Each group's schedule, start rule and table: :mod:`gammon.tournament.groups`.
- One group: its winner wins once all its matches are played.
- Several groups with ``playoff``: the group winners play a single-elimination playoff
  (:mod:`gammon.tournament.playoff`); its winner wins.
- Several groups without a playoff: once every group is complete, the best group winner wins,
  compared across groups by points, then matches won minus lost, then points difference, then
  seed (groups may differ in size by one, which a larger group's winner can profit from).

The view's standings are the group tables one after the other (group 1 first, ranks within
each group); the playoff shows in the pairings and the winner only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gammon.tournament.groups import GroupState, in_play_order, play_groups, ready_in_groups
from gammon.tournament.model import Result, TournamentError, TournamentView
from gammon.tournament.playoff import playoff
from gammon.tournament.tally import check_entrants, check_results


def snake_groups(entrants: Sequence[int], count: int) -> list[list[int]]:
    """``entrants`` (seed order) dealt into ``count`` groups by snake seeding."""
    groups: list[list[int]] = [[] for _ in range(count)]
    for place, player in enumerate(entrants):
        row, column = divmod(place, count)
        groups[column if row % 2 == 0 else count - 1 - column].append(player)
    return groups


def best_group_winner(states: Sequence[GroupState], seed: Mapping[int, int]) -> int | None:
    """The best of the group winners once every group is complete."""
    if not all(state.complete for state in states):
        return None
    leaders = [state.table[0] for state in states]
    best = max(
        leaders,
        key=lambda s: (s.points, s.won - s.lost, s.points_difference, -seed[s.player]),
    )
    return best.player


class RoundRobin:
    """Round-robin groups of at most ``group_size`` (3 or more), with an optional playoff of
    the group winners."""

    def __init__(self, group_size: int = 8, playoff: bool = False) -> None:
        if group_size < 3:
            raise TournamentError(f"a round-robin group holds at least 3 players, not {group_size}")
        self.group_size = group_size
        self.playoff = playoff

    def groups(self, entrants: Sequence[int]) -> list[list[int]]:
        count = -(-len(entrants) // self.group_size)
        return snake_groups(entrants, count)

    def view(
        self,
        entrants: Sequence[int],
        results: Mapping[str, Result],
        withdrawn: frozenset[int] = frozenset(),
    ) -> TournamentView:
        check_entrants(entrants)
        states = play_groups(self.groups(entrants), "group", results, withdrawn)
        pairings = in_play_order(states)
        ready = ready_in_groups(pairings, results)
        rounds_total = max(state.rounds for state in states)
        winner: int | None
        if len(states) == 1:
            winner = states[0].winner
        elif self.playoff:
            knockout = playoff([state.winner for state in states], results)
            pairings += knockout.pairings
            ready += [p for p in knockout.pairings if p.known and p.slot.key not in results]
            rounds_total += knockout.rounds
            winner = knockout.winner
        else:
            seed = {player: place for place, player in enumerate(entrants)}
            winner = best_group_winner(states, seed)
        check_results(pairings, results)
        standings = tuple(standing for state in states for standing in state.table)
        return TournamentView(tuple(pairings), tuple(ready), standings, winner, rounds_total)
