"""How deep the engine searches and how much noise it adds, per playing level.

The presets follow GNU Backgammon's (``eval.c``, ``aecSettings``): the weaker levels are the
expert's evaluation with Gaussian noise of a given standard deviation added to every
candidate's equity, so they still know the game but misjudge close choices, and more often the
more noise there is. Expert is the plain neural net (gnubg's 0-ply), world class looks ahead.

Depths use the engine's (XG's) numbering, in which the plain net is ``"1ply"`` — gnubg's
0-ply — and ``"2ply"`` is gnubg's 1-ply: one more roll of look-ahead.

=============  ==========  =====  ============================
level          eval level  noise  gnubg's preset
=============  ==========  =====  ============================
beginner       1ply        0.060  beginner, 0-ply, 0.060
intermediate   1ply        0.040  intermediate, 0-ply, 0.040
advanced       1ply        0.015  advanced, 0-ply, 0.015
expert         1ply        0      expert, 0-ply
world class    2ply        0      world class (gnubg 2-ply)
=============  ==========  =====  ============================

The time each level takes per decision is measured by ``benchmarks/engine.py`` (figures in
docs/benchmarks.md). Expert stays far inside the 200 ms a chat allows at p99. World class is one
ply shallower than gnubg's (whose 2-ply is bgsage's ``"3ply"``): ``"3ply"`` took seconds a
move, too slow for a chat. ``"2ply"`` keeps most moves quick, with rare waits of a few
seconds (many candidates: doubles, bear-offs). Intermediate uses gnubg's 0.040 (its "casual
play" is 0.050).

A match analysis has time that a chat's turn has not: analysed at world class (the default,
:data:`ANALYSIS_LEVEL`), checker plays are searched at gnubg's 2-ply as gnubg's analysis
searches them (:data:`GNUBG_2PLY`); the quick analysis (expert) is the plain net's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.api import Level


@dataclass(frozen=True)
class LevelSpec:
    """One playing level: ``eval_level`` is the engine's search depth (``"1ply"``: the plain
    neural net), ``noise`` the standard deviation of the Gaussian noise added to each
    candidate's equity (checker plays and the cube's three equities), in equity units
    (points per cube in money play, EMG in matches). 0 plays the engine's best every time."""

    eval_level: str
    noise: float


LEVELS: Final[dict[Level, LevelSpec]] = {
    Level.BEGINNER: LevelSpec("1ply", 0.060),
    Level.INTERMEDIATE: LevelSpec("1ply", 0.040),
    Level.ADVANCED: LevelSpec("1ply", 0.015),
    Level.EXPERT: LevelSpec("1ply", 0.0),
    Level.WORLD_CLASS: LevelSpec("2ply", 0.0),
}


@dataclass(frozen=True)
class MoveFilter:
    """Which plays a ranking at ``depth`` passes on to the next, deeper stage: the best and at
    most ``extra`` more, each within ``window`` equity of the best (gnubg's move filters:
    "accept 0, add ``extra`` within ``window``")."""

    depth: str
    extra: int
    window: float


@dataclass(frozen=True)
class DeepSearch:
    """How an analysis values checker plays with look-ahead: at ``depth``, for the plays the
    ``filters`` keep (shallowest first: the first ranks every legal play, each later one the
    survivors of the one before) and for the play that was made."""

    depth: str
    filters: tuple[MoveFilter, ...]


ANALYSIS_LEVEL: Final = Level.WORLD_CLASS
"""The level of a match analysis unless another is asked for: GNU Backgammon's default
analysis (2-ply, :data:`GNUBG_2PLY`), with which its players compare ours. A 7-point match
takes some 10-40 s of one core in the analysis worker (``benchmarks/analysis_agreement.py``,
figures in docs/benchmarks.md)."""

QUICK_ANALYSIS_LEVEL: Final = Level.EXPERT
"""The quick analysis (``/analysis 12 expert``, ``gammonbot analyse --level expert``): the
plain net for every play, a second or two per 7-point match. It judges by the net the bot
plays expert with, so the bot's expert plays are never errors by it."""

GNUBG_2PLY: Final = DeepSearch("3ply", (MoveFilter("1ply", 8, 0.16), MoveFilter("2ply", 2, 0.04)))
"""gnubg's 2-ply (the engine's ``"3ply"``, two rolls of look-ahead) for the plays within reach
of the best: gnubg's analysis filter keeps up to 9 plays within 0.16 of the plain net's best;
of those, the best three within 0.04 at one roll of look-ahead are searched to gnubg's
2-ply. bgsage's own 2-ply search goes through every legal play, which made a 5-point match
a minute of CPU."""

ANALYSIS_SEARCHES: Final[dict[Level, DeepSearch | None]] = {
    QUICK_ANALYSIS_LEVEL: None,
    ANALYSIS_LEVEL: GNUBG_2PLY,
}
"""How each analysis level values checker plays: ``None`` ranks every play at the level's own
depth (:func:`engine.backgammon.rank_plays`), a search ranks as :class:`DeepSearch` says."""

ANALYSIS_LEVELS: Final = (QUICK_ANALYSIS_LEVEL, ANALYSIS_LEVEL)
"""The levels a match can be analysed at in the chats."""


def analysis_level(name: str) -> Level:
    """The analysis level stored or asked for as ``name``; :data:`ANALYSIS_LEVEL` for an
    empty or unknown name (an analysis queued when a match ends names none)."""
    for level in ANALYSIS_LEVELS:
        if name == level.value:
            return level
    return ANALYSIS_LEVEL


def spec(level: Level) -> LevelSpec:
    """The preset of ``level``."""
    return LEVELS[Level(level)]
