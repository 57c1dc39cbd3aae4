"""Final places in a knockout: by how far each player got, the same place for the players out
in the same round, and the matches each played in every bracket of the tournament; and the
view a knockout format returns, put together from its outcomes and places."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gammon.tournament.model import Bracket, Result, Standing, TournamentView
from gammon.tournament.progress import Outcome, play_order, ready


def standings(
    entrants: Sequence[int],
    results: Iterable[Result],
    places: Mapping[int, int],
    withdrawn: frozenset[int],
) -> tuple[Standing, ...]:
    """Every entrant, best first. ``places`` holds the players already out and the place each
    finished in; the players still in share place 1 until their matches decide (an eliminated
    player's place never changes: at most that many players are still in when they go out).
    Ties keep seed order. ``points`` is the matches won."""
    won = dict.fromkeys(entrants, 0)
    lost = dict.fromkeys(entrants, 0)
    difference = dict.fromkeys(entrants, 0)
    for result in results:
        won[result.winner] += 1
        lost[result.loser] += 1
        margin = result.winner_points - result.loser_points
        difference[result.winner] += margin
        difference[result.loser] -= margin
    lines = [
        Standing(
            player,
            places.get(player, 1),
            played=won[player] + lost[player],
            won=won[player],
            lost=lost[player],
            points=won[player],
            points_difference=difference[player],
            out=player in places or player in withdrawn,
        )
        for player in entrants
    ]
    seed = {player: place for place, player in enumerate(entrants)}
    return tuple(sorted(lines, key=lambda line: (line.rank, seed[line.player])))


def knockout_view(
    entrants: Sequence[int],
    outcomes: Mapping[str, Outcome],
    places: Mapping[int, int],
    withdrawn: frozenset[int],
    winner: int | None,
    rounds_total: int,
    bracket_winners: tuple[tuple[Bracket, int], ...] = (),
) -> TournamentView:
    """The view of a knockout whose slots resolved to ``outcomes``."""
    ordered = play_order(outcomes)
    played = [outcome.result for outcome in outcomes.values() if outcome.result is not None]
    return TournamentView(
        pairings=tuple(outcome.pairing() for outcome in ordered),
        ready=ready(ordered),
        standings=standings(entrants, played, places, withdrawn),
        winner=winner,
        rounds_total=rounds_total,
        bracket_winners=bracket_winners,
        side_brackets_open=winner is not None and any(outcome.open for outcome in ordered),
    )
