"""A bracket's nodes filled in from the results: who plays where, who advanced, what is ready.

Each node's players follow from its feeds (:mod:`gammon.tournament.bracket`), in the order of
the nodes, which always name earlier nodes. A slot with nobody on one side is a bye: its player
advances without a match and without a stored result. A slot with nobody on either side is
void: nobody plays it and it is left out of the pairings (its key stays reserved, so a later
slot's key never changes).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gammon.tournament.bracket import NOBODY, Feed, Loser, Nobody, Node, Winner
from gammon.tournament.model import Pairing, Result, TournamentError

# A place as far as known: a player, NOBODY (nobody will come), None (not decided yet).
Occupant = int | Nobody | None


@dataclass(frozen=True)
class Outcome:
    """A node with its players as far as known and its result, if any."""

    node: Node
    players: tuple[Occupant, Occupant]
    result: Result | None = None

    @property
    def void(self) -> bool:
        return self.players == (NOBODY, NOBODY)

    @property
    def bye(self) -> bool:
        return (self.players[0] is NOBODY) != (self.players[1] is NOBODY)

    @property
    def winner(self) -> Occupant:
        if self.void:
            return NOBODY
        if self.bye:
            first, second = self.players
            return second if first is NOBODY else first
        return None if self.result is None else self.result.winner

    @property
    def loser(self) -> Occupant:
        if self.void or self.bye:
            return NOBODY
        return None if self.result is None else self.result.loser

    @property
    def open(self) -> bool:
        """A match still to play (or whose players are still to be decided)."""
        return self.winner is None

    def pairing(self) -> Pairing:
        if self.bye:
            player = self.winner
            return Pairing(
                self.node.slot, (player if isinstance(player, int) else None, None), True
            )
        first, second = (player if isinstance(player, int) else None for player in self.players)
        return Pairing(self.node.slot, (first, second))


def resolve(nodes: Sequence[Node], results: Mapping[str, Result]) -> dict[str, Outcome]:
    """Every node's outcome, in the nodes' order; a result for a slot that is not there, or
    whose players are not that slot's, raises :class:`TournamentError`."""
    unknown = sorted(set(results) - {node.slot.key for node in nodes})
    if unknown:
        raise TournamentError(f"results for slots this tournament does not have: {unknown}")
    outcomes: dict[str, Outcome] = {}
    for node in nodes:
        players = (_occupant(node.feeds[0], outcomes), _occupant(node.feeds[1], outcomes))
        result = results.get(node.slot.key)
        if result is not None:
            _check(node.slot.key, players, result)
        outcomes[node.slot.key] = Outcome(node, players, result)
    return outcomes


def _occupant(feed: Feed, outcomes: Mapping[str, Outcome]) -> Occupant:
    if isinstance(feed, Winner):
        return outcomes[feed.key].winner
    if isinstance(feed, Loser):
        return outcomes[feed.key].loser
    return feed


def _check(key: str, players: tuple[Occupant, Occupant], result: Result) -> None:
    first, second = players
    if not isinstance(first, int) or not isinstance(second, int):
        raise TournamentError(f"a result for {key}, whose two players are not both known")
    if result.winner == result.loser or {result.winner, result.loser} != {first, second}:
        raise TournamentError(
            f"the result for {key} names {result.winner} beating {result.loser}, "
            f"but its players are {first} and {second}"
        )


def play_order(outcomes: Mapping[str, Outcome]) -> list[Outcome]:
    """The non-void outcomes in play order: by wave (a slot plays one wave after the latest
    slot it takes a player from; seeded first rounds are wave 1), then in structure order."""
    wave: dict[str, int] = {}
    for key, outcome in outcomes.items():
        sources = [feed.key for feed in outcome.node.feeds if isinstance(feed, Winner | Loser)]
        wave[key] = 1 + max((wave[source] for source in sources), default=0)
    ordered = sorted(
        enumerate(outcomes.values()), key=lambda at: (wave[at[1].node.slot.key], at[0])
    )
    return [outcome for _, outcome in ordered if not outcome.void]


def ready(ordered: Iterable[Outcome]) -> tuple[Pairing, ...]:
    """The matches that can start now: both players known, no result, and neither player in an
    earlier unfinished match (one match at a time per player)."""
    busy: set[int] = set()
    found: list[Pairing] = []
    for outcome in ordered:
        if outcome.bye or outcome.result is not None:
            continue
        players = {player for player in outcome.players if isinstance(player, int)}
        if len(players) == 2 and not players & busy:
            found.append(outcome.pairing())
        busy |= players
    return tuple(found)


def champion(outcome: Outcome) -> int | None:
    """The winner of a bracket's final, once there is one."""
    winner = outcome.winner
    return winner if isinstance(winner, int) else None
