"""What a tournament's picture shows, as plain values: brackets of rounds of matches, and tables.

The caller (the bot) turns its tournament into these, every text already translated and every
number already written; they pickle as they are, so a drawing can go to the painter's process.
Nothing here knows the tournament formats of :mod:`gammon.tournament`: a bracket is only
columns of matches, a table only lines.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    """One side of a match. ``name`` empty: not decided yet (drawn as the labels' "—")."""

    name: str = ""
    seed: int = 0  # 0: none shown
    score: str = ""
    winner: bool = False


@dataclass(frozen=True)
class BracketMatch:
    """A match's box: ``bye``: ``first`` goes on without playing (the second line says so)."""

    first: Entry
    second: Entry
    bye: bool = False


@dataclass(frozen=True)
class BracketRound:
    title: str  # "Final", "Semifinals", "Round 1"
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class BracketPart:
    """One bracket (main, consolation, winners', losers', grand final): its rounds left to
    right. A round with half the matches of the one before is joined to it in pairs, one with
    as many match by match; other rounds stand apart."""

    heading: str
    rounds: tuple[BracketRound, ...]


@dataclass(frozen=True)
class TableLine:
    """A player's line in a table, every value written as it should be shown."""

    rank: str
    name: str
    played: str
    won_lost: str  # "3–1"
    points: str
    difference: str  # "+7"
    buchholz: str = ""
    out: bool = False  # eliminated or withdrew: muted


@dataclass(frozen=True)
class StandingsTable:
    """One table (a group, a division, the Swiss standings); ``buchholz``: show its column."""

    heading: str
    lines: tuple[TableLine, ...]
    buchholz: bool = False


@dataclass(frozen=True)
class TournamentLabels:
    """Short column titles, as league tables print them: five number columns and a name
    must share a phone's width."""

    bye: str = "bye"
    undecided: str = "—"
    player: str = "Player"
    played: str = "P"
    won_lost: str = "W–L"
    points: str = "Pts"
    difference: str = "+/−"
    buchholz: str = "Buch."


@dataclass(frozen=True)
class TournamentPicture:
    """The whole picture: a title, the brackets stacked, then the tables."""

    title: str
    brackets: tuple[BracketPart, ...] = ()
    tables: tuple[StandingsTable, ...] = ()
    labels: TournamentLabels = TournamentLabels()
