"""Checking results against the pairings they belong to, and adding them up per player.

Shared by the table formats (round robin, league divisions, Swiss), which rank players by
what they won, lost, scored and conceded."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from gammon.tournament.model import Pairing, Result, Standing, TournamentError


def check_entrants(entrants: Sequence[int]) -> None:
    """At least two entrants, none twice: what every format assumes of its seed list."""
    if len(entrants) < 2:
        raise TournamentError(f"a tournament needs at least 2 entrants, not {len(entrants)}")
    if len(set(entrants)) != len(entrants):
        raise TournamentError("an entrant appears twice in the seed list")


def check_result(pairing: Pairing, result: Result) -> None:
    """A result must name exactly the two players of its slot (one winner, one loser)."""
    key = pairing.slot.key
    if not pairing.known:
        raise TournamentError(f"match {key!r} has no two players to play it yet")
    if {result.winner, result.loser} != set(pairing.players):
        first, second = pairing.players
        raise TournamentError(
            f"the result of {key!r} names players {result.winner} and {result.loser}, "
            f"but that match is between {first} and {second}"
        )


def check_results(pairings: Iterable[Pairing], results: Mapping[str, Result]) -> None:
    """Every result belongs to a slot of ``pairings`` and names that slot's players."""
    by_key = {pairing.slot.key: pairing for pairing in pairings}
    for key, result in results.items():
        pairing = by_key.get(key)
        if pairing is None:
            raise TournamentError(f"there is no match {key!r} in this tournament (yet)")
        check_result(pairing, result)


@dataclass
class Tally:
    """One player's matches so far: the raw numbers the tables rank by."""

    played: int = 0
    won: int = 0
    lost: int = 0
    scored: int = 0  # match points
    conceded: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)

    @property
    def points(self) -> int:
        """Tournament points: one a win, one a bye."""
        return self.won + self.byes

    @property
    def match_difference(self) -> int:
        return self.won - self.lost

    @property
    def points_difference(self) -> int:
        return self.scored - self.conceded

    def standing(
        self, player: int, rank: int, *, group: int = 0, buchholz: int = 0, out: bool = False
    ) -> Standing:
        """This tally as ``player``'s line in a table."""
        return Standing(
            player,
            rank,
            played=self.played,
            won=self.won,
            lost=self.lost,
            points=self.points,
            points_difference=self.points_difference,
            buchholz=buchholz,
            group=group,
            out=out,
        )


def tally(
    players: Iterable[int], pairings: Iterable[Pairing], results: Mapping[str, Result]
) -> dict[int, Tally]:
    """Each player's tally from the results of ``pairings`` (byes count as a bye each).

    The formats call it before :func:`check_results` (a table can be needed to know the
    later pairings), so a result naming strangers is skipped here and refused there."""
    tallies = {player: Tally() for player in players}
    for pairing in pairings:
        if pairing.bye:
            first = pairing.players[0]
            if first is not None:
                tallies[first].byes += 1
            continue
        result = results.get(pairing.slot.key)
        if result is None or result.winner not in tallies or result.loser not in tallies:
            continue  # unplayed, or not this slot's players (check_results refuses those)
        winner, loser = tallies[result.winner], tallies[result.loser]
        winner.played += 1
        loser.played += 1
        winner.won += 1
        loser.lost += 1
        winner.scored += result.winner_points
        winner.conceded += result.loser_points
        loser.scored += result.loser_points
        loser.conceded += result.winner_points
        winner.opponents.append(result.loser)
        loser.opponents.append(result.winner)
    return tallies
