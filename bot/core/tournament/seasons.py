"""A league's seasons: the next one opens with the last one's players registered, and its
divisions come from the last one's tables by promotion and relegation
(:func:`gammon.tournament.next_divisions`); newcomers start in the bottom division, players
who left are taken out, and a division left with fewer than two players joins the one above.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.tournament.advance import view_of
from bot.core.tournament.settings import TournamentSettings
from gammon.tournament import next_divisions
from storage import TournamentSnapshot


def season_divisions(
    last: TournamentSnapshot, registered: Sequence[int]
) -> tuple[list[int], dict[int, int]]:
    """The next season's seed order (division by division, top first) and each player's
    division, for the players ``registered`` in it."""
    settings = TournamentSettings.of(last.tournament)
    played = {entrant.user_id for entrant in last.entrants}
    newcomers = [player for player in registered if player not in played]
    divisions = next_divisions(
        view_of(last).standings, settings.promoted, settings.relegated, newcomers
    )
    staying = set(registered)
    kept = [[player for player in division if player in staying] for division in divisions]
    merged: list[list[int]] = []
    for division in kept:
        if len(division) < 2 and merged:
            merged[-1] += division
        elif division:
            merged.append(division)
    if len(merged) > 1 and len(merged[0]) < 2:
        merged[1] = merged[0] + merged[1]
        merged.pop(0)
    order = [player for division in merged for player in division]
    placed = {player: number for number, division in enumerate(merged, 1) for player in division}
    return order, placed
