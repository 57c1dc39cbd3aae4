"""The boards a theme's shared palette is chosen from (:mod:`rendering.palette`): together
they show every kind of mark a board can carry, so every colour and blend a later board uses
is among them: both checker colours on points, on the bar and borne off, stacks with a count,
both players' dice and opening dice, the cube centred, owned and offered, the last play's
rings and hits, and each band's texts (score, Crawford, a double, a winner)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from gammon import Variant
from rendering.view import BoardView, LastPlay

SAMPLE_NAMES = ("Anna", "Bob")


def palette_samples(variant: Variant) -> list[tuple[BoardView, LastPlay | None]]:
    """Views (with the play to highlight) that show everything a ``variant`` board can."""
    if variant is Variant.BACKGAMMON:
        return _backgammon()
    return _long_nardy()


def _sides(
    first: Mapping[int, int], second: Mapping[int, int]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Both players' 26 counts (0: borne off, 25: the bar) from their occupied points."""
    return tuple(first.get(p, 0) for p in range(26)), tuple(second.get(p, 0) for p in range(26))


def _rolled(
    kind: Variant,
    sides: tuple[tuple[int, ...], tuple[int, ...]],
    player: int,
    dice: tuple[int, int],
) -> BoardView:
    """A board where ``player`` has rolled ``dice`` and is to move."""
    return BoardView(kind, sides, turn=player, on_roll=player, dice=dice)


def _backgammon() -> list[tuple[BoardView, LastPlay | None]]:
    kind = Variant.BACKGAMMON
    sides = _sides(
        {25: 2, 24: 1, 13: 7, 8: 1, 6: 3, 5: 2, 0: 4},
        {25: 1, 19: 8, 6: 1, 2: 1, 1: 2, 0: 9},
    )
    hits = LastPlay.from_text("13/8* 6/5*", 0)
    return [
        (
            replace(
                _rolled(kind, sides, 0, (6, 5)), cube_value=2, cube_owner=1, score=(3, 4), length=7
            ),
            hits,
        ),
        (
            replace(
                _rolled(kind, sides, 1, (3, 3)), score=(6, 4), length=7, crawford=True, light=1
            ),
            hits,
        ),
        (
            BoardView(kind, sides, turn=1, cube_value=2, cube_owner=0, double_offered=True),
            None,
        ),
        (BoardView(kind, sides, turn=0, opening_dice=(4, 2), winner=1, length=5), None),
    ]


def _long_nardy() -> list[tuple[BoardView, LastPlay | None]]:
    kind = Variant.LONG_NARDY
    sides = _sides({24: 9, 13: 3, 0: 3}, {24: 8, 12: 7})
    run = LastPlay.from_text("24/18 18/13", 0, kind)
    split = LastPlay.from_text("13/10 13/7", 1, kind)  # rings on points of both colours
    return [
        (replace(_rolled(kind, sides, 0, (6, 5)), score=(1, 2), length=3, cube_visible=False), run),
        (replace(_rolled(kind, sides, 1, (2, 2)), light=1, winner=0, cube_visible=False), split),
        (BoardView(kind, sides, turn=0, opening_dice=(4, 2), cube_visible=False), None),
    ]
