"""Single elimination, with an optional progressive consolation and last-chance bracket.

The rules, for a field of ``n`` entrants in a bracket of ``size`` places (the smallest power of
two not below ``n``; :mod:`gammon.tournament.bracket` has the seeding and the byes) and ``R``
main rounds (``size = 2 ** R``):

Main bracket (``main-r-i``): round 1 is seeded; the winners of ``main-r-(2i-1)`` and
``main-r-2i`` meet in ``main-(r+1)-i``. The last round is the final, the one before the
semifinals, the one before that the quarterfinals. The main bracket alone decides the places:
the winner is 1st, the finalist 2nd, the semifinal losers share 3rd, the quarterfinal losers
5th, and in general a loser of round ``r`` finishes ``2 ** (R - r) + 1``-th.

Consolation (``consolation-r-i``; only with at least 8 entrants, else there is none):

- round 1: the loser of ``main-1-(2i-1)`` meets the loser of ``main-1-2i``;
- round 2, when the main bracket has at least 4 rounds: the winner of ``consolation-1-i``
  meets the loser of the main round-2 match at the same place in the other half of that round
  (of ``k = size / 4`` matches: ``main-2-(i + k/2)`` for ``i <= k/2``, else ``main-2-(i -
  k/2)``), so that nobody meets again at once the player who knocked them out in round 1
  (that player played ``main-2-i``);
- later rounds: ordinary knockout (winners of 2i-1 and 2i) down to the consolation final.

Last chance (``last_chance-r-i``; only with a consolation): it takes, in this order, the losers
of consolation round 1 and, when that consolation's round 2 took the main round-2 losers, the
losers of consolation round 2. With a power-of-two field its round 1 simply pairs them in that
order: the losers of ``consolation-1-1`` and ``consolation-1-2``, ..., then those of
``consolation-2-1`` and ``consolation-2-2``, ...; then an ordinary knockout.

Byes: a main first-round bye has no loser, so every consolation slot fed by it has nobody on
that side: a bye when the other side has a player, void (left out of the pairings) when
neither has. The last chance leaves out the consolation slots that have no loser (byes and
void slots); of the ``t`` losers left (none at all below 2), in a bracket of ``2 ** s >= t``
places, the first ``t - 2 ** (s - 1)`` pairs play round 1 in the order above and the rest, the
latest losers, have a round-1 bye. So nobody has two byes in one bracket (a player can still
have a main-bracket bye and a consolation bye).
The consolation's and the last chance's winners are reported in ``bracket_winners``; the
tournament's ``winner`` is the main bracket's, which can be decided while the side brackets
still play (``side_brackets_open``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from gammon.tournament.bracket import (
    Feed,
    Loser,
    Node,
    bracket_size,
    build,
    down_to_final,
    drop_in,
    key,
    knockout,
    losers_paired,
    paired_in_order,
    structure,
)
from gammon.tournament.model import Bracket, Result, Stage, TournamentError, TournamentView
from gammon.tournament.placing import knockout_view
from gammon.tournament.progress import champion, resolve

CONSOLATION_MINIMUM = 8  # entrants: fewer have too few first-round losers for a consolation


@dataclass(frozen=True)
class SingleElimination:
    """Lose once and you are out of the main bracket (see the module's rules)."""

    consolation: bool = False
    last_chance: bool = False

    def __post_init__(self) -> None:
        if self.last_chance and not self.consolation:
            raise TournamentError("a last-chance bracket takes its players from a consolation")

    def view(
        self,
        entrants: Sequence[int],
        results: Mapping[str, Result],
        withdrawn: frozenset[int] = frozenset(),
    ) -> TournamentView:
        nodes = structure(self.nodes, tuple(entrants))
        outcomes = resolve(nodes, results)
        rounds = max(node.slot.round for node in nodes if node.slot.bracket is Bracket.MAIN)
        places: dict[int, int] = {}
        for outcome in outcomes.values():
            loser = outcome.loser
            if outcome.node.slot.bracket is Bracket.MAIN and isinstance(loser, int):
                places[loser] = 2 ** (rounds - outcome.node.slot.round) + 1
        winners = tuple(
            (outcome.node.slot.bracket, found)
            for outcome in outcomes.values()
            if outcome.node.slot.stage is Stage.FINAL and (found := champion(outcome)) is not None
        )
        winner = champion(outcomes[key(Bracket.MAIN, rounds, 1)])
        return knockout_view(entrants, outcomes, places, withdrawn, winner, rounds, winners)

    def nodes(self, entrants: Sequence[int]) -> list[Node]:
        """The whole structure: main bracket, then consolation, then last chance."""
        nodes = knockout(Bracket.MAIN, entrants)
        if not self.consolation or len(entrants) < CONSOLATION_MINIMUM:
            return nodes
        quarter = bracket_size(len(entrants)) // 4  # consolation round-1 slots, main round-2 slots
        main_rounds = quarter.bit_length() + 1
        consolation = [losers_paired(Bracket.MAIN, 1, 2 * quarter)]
        takes_round_two = main_rounds >= 4
        if takes_round_two:
            consolation.append(drop_in(Bracket.CONSOLATION, 1, Bracket.MAIN, 2, quarter))
        nodes += build(Bracket.CONSOLATION, down_to_final(Bracket.CONSOLATION, consolation))
        if not self.last_chance:
            return nodes
        losers = [key(Bracket.CONSOLATION, 1, index) for index in range(1, quarter + 1)]
        if takes_round_two:
            losers += [key(Bracket.CONSOLATION, 2, index) for index in range(1, quarter + 1)]
        before = resolve(nodes, {})  # byes and void slots follow from the field's size alone
        entering: list[Feed] = [Loser(slot) for slot in losers if before[slot].loser is None]
        if len(entering) < 2:
            return nodes
        first = paired_in_order(entering)
        return nodes + build(Bracket.LAST_CHANCE, down_to_final(Bracket.LAST_CHANCE, [first]))
