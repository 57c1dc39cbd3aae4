"""Double elimination: a player is out at their second lost match.

For ``n`` entrants in a bracket of ``size = 2 ** R`` places (seeding and byes as in
:mod:`gammon.tournament.bracket`):

Winners' bracket (``winners-r-i``): a seeded knockout, exactly like single elimination's main
bracket. Its losers drop into the losers' bracket.

Losers' bracket (``losers-r-i``, ``2 * (R - 1)`` rounds):

- round 1: the loser of ``winners-1-(2i-1)`` meets the loser of ``winners-1-2i``;
- round ``2k`` (k = 1 .. R-1), a drop-in round: the winner of ``losers-(2k-1)-i`` meets the
  loser of the winners' round ``k+1`` match at the same place in the other half of that round
  (of ``m`` matches: ``i + m/2`` for ``i <= m/2``, else ``i - m/2``; with one match, that one),
  which in round 2 keeps a player from meeting at once the one who beat them in winners'
  round 1 (later rematches can happen, as in any double elimination);
- round ``2k + 1``: the winners of ``losers-2k-(2i-1)`` and ``losers-2k-2i`` meet.

Grand final (``grand_final-1-1``): the winners' bracket winner against the losers' bracket
winner (with two entrants, the loser of the only winners' match). If the losers' bracket winner
wins it, both have lost once and ``grand_final-2-1`` (the bracket reset) decides; a result for
``grand_final-2-1`` otherwise is an error.

Byes: only the winners' first round has them (the top seeds'); their missing losers make the
losers' round-1 slots fed by them byes, or void when both sides are missing. Places follow the
order of elimination: the grand final's loser is 2nd, the losers' final's loser 3rd, and the
losers of an earlier losers' round share the place after everyone out later (a bracket of 8:
1, 2, 3, 4, 5, 5, 7, 7). ``rounds_total`` is the winners' bracket's rounds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gammon.tournament.bracket import (
    Feed,
    Loser,
    Node,
    Winner,
    bracket_size,
    build,
    drop_in,
    halving,
    key,
    knockout,
    losers_paired,
    structure,
)
from gammon.tournament.model import (
    Bracket,
    Result,
    Slot,
    Stage,
    TournamentError,
    TournamentView,
)
from gammon.tournament.placing import knockout_view
from gammon.tournament.progress import Outcome, champion, resolve

GRAND_FINAL = key(Bracket.GRAND_FINAL, 1, 1)
RESET = key(Bracket.GRAND_FINAL, 2, 1)


@dataclass(frozen=True)
class DoubleElimination:
    """Two lost matches and you are out (see the module's rules)."""

    def view(
        self,
        entrants: Sequence[int],
        results: Mapping[str, Result],
        withdrawn: frozenset[int] = frozenset(),
    ) -> TournamentView:
        nodes = structure(self.nodes, tuple(entrants))
        before_reset = {slot: result for slot, result in results.items() if slot != RESET}
        outcomes = resolve(nodes, before_reset)
        grand_final = outcomes[GRAND_FINAL]
        reset = grand_final.result is not None and grand_final.loser == grand_final.players[0]
        if reset:
            feeds: tuple[Feed, Feed] = (Loser(GRAND_FINAL), Winner(GRAND_FINAL))
            reset_slot = Slot(RESET, Bracket.GRAND_FINAL, 2, 1, Stage.FINAL)
            outcomes = resolve([*nodes, Node(reset_slot, feeds)], results)
        elif RESET in results:
            raise TournamentError(
                f"{RESET} is played only when the losers' bracket winner wins {GRAND_FINAL}"
            )
        decider = outcomes[RESET if reset else GRAND_FINAL]
        places = _places(outcomes, decider)
        rounds = bracket_size(len(entrants)).bit_length() - 1
        return knockout_view(entrants, outcomes, places, withdrawn, champion(decider), rounds)

    def nodes(self, entrants: Sequence[int]) -> list[Node]:
        """Winners' bracket, losers' bracket, and the grand final's first match."""
        nodes = knockout(Bracket.WINNERS, entrants)
        rounds = bracket_size(len(entrants)).bit_length() - 1
        champion_of_losers: Feed = Loser(key(Bracket.WINNERS, 1, 1))
        if rounds >= 2:
            losers = [losers_paired(Bracket.WINNERS, 1, 2 ** (rounds - 1))]
            for dropping in range(2, rounds + 1):
                count = len(losers[-1])
                losers.append(
                    drop_in(Bracket.LOSERS, len(losers), Bracket.WINNERS, dropping, count)
                )
                if count > 1:
                    losers.append(halving(Bracket.LOSERS, len(losers), count))
            nodes += build(Bracket.LOSERS, losers)
            champion_of_losers = Winner(key(Bracket.LOSERS, len(losers), 1))
        final = Slot(GRAND_FINAL, Bracket.GRAND_FINAL, 1, 1, Stage.FINAL)
        return [*nodes, Node(final, (Winner(key(Bracket.WINNERS, rounds, 1)), champion_of_losers))]


def _places(outcomes: Mapping[str, Outcome], decider: Outcome) -> dict[int, int]:
    """The places of the players out: the decider's loser 2nd; a losers' round-``r`` loser
    after the two finalists and every losers' slot of the rounds after ``r``."""
    in_losers = [o for o in outcomes.values() if o.node.slot.bracket is Bracket.LOSERS]
    slots_in_round = Counter(outcome.node.slot.round for outcome in in_losers)
    places: dict[int, int] = {}
    for outcome in in_losers:
        if isinstance(loser := outcome.loser, int):
            later = (
                count
                for number, count in slots_in_round.items()
                if number > outcome.node.slot.round
            )
            places[loser] = 3 + sum(later)
    if isinstance(decider.loser, int):
        places[decider.loser] = 2
    return places
