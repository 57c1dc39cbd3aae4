"""A league season: one round-robin division per level, with promotion and relegation between
seasons.

- A season is a round robin in each division (division 1 is the top), with the schedule, start
  rule and table of :mod:`gammon.tournament.groups`; keys ``division-D-R-I`` and slots with
  ``group`` = D. Seed order within a division is the order it is given in.
- The season's winner is the top division's winner, once every division is complete.
- :func:`next_divisions` makes next season's divisions from this season's standings: players
  who withdrew leave; then of the players left in each division the top ``promoted`` go up one
  division (not from the top division) and, of the rest, the bottom ``relegated`` go down one
  (not from the bottom division); newcomers join the bottom division. A new division lists, in
  this order, the players relegated into it, those who stayed, those promoted into it and the
  newcomers, each in their finishing order: that is its seed order. A division can end up with
  fewer than two players when many withdrew; merging it is left to the caller.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gammon.tournament.groups import in_play_order, play_groups, ready_in_groups
from gammon.tournament.model import Result, Standing, TournamentError, TournamentView
from gammon.tournament.tally import check_results


class League:
    """A season of ``divisions`` (top first, each in seed order)."""

    def __init__(
        self, divisions: Sequence[Sequence[int]], promoted: int = 2, relegated: int = 2
    ) -> None:
        self.divisions = tuple(tuple(division) for division in divisions)
        players = [player for division in self.divisions for player in division]
        if not self.divisions or any(len(division) < 2 for division in self.divisions):
            raise TournamentError("a league has divisions of at least 2 players each")
        if len(set(players)) != len(players):
            raise TournamentError("a player appears in two divisions, or twice in one")
        if promoted < 0 or relegated < 0:
            raise TournamentError("promoted and relegated are counts of players, 0 or more")
        self.promoted = promoted
        self.relegated = relegated

    def view(
        self,
        entrants: Sequence[int],
        results: Mapping[str, Result],
        withdrawn: frozenset[int] = frozenset(),
    ) -> TournamentView:
        """The season; ``entrants`` must be the divisions' players (their order is the
        divisions')."""
        if sorted(entrants) != sorted(p for division in self.divisions for p in division):
            raise TournamentError("a league's entrants are the players of its divisions")
        states = play_groups(self.divisions, "division", results, withdrawn)
        pairings = in_play_order(states)
        check_results(pairings, results)
        ready = ready_in_groups(pairings, results)
        complete = all(state.complete for state in states)
        winner = states[0].winner if complete else None
        standings = tuple(standing for state in states for standing in state.table)
        rounds = max(state.rounds for state in states)
        return TournamentView(tuple(pairings), tuple(ready), standings, winner, rounds)

    def next_divisions(
        self, standings: Sequence[Standing], newcomers: Sequence[int] = ()
    ) -> tuple[tuple[int, ...], ...]:
        """Next season's divisions after this season's ``standings``."""
        return next_divisions(standings, self.promoted, self.relegated, newcomers)


def next_divisions(
    standings: Sequence[Standing],
    promoted: int = 2,
    relegated: int = 2,
    newcomers: Sequence[int] = (),
) -> tuple[tuple[int, ...], ...]:
    """Promotion and relegation (see the module's docstring) from a season's standings, whose
    ``group`` is the division (1 = top) and ``rank`` the place in it."""
    count = max((standing.group for standing in standings), default=0)
    finish = [
        [s.player for s in sorted(standings, key=lambda s: s.rank) if s.group == d and not s.out]
        for d in range(1, count + 1)
    ]
    going_up: list[list[int]] = [[] for _ in range(count)]
    going_down: list[list[int]] = [[] for _ in range(count)]
    staying: list[list[int]] = [[] for _ in range(count)]
    for index, order in enumerate(finish):
        up = order[:promoted] if index > 0 else []
        rest = order[len(up) :]
        kept = len(rest) if index == count - 1 else max(0, len(rest) - relegated)
        going_up[index], staying[index], going_down[index] = up, rest[:kept], rest[kept:]
    divisions = [
        (going_down[index - 1] if index > 0 else [])
        + staying[index]
        + (going_up[index + 1] if index + 1 < count else [])
        for index in range(count)
    ]
    if divisions:
        divisions[-1] += list(newcomers)
    return tuple(tuple(division) for division in divisions)
