"""Ratings as a reader's language writes them: a rating, its change, and the line a rated
match's end shows (in the match's chat, and in ``/stats``)."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.text.i18n import Speech
from bot.core.text.numbers import decimal, signed
from storage import RatedMatch


def rating_text(locale: str, rating: float) -> str:
    """A rating with one decimal, as ``locale`` writes numbers: 1,523.4 or 1.523,4."""
    return decimal(locale, rating, 1)


def change_text(locale: str, change: float) -> str:
    """A rating change with its sign: +8.2, −3.1 (a true minus sign)."""
    return signed(locale, change, 1)


def rating_line(_: Speech, locale: str, rated: RatedMatch, names: Mapping[int, str]) -> str:
    """The end of a rated match: each player's new rating and its change, winner first."""
    players = (rated.winner_id, rated.loser_id)
    parts = [
        f"{names.get(player, '?')} {rating_text(locale, rated.after(player).rating)} "
        f"({change_text(locale, rated.change(player))})"
        for player in players
    ]
    return _("Ratings: {changes}").format(changes=" · ".join(parts))
