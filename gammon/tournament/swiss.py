"""Swiss system: a fixed number of rounds, each paired by the standings after the last.

- Round r+1 is paired once every match of round r has a result (by
  :func:`gammon.tournament.swiss_pairing.pair_round`: by points, then seed, top-down, no
  rematch while one can be avoided, one bye a round when the number of players is odd). Keys
  ``swiss-R-I``, the bye (if any) last in its round.
- A bye is worth one point and has no stored result.
- A player who withdrew is paired until they have lost a match by walkover (as
  :func:`gammon.tournament.walkovers` records them): their match of the round under way is
  walked over, and from the next round on they are left out. That keeps every round that was
  paired unchanged whenever the withdrawal comes; it costs one more walkover when a player
  withdraws between finishing a round's match and the pairing of the next round. Results must
  therefore be walkovers only for withdrawn players (a lost on time is a played result).
- Standings: points, then Buchholz (the sum of the points of every opponent met, walkovers
  included; a bye adds nothing), then points difference (match points scored minus conceded),
  then seed. Players who withdrew keep the place these give them and are marked ``out``.
- The winner is the first of the standings once every round is played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gammon.tournament.model import (
    Bracket,
    Pairing,
    Result,
    Slot,
    Standing,
    TournamentError,
    TournamentView,
)
from gammon.tournament.swiss_pairing import pair_round
from gammon.tournament.tally import check_entrants, check_results, tally


class Swiss:
    """A Swiss tournament of ``rounds`` rounds."""

    def __init__(self, rounds: int) -> None:
        if rounds < 1:
            raise TournamentError(f"a Swiss tournament has at least 1 round, not {rounds}")
        self.rounds = rounds

    def view(
        self,
        entrants: Sequence[int],
        results: Mapping[str, Result],
        withdrawn: frozenset[int] = frozenset(),
    ) -> TournamentView:
        check_entrants(entrants)
        seed = {player: place for place, player in enumerate(entrants)}
        pairings: list[Pairing] = []
        for round_number in range(1, self.rounds + 1):
            this_round = self._pair(round_number, entrants, seed, pairings, results, withdrawn)
            pairings += this_round
            if any(p.known and p.slot.key not in results for p in this_round):
                break
        check_results(pairings, results)
        unplayed = tuple(p for p in pairings if p.known and p.slot.key not in results)
        standings = _standings(entrants, seed, pairings, results, withdrawn)
        winner = standings[0].player if not unplayed else None
        return TournamentView(tuple(pairings), unplayed, standings, winner, self.rounds)

    @staticmethod
    def _pair(
        round_number: int,
        entrants: Sequence[int],
        seed: Mapping[int, int],
        earlier: Sequence[Pairing],
        results: Mapping[str, Result],
        withdrawn: frozenset[int],
    ) -> list[Pairing]:
        """Round ``round_number``'s pairings after the (complete) ``earlier`` rounds."""
        tallies = tally(entrants, earlier, results)
        walked_over = {
            result.loser
            for pairing in earlier
            if (result := results.get(pairing.slot.key)) is not None and result.walkover
        }
        playing = [p for p in entrants if p not in withdrawn or p not in walked_over]
        ranked = sorted(playing, key=lambda p: (-tallies[p].points, seed[p]))
        met = frozenset(
            frozenset((first, second))
            for p in earlier
            if (first := p.players[0]) is not None and (second := p.players[1]) is not None
        )
        had_bye = frozenset(p.players[0] for p in earlier if p.bye and p.players[0] is not None)
        pairs, bye = pair_round(ranked, met, had_bye)
        this_round = [
            Pairing(_slot(round_number, index), pair) for index, pair in enumerate(pairs, start=1)
        ]
        if bye is not None:
            this_round.append(Pairing(_slot(round_number, len(pairs) + 1), (bye, None), bye=True))
        return this_round


def _slot(round_number: int, index: int) -> Slot:
    return Slot(f"swiss-{round_number}-{index}", Bracket.SWISS, round_number, index)


def _standings(
    entrants: Sequence[int],
    seed: Mapping[int, int],
    pairings: Sequence[Pairing],
    results: Mapping[str, Result],
    withdrawn: frozenset[int],
) -> tuple[Standing, ...]:
    tallies = tally(entrants, pairings, results)
    buchholz = {
        player: sum(tallies[opponent].points for opponent in tallied.opponents)
        for player, tallied in tallies.items()
    }

    def order(player: int) -> tuple[int, int, int, int]:
        tallied = tallies[player]
        return (-tallied.points, -buchholz[player], -tallied.points_difference, seed[player])

    ranked = sorted(entrants, key=order)
    return tuple(
        tallies[player].standing(player, rank, buchholz=buchholz[player], out=player in withdrawn)
        for rank, player in enumerate(ranked, start=1)
    )
