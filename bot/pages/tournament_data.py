"""What a tournament's page shows: plain values the core's read model fills in
(:mod:`bot.core.info.tournament_page`), every text that depends on the tournament already in
the page's language; the page translates only its own fixed strings."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class BracketMatch:
    """One slot's box. ``players`` are names (None: not decided yet); ``winner`` is 0 or 1,
    the side that won (a bye's player too); ``score`` the final match points in the players'
    order, once played; ``url`` the match's own page, once it has started."""

    key: str
    name: str
    players: tuple[str | None, str | None]
    winner: int | None = None
    score: tuple[int, int] | None = None
    walkover: bool = False
    bye: bool = False
    in_play: bool = False
    url: str | None = None


@dataclass(frozen=True)
class BracketRound:
    """A column of the bracket: its round's number and its matches, in play order."""

    number: int
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class BracketPart:
    """A bracket (main, consolation, losers'...) or a group: ``title`` is empty when it is the
    tournament's only part; ``winner`` names a side bracket's own winner once decided."""

    title: str
    rounds: tuple[BracketRound, ...]
    winner: str = ""


@dataclass(frozen=True)
class TableRow:
    rank: int
    name: str
    won: int
    lost: int
    points: int
    difference: int
    buchholz: int
    out: bool = False


@dataclass(frozen=True)
class StandingsTable:
    """The table of a round robin group, a league division or a Swiss event (``buchholz``:
    the tie-break column is shown); ``title`` empty when it is the only table."""

    title: str
    rows: tuple[TableRow, ...]
    buchholz: bool = False


@dataclass(frozen=True)
class TournamentPageData:
    """The page: ``description`` is the format in words, ``status`` and ``winner`` sentences
    (``winner`` empty until decided), ``registered`` who has joined while registration is
    open (empty after)."""

    name: str
    description: str
    status: str
    winner: str
    registered: str
    parts: tuple[BracketPart, ...]
    tables: tuple[StandingsTable, ...]
