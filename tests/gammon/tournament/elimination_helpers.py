"""Compact spellings for the elimination tests: a pairing as a row, a result as two names."""

from __future__ import annotations

from gammon.tournament import Format, Result, TournamentView

Row = tuple[str, int | None, int | str | None]


def rows(view: TournamentView) -> list[Row]:
    """Each pairing as (slot key, first player, second player or "bye"), in play order."""
    return [
        (pairing.slot.key, pairing.players[0], "bye" if pairing.bye else pairing.players[1])
        for pairing in view.pairings
    ]


def ready(view: TournamentView) -> list[Row]:
    return [(pairing.slot.key, *pairing.players) for pairing in view.ready]


def places(view: TournamentView) -> list[tuple[int, int]]:
    return [(line.player, line.rank) for line in view.standings]


def beat(winner: int, loser: int) -> Result:
    return Result(winner, loser, 5, 2)


def play(
    tournament: Format,
    entrants: list[int],
    results: dict[str, Result],
    more: dict[str, tuple[int, int]],
) -> TournamentView:
    """Add the results ``{slot key: (winner, loser)}`` to ``results`` and view the tournament."""
    results.update({key: beat(winner, loser) for key, (winner, loser) in more.items()})
    return tournament.view(entrants, results)
