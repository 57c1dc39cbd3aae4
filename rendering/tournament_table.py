"""A tournament's table (a round-robin group, the Swiss standings, a league division): rank,
player, played, won–lost, points, points difference and, for Swiss, Buchholz; a line a
player, striped, those out of it muted."""

from __future__ import annotations

import math
from typing import Final

from PIL import ImageDraw

from rendering import tournament_style as style
from rendering.sprites import font
from rendering.text import fitted
from rendering.tournament_view import StandingsTable, TableLine, TournamentLabels

LINE_HEIGHT: Final = 32
HEAD_HEIGHT: Final = 30
MIN_NAME: Final = 150
_RANK: Final = 34
_COLUMN_GAP: Final = 14  # before each number column
_MAX_COLUMN: Final = 120  # a longer title or value is cut
_POINTS: Final = 2  # the points column, in bold


def table_height(table: StandingsTable) -> int:
    return style.HEADING_HEIGHT + HEAD_HEIGHT + max(1, len(table.lines)) * LINE_HEIGHT


def table_width(table: StandingsTable, labels: TournamentLabels) -> int:
    """The width ``table`` needs: its number columns as wide as their widest text, and
    :data:`MIN_NAME` for the names (a longer name is cut)."""
    return _RANK + 8 + MIN_NAME + 8 + sum(_widths(table, labels))


def _titles(table: StandingsTable, labels: TournamentLabels) -> list[str]:
    titles = [labels.played, labels.won_lost, labels.points, labels.difference]
    return [*titles, labels.buchholz] if table.buchholz else titles


def _values(table: StandingsTable, line: TableLine) -> list[str]:
    values = [line.played, line.won_lost, line.points, line.difference]
    return [*values, line.buchholz] if table.buchholz else values


def _widths(table: StandingsTable, labels: TournamentLabels) -> list[int]:
    size = style.TABLE_TEXT
    head = font(size, bold=False)
    widths = [head.getlength(title) for title in _titles(table, labels)]
    for line in table.lines:
        for column, value in enumerate(_values(table, line)):
            width = font(size, column == _POINTS).getlength(value)
            widths[column] = max(widths[column], width)
    return [_COLUMN_GAP + min(_MAX_COLUMN, math.ceil(width) + 1) for width in widths]


def draw_table(
    draw: ImageDraw.ImageDraw,
    left: int,
    top: int,
    width: int,
    table: StandingsTable,
    labels: TournamentLabels,
) -> None:
    """``table`` with its top left corner at (``left``, ``top``), ``width`` wide (at least
    :func:`table_width`)."""
    size = style.TABLE_TEXT
    draw.text(
        (left, top + 4),
        fitted(table.heading, style.HEADING_SIZE, width),
        font=font(style.HEADING_SIZE),
        fill=style.TEXT,
    )
    top += style.HEADING_HEIGHT
    widths = _widths(table, labels)
    rights = [left + width - sum(widths[column + 1 :]) for column in range(len(widths))]
    name_left = left + _RANK + 8
    name_room = left + width - sum(widths) - 8 - name_left
    y = top + HEAD_HEIGHT // 2
    head = font(size, bold=False)
    draw.text((left + _RANK, y), "#", font=head, fill=style.MUTED, anchor="rm")
    player = fitted(labels.player, size, name_room, bold=False)
    draw.text((name_left, y), player, font=head, fill=style.MUTED, anchor="lm")
    for column, title in enumerate(_titles(table, labels)):
        shown = fitted(title, size, widths[column] - _COLUMN_GAP, bold=False)
        draw.text((rights[column], y), shown, font=head, fill=style.MUTED, anchor="rm")
    rule = top + HEAD_HEIGHT - 2
    draw.line((left, rule, left + width, rule), fill=style.RULE, width=2)
    top += HEAD_HEIGHT
    for number, line in enumerate(table.lines):
        row = top + number * LINE_HEIGHT
        if number % 2 == 1:
            draw.rectangle(
                (left - 6, row, left + width + 6, row + LINE_HEIGHT - 1), fill=style.STRIPE
            )
        fill = style.MUTED if line.out else style.TEXT
        y = row + LINE_HEIGHT // 2
        rank = fitted(line.rank, size, _RANK)
        draw.text((left + _RANK, y), rank, font=font(size), fill=fill, anchor="rm")
        name = fitted(line.name, size, name_room, bold=False)
        draw.text((name_left, y), name, font=font(size, bold=False), fill=fill, anchor="lm")
        for column, value in enumerate(_values(table, line)):
            bold = column == _POINTS
            shown = fitted(value, size, widths[column] - _COLUMN_GAP, bold=bold)
            draw.text((rights[column], y), shown, font=font(size, bold), fill=fill, anchor="rm")
