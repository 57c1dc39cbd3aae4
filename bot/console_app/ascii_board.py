"""A text board for the console: the viewer's home at the bottom right, like the pictures.

``x`` marks player 0's checkers, ``o`` player 1's; ``x5`` is five of them on a point.
"""

from __future__ import annotations

from gammon import Variant
from gammon.position import mirror_point
from rendering import BoardView


def _cell(view: BoardView, point: int, viewer: int) -> str:
    for player, mark in ((0, "x"), (1, "o")):
        own = point if player == viewer else mirror_point(point, view.variant)
        count = view.sides[player][own]
        if count:
            return f"{mark}{count}".ljust(3)
    return ".  "


def ascii_board(view: BoardView, viewer: int) -> str:
    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    middle = "|   |" if view.variant is Variant.BACKGAMMON else "| | |"

    def numbers(points: list[int]) -> str:
        left = "".join(f"{point:<3}" for point in points[:6])
        right = "".join(f"{point:<3}" for point in points[6:])
        return f" {left}{' ' * len(middle)}{right}"

    def cells(points: list[int]) -> str:
        left = "".join(_cell(view, point, viewer) for point in points[:6])
        right = "".join(_cell(view, point, viewer) for point in points[6:])
        return f" {left}{middle}{right}"

    bar = (
        f"bar x{view.sides[0][25]} o{view.sides[1][25]}"
        if view.variant is Variant.BACKGAMMON
        else ""
    )
    off = f"off x{view.sides[0][0]} o{view.sides[1][0]}"
    dice = f"dice {view.dice[0]}-{view.dice[1]}" if view.dice else ""
    if view.opening_dice:
        dice = f"opening dice x{view.opening_dice[0]} o{view.opening_dice[1]}"
    cube = ""
    if view.cube_visible and view.variant is Variant.BACKGAMMON:
        owner = "centre" if view.cube_owner is None else ("x" if view.cube_owner == 0 else "o")
        cube = f"cube {view.cube_value} ({owner})"
    footer = "  ".join(part for part in (bar, off, dice, cube) if part)
    return "\n".join([numbers(top), cells(top), cells(bottom), numbers(bottom), " " + footer])
