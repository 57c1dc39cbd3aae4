"""What every tournament format shares: slots in a structure, pairings, results, standings.

A tournament's state is never stored as such: it is derived, by a pure function of its format,
from the entrants in seed order, the results of its matches and who withdrew
(:meth:`Format.view`). The same inputs give the same pairings, on every machine and after any
restart, which is what lets the command layer advance a tournament inside the transaction that
ends one of its matches and lets a database constraint on slot keys refuse a second start.

Players are ints (the entrants' user ids); seed order is the order of the ``entrants``
sequence, strongest first (seeding by rating or by the dice is decided before, by the caller).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol


class Bracket(enum.StrEnum):
    """Which part of a tournament a match belongs to."""

    MAIN = "main"  # single elimination
    CONSOLATION = "consolation"
    LAST_CHANCE = "last_chance"
    WINNERS = "winners"  # double elimination
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    GROUP = "group"  # round robin
    PLAYOFF = "playoff"
    SWISS = "swiss"


class Stage(enum.StrEnum):
    """How far into its bracket a match is, for match lengths and for naming it."""

    ROUND = "round"
    QUARTERFINAL = "quarterfinal"
    SEMIFINAL = "semifinal"
    FINAL = "final"


@dataclass(frozen=True, order=True)
class Slot:
    """One match's place in the structure. ``key`` is unique in the tournament and the same
    for the same place whatever happened elsewhere (``main-2-3``: main bracket, round 2, its
    third match; ``group-2-3-1``: group 2, round 3, first match)."""

    key: str
    bracket: Bracket
    round: int  # 1-based within its bracket (within its group for round robin)
    index: int  # 1-based within its round
    stage: Stage = Stage.ROUND
    group: int = 0  # the round-robin group, 1-based; 0 elsewhere


@dataclass(frozen=True)
class Pairing:
    """A slot and its two players as far as they are known (None: not yet decided).

    ``bye``: one player only and none will come; the slot's player advances without playing
    (no match is started and no result is stored: the format counts the bye itself)."""

    slot: Slot
    players: tuple[int | None, int | None]
    bye: bool = False

    @property
    def known(self) -> bool:
        """Both players known and it is not a bye: a match can be played."""
        first, second = self.players
        return first is not None and second is not None and not self.bye


@dataclass(frozen=True)
class Result:
    """A played (or walked-over) match: who won, and the final score in match points (for
    points differences; a walkover counts the match's length to nothing)."""

    winner: int
    loser: int
    winner_points: int = 0
    loser_points: int = 0
    walkover: bool = False


@dataclass(frozen=True)
class Standing:
    """One player's line in a table (round robin, Swiss, a league division) or their final
    place in a bracket. ``rank`` is 1-based; equal ranks share a place (brackets: the losers of
    one round)."""

    player: int
    rank: int
    played: int = 0
    won: int = 0
    lost: int = 0
    points: int = 0  # tournament points: 1 a win, 1 a bye (Swiss)
    points_difference: int = 0  # match points scored minus conceded
    buchholz: int = 0  # Swiss: the sum of the opponents' points
    group: int = 0
    out: bool = False  # eliminated, or withdrew


@dataclass(frozen=True)
class TournamentView:
    """Everything derived from the inputs of :meth:`Format.view`.

    - ``pairings``: every slot known so far, in play order, with its players as far as known
      (later rounds of a bracket appear with None for the players still to be decided);
    - ``ready``: the pairings that can start now: both players known, no result yet, and
      neither player has an earlier match of this tournament unfinished (a player plays one
      match at a time in a chat);
    - ``standings``: the table, best first;
    - ``winner``: the tournament's winner once decided;
    - ``bracket_winners``: each bracket's own winner once decided, for formats with side
      brackets (single elimination's consolation and last chance: their winners have no place
      of their own in ``standings``, which the main bracket alone decides);
    - ``side_brackets_open``: the winner is decided but a side bracket still has matches to
      play (``complete`` says every match of the tournament is done).
    """

    pairings: tuple[Pairing, ...]
    ready: tuple[Pairing, ...]
    standings: tuple[Standing, ...]
    winner: int | None = None
    rounds_total: int = 0  # Swiss: the rounds the event has; others: the rounds of the structure
    bracket_winners: tuple[tuple[Bracket, int], ...] = ()
    side_brackets_open: bool = False

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def complete(self) -> bool:
        """The winner is decided and no bracket has a match left to play."""
        return self.finished and not self.side_brackets_open


class Format(Protocol):
    """A tournament format: the pure function from its inputs to its state."""

    def view(
        self,
        entrants: Sequence[int],
        results: Mapping[str, Result],
        withdrawn: frozenset[int] = frozenset(),
    ) -> TournamentView:
        """The tournament for ``entrants`` (seed order, at least 2, no repeats) after
        ``results`` (by slot key; a key the format does not know is an error) with
        ``withdrawn`` players (their matches still to play are walkovers; see
        :func:`gammon.tournament.walkovers`)."""
        ...


@dataclass(frozen=True)
class Lengths:
    """The match length of each slot: by stage (``final``, ``semifinal``), else by bracket,
    else ``default``. For example main 7, semifinal and final 9, consolation 5, last chance 3:
    ``Lengths(7, {Bracket.CONSOLATION: 5, Bracket.LAST_CHANCE: 3}, {Stage.SEMIFINAL: 9,
    Stage.FINAL: 9})``. Stages apply to the main, winners', grand final and playoff
    brackets only: a consolation's final is played at the consolation's length."""

    default: int
    by_bracket: Mapping[Bracket, int] = field(default_factory=dict)
    by_stage: Mapping[Stage, int] = field(default_factory=dict)

    def of(self, slot: Slot) -> int:
        staged = slot.bracket in _STAGED
        if staged and slot.stage in self.by_stage:
            return self.by_stage[slot.stage]
        return self.by_bracket.get(slot.bracket, self.default)


_STAGED = frozenset({Bracket.MAIN, Bracket.WINNERS, Bracket.GRAND_FINAL, Bracket.PLAYOFF})


class TournamentError(ValueError):
    """Inputs no tournament of the format can have (a result for an unknown slot, a winner who
    was not in it, too few entrants)."""


def walkovers(
    tournament: Format,
    entrants: Sequence[int],
    results: Mapping[str, Result],
    withdrawn: frozenset[int],
    lengths: Lengths,
) -> dict[str, Result]:
    """The walkovers to record now: every ready match with a withdrawn player is won by the
    other (by its length to nothing; both withdrawn: the better seed), again and again until
    no ready match has one (a walkover can make the next one ready)."""
    seed = {player: place for place, player in enumerate(entrants)}
    added: dict[str, Result] = {}
    while True:
        view = tournament.view(entrants, {**results, **added}, withdrawn)
        new: dict[str, Result] = {}
        for pairing in view.ready:
            first, second = pairing.players
            assert first is not None
            assert second is not None
            if first not in withdrawn and second not in withdrawn:
                continue
            if first in withdrawn and second in withdrawn:
                winner, loser = sorted((first, second), key=seed.__getitem__)
            else:
                winner, loser = (second, first) if first in withdrawn else (first, second)
            length = lengths.of(pairing.slot)
            new[pairing.slot.key] = Result(winner, loser, length, 0, walkover=True)
        if not new:
            return added
        added.update(new)
