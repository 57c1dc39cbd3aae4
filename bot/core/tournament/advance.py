"""A tournament advances inside the transaction that ends one of its matches.

The handler (registered with the others in :mod:`bot.core.events`) records the match's result
in its slot, reads the tournament whole with its row locked (two of its matches ending at the
same instant advance it one after the other), derives the tournament from its entrants and
results with the format's pure function (:mod:`gammon.tournament`), and writes, in the same
transaction: the walkovers of withdrawn players, every pairing that became ready and the
winner once decided. A crash leaves all of it or none; the slots' primary key refuses a
pairing twice. The new pairings' matches are started after the commit
(:mod:`bot.core.tournament.starts`), each claiming its slot in the transaction that starts it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.tournament.settings import TournamentSettings
from gammon.flow import MatchState
from gammon.tournament import Result, TournamentView, walkovers
from storage import TournamentPairing, TournamentSnapshot
from storage.transaction import Transaction


def results_of(snapshot: TournamentSnapshot) -> dict[str, Result]:
    """The results recorded so far, by slot."""
    return {
        match.slot: Result(
            match.winner_id,
            match.loser_id,
            match.winner_points or 0,
            match.loser_points or 0,
            match.walkover,
        )
        for match in snapshot.matches
        if match.winner_id is not None and match.loser_id is not None
    }


def view_of(snapshot: TournamentSnapshot) -> TournamentView:
    """The tournament as its results and withdrawals make it now (walkovers not yet written
    counted as written)."""
    return view_and_results(snapshot)[0]


def view_and_results(snapshot: TournamentSnapshot) -> tuple[TournamentView, dict[str, Result]]:
    """:func:`view_of` and the results it counts, by slot (its picture shows their scores)."""
    derived = _derived(snapshot)
    return derived.view, {**derived.results, **derived.walked}


@dataclass(frozen=True)
class _Derived:
    settings: TournamentSettings
    results: dict[str, Result]  # recorded
    walked: dict[str, Result]  # the walkovers of withdrawn players, written or not
    view: TournamentView  # after both


def _derived(snapshot: TournamentSnapshot) -> _Derived:
    """The tournament from its snapshot by its format: what every reader of it starts from."""
    settings = TournamentSettings.of(snapshot.tournament)
    tournament = settings.format(snapshot)
    entrants, withdrawn = snapshot.seeded, snapshot.withdrawn
    results = results_of(snapshot)
    walked = walkovers(tournament, entrants, results, withdrawn, settings.lengths)
    view = tournament.view(entrants, {**results, **walked}, withdrawn)
    return _Derived(settings, results, walked, view)


@dataclass(frozen=True)
class Decided:
    """What the results decide now: the new pairings to write (a withdrawn player's written
    decided, as walkovers), the walkovers of pairings written already (their match not
    begun), and the tournament after them."""

    pairings: list[TournamentPairing]
    walkovers: dict[str, Result]
    view: TournamentView


def decided_now(snapshot: TournamentSnapshot, moment: datetime) -> Decided:
    """See :class:`Decided`."""
    derived = _derived(snapshot)
    settings, walked, view = derived.settings, derived.walked, derived.view
    written = {match.slot: match for match in snapshot.matches}
    deadline = (
        moment + timedelta(days=settings.match_days) if settings.match_days is not None else None
    )
    by_key = {pairing.slot.key: pairing for pairing in view.pairings}
    pairings: list[TournamentPairing] = []
    on_written: dict[str, Result] = {}
    for key, result in walked.items():
        if key in written:
            if written[key].match_id is None:
                on_written[key] = result
            continue
        first, second = by_key[key].players
        assert first is not None
        assert second is not None
        length = settings.lengths.of(by_key[key].slot)
        pairings.append(TournamentPairing(key, (first, second), length, None, result.winner))
    for pairing in view.ready:
        if pairing.slot.key in written or pairing.slot.key in walked:
            continue
        first, second = pairing.players
        assert first is not None
        assert second is not None
        length = settings.lengths.of(pairing.slot)
        pairings.append(TournamentPairing(pairing.slot.key, (first, second), length, deadline))
    return Decided(pairings, on_written, view)


def advance_tournament(
    match_id: int, player_ids: tuple[int, int], state: MatchState, transaction: Transaction
) -> None:
    """The match ended in ``state``: if it was a tournament's, record its result and advance
    the tournament (see the module's docstring)."""
    found = transaction.tournament_slot_of(match_id)
    if found is None or state.winner is None:
        return
    tournament_id, slot = found
    winner, loser = player_ids[state.winner], player_ids[1 - state.winner]
    points = (state.score[state.winner], state.score[1 - state.winner])
    if transaction.record_tournament_result(tournament_id, slot, (winner, loser), points):
        advance_locked(transaction, tournament_id)


def advance_locked(transaction: Transaction, tournament_id: int) -> TournamentView:
    """Write what the tournament's results now decide, its row locked for the rest of the
    caller's transaction: the pairings, and its end once every match of every bracket is
    decided (the title may be decided before: a consolation can still be running)."""
    snapshot = transaction.locked_tournament(tournament_id)
    decided = decided_now(snapshot, transaction.moment)
    transaction.add_tournament_pairings(tournament_id, decided.pairings)
    for key, result in decided.walkovers.items():
        players, points = (result.winner, result.loser), (result.winner_points, 0)
        transaction.record_tournament_result(tournament_id, key, players, points, walkover=True)
    view = decided.view
    if view.complete and snapshot.tournament.winner_id is None:
        assert view.winner is not None
        transaction.finish_tournament(tournament_id, view.winner)
    return view


def advancing(tournament_id: int) -> Callable[[Transaction], None]:
    """:func:`advance_locked` for the tournament, as the writes a repository's transaction
    ends with (its start, a withdrawal, a decision)."""

    def advance(transaction: Transaction) -> None:
        advance_locked(transaction, tournament_id)

    return advance
