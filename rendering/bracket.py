"""A bracket drawn in columns: a column a round, a box a match with its two players (seed,
name, score; the winner bold on a tint), lines joining each match to the one its winner plays
next.

The boxes of the first round (or of the round with most matches) are spread evenly; a round
with half the matches of the one before sits each box between the two it joins, one with as
many beside its feeder. So a knockout draws its usual tree, and a losers' bracket, whose rounds
alternate between taking the winners' losers and halving, draws straight and joined steps.
"""

from __future__ import annotations

from typing import Final

from PIL import ImageDraw

from rendering import tournament_style as style
from rendering.sprites import font
from rendering.text import fitted
from rendering.tournament_view import BracketMatch, BracketPart, Entry, TournamentLabels

BOX_WIDTH: Final = 210
ROW_HEIGHT: Final = 24  # a player's line in a box
BOX_HEIGHT: Final = 2 * ROW_HEIGHT + 1
BOX_GAP: Final = 10  # between two boxes of the first round
COLUMN_GAP: Final = 30  # room for the joining lines
ROUND_TITLE_HEIGHT: Final = 24
_SEED_WIDTH: Final = 26
_SCORE_WIDTH: Final = 28
_INSET: Final = 6


def bracket_size(part: BracketPart) -> tuple[int, int]:
    """Width and height of ``part`` drawn (its heading included)."""
    columns = len(part.rounds)
    width = columns * BOX_WIDTH + max(0, columns - 1) * COLUMN_GAP
    return width, style.HEADING_HEIGHT + ROUND_TITLE_HEIGHT + _body_height(part)


def _body_height(part: BracketPart) -> int:
    most = max((len(round_.matches) for round_ in part.rounds), default=1)
    return max(1, most) * (BOX_HEIGHT + BOX_GAP) - BOX_GAP


def centres(part: BracketPart) -> list[list[float]]:
    """The vertical centre of every box, round by round, from the body's top."""
    pitch = BOX_HEIGHT + BOX_GAP
    height = _body_height(part) + BOX_GAP
    placed: list[list[float]] = []
    for number, round_ in enumerate(part.rounds):
        count = len(round_.matches)
        before = placed[-1] if placed else []
        joined = _joined(len(before), count)
        if joined == "pairs":
            placed.append([(before[2 * i] + before[2 * i + 1]) / 2 for i in range(count)])
        elif joined == "straight" and number > 0:
            placed.append(list(before))
        elif count * pitch >= height - 1:
            placed.append([i * pitch + BOX_HEIGHT / 2 for i in range(count)])
        else:
            placed.append([(i + 0.5) * height / count - BOX_GAP / 2 for i in range(count)])
    return placed


def _joined(before: int, count: int) -> str:
    if before and before == 2 * count:
        return "pairs"
    if before and before == count:
        return "straight"
    return "apart"


def draw_bracket(
    draw: ImageDraw.ImageDraw, left: int, top: int, part: BracketPart, labels: TournamentLabels
) -> None:
    """``part`` with its top left corner at (``left``, ``top``)."""
    draw.text(
        (left, top + 4),
        fitted(part.heading, style.HEADING_SIZE, bracket_size(part)[0]),
        font=font(style.HEADING_SIZE),
        fill=style.TEXT,
    )
    top += style.HEADING_HEIGHT
    body = top + ROUND_TITLE_HEIGHT
    placed = centres(part)
    round_face = font(style.ROUND_SIZE, bold=False)
    for column, round_ in enumerate(part.rounds):
        x = left + column * (BOX_WIDTH + COLUMN_GAP)
        title = fitted(round_.title, style.ROUND_SIZE, BOX_WIDTH, bold=False)
        draw.text((x + 2, top), title, font=round_face, fill=style.MUTED)
        if column > 0:
            _join(draw, x, body, placed[column - 1], placed[column])
        for centre, match in zip(placed[column], round_.matches, strict=True):
            _box(draw, x, round(body + centre - BOX_HEIGHT / 2), match, labels)


def _join(
    draw: ImageDraw.ImageDraw, x: int, body: int, before: list[float], now: list[float]
) -> None:
    joined = _joined(len(before), len(now))
    if joined == "apart":
        return
    middle = x - COLUMN_GAP // 2
    for number, centre in enumerate(now):
        target = round(body + centre)
        feeders = before[2 * number : 2 * number + 2] if joined == "pairs" else [before[number]]
        for feeder in feeders:
            source = round(body + feeder)
            draw.line(
                [(x - COLUMN_GAP, source), (middle, source), (middle, target), (x, target)],
                fill=style.LINE,
                width=2,
            )


def _box(
    draw: ImageDraw.ImageDraw, x: int, y: int, match: BracketMatch, labels: TournamentLabels
) -> None:
    draw.rectangle((x, y, x + BOX_WIDTH, y + BOX_HEIGHT), fill=style.BOX, outline=style.RULE)
    _entry(draw, x, y, match.first, labels)
    draw.line((x + 1, y + ROW_HEIGHT, x + BOX_WIDTH - 1, y + ROW_HEIGHT), fill=style.STRIPE)
    if match.bye:
        face = font(style.NAME_SIZE, bold=False)
        bye = fitted(labels.bye, style.NAME_SIZE, BOX_WIDTH - _SEED_WIDTH - _INSET, bold=False)
        centre_y = y + ROW_HEIGHT + 1 + ROW_HEIGHT // 2
        draw.text((x + _SEED_WIDTH, centre_y), bye, font=face, fill=style.MUTED, anchor="lm")
    else:
        _entry(draw, x, y + ROW_HEIGHT + 1, match.second, labels)


def _entry(
    draw: ImageDraw.ImageDraw, x: int, y: int, entry: Entry, labels: TournamentLabels
) -> None:
    centre_y = y + ROW_HEIGHT // 2 + 1
    if entry.winner:
        draw.rectangle((x + 1, y + 1, x + BOX_WIDTH - 1, y + ROW_HEIGHT - 1), fill=style.TINT)
    if entry.seed:
        seed_face = font(style.SEED_SIZE, bold=False)
        draw.text(
            (x + _SEED_WIDTH - 5, centre_y),
            str(entry.seed),
            font=seed_face,
            fill=style.MUTED,
            anchor="rm",
        )
    room = BOX_WIDTH - _SEED_WIDTH - _SCORE_WIDTH - _INSET
    if not entry.name:
        face = font(style.NAME_SIZE, bold=False)
        draw.text(
            (x + _SEED_WIDTH, centre_y), labels.undecided, font=face, fill=style.MUTED, anchor="lm"
        )
        return
    name = fitted(entry.name, style.NAME_SIZE, room, bold=entry.winner)
    face = font(style.NAME_SIZE, bold=entry.winner)
    draw.text((x + _SEED_WIDTH, centre_y), name, font=face, fill=style.TEXT, anchor="lm")
    if entry.score:
        score = fitted(entry.score, style.NAME_SIZE, _SCORE_WIDTH, bold=entry.winner)
        draw.text(
            (x + BOX_WIDTH - _INSET, centre_y), score, font=face, fill=style.TEXT, anchor="rm"
        )
