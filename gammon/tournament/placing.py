"""Final places in a knockout: by how far each player got, the same place for the players out
in the same round, and the matches each played in every bracket of the tournament."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from gammon.tournament.model import Result, Standing


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
