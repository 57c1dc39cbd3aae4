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

ANALYSIS_LEVEL: Final = Level.EXPERT
"""The level of match analysis unless a deeper one is asked for: the plain net, without noise,
as gnubg's quick analysis. A 7-point match takes a second or two of one core
(``benchmarks/analysis_agreement.py``)."""

DEEP_ANALYSIS_LEVEL: Final = Level.WORLD_CLASS
"""The deeper analysis (``/analysis 12 world_class``, ``gammonbot analyse --level
world_class``): one roll of look-ahead for checker play and cube, nearer gnubg's 2-ply. A
7-point match takes some 5-15 s of one core (figures in docs/benchmarks.md)."""

ANALYSIS_LEVELS: Final = (ANALYSIS_LEVEL, DEEP_ANALYSIS_LEVEL)
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
