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

from PIL import Image, ImageDraw

from rendering import tournament_style as style
from rendering.sprites import font
from rendering.stamps import stamp
from rendering.text import fitted
from rendering.theme import RGB
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
    image: Image.Image, left: int, top: int, part: BracketPart, labels: TournamentLabels
) -> None:
    """``part`` with its top left corner at (``left``, ``top``)."""
    draw = ImageDraw.Draw(image)
    draw.text(
        (left, top + 4),
        fitted(part.heading, style.HEADING_SIZE, bracket_size(part)[0]),
        font=font(style.HEADING_SIZE),
        fill=style.TEXT,
    )
    top += style.HEADING_HEIGHT
    body = top + ROUND_TITLE_HEIGHT
    placed = centres(part)
    boxes = _Boxes(image, draw, labels)
    for column, round_ in enumerate(part.rounds):
        x = left + column * (BOX_WIDTH + COLUMN_GAP)
        title = fitted(round_.title, style.ROUND_SIZE, BOX_WIDTH, bold=False)
        stamp(image, (x + 2, top), title, style.ROUND_SIZE, style.MUTED, bold=False)
        if column > 0:
            _join(draw, x, body, placed[column - 1], placed[column])
        for centre, match in zip(placed[column], round_.matches, strict=True):
            boxes.box(x, round(body + centre - BOX_HEIGHT / 2), match)


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


class _Boxes:
    """Draws the matches' boxes, their texts stamped (:mod:`rendering.stamps`)."""

    def __init__(
        self, image: Image.Image, draw: ImageDraw.ImageDraw, labels: TournamentLabels
    ) -> None:
        self.image = image
        self.draw = draw
        self.labels = labels

    def box(self, x: int, y: int, match: BracketMatch) -> None:
        draw = self.draw
        draw.rectangle((x, y, x + BOX_WIDTH, y + BOX_HEIGHT), fill=style.BOX, outline=style.RULE)
        self._entry(x, y, match.first)
        draw.line((x + 1, y + ROW_HEIGHT, x + BOX_WIDTH - 1, y + ROW_HEIGHT), fill=style.STRIPE)
        if not match.bye:
            self._entry(x, y + ROW_HEIGHT + 1, match.second)
            return
        room = BOX_WIDTH - _SEED_WIDTH - _INSET
        bye = fitted(self.labels.bye, style.NAME_SIZE, room, bold=False)
        centre_y = y + ROW_HEIGHT + 1 + ROW_HEIGHT // 2 + 1
        self._text(x + _SEED_WIDTH, centre_y, bye, style.NAME_SIZE, style.MUTED, False)

    def _entry(self, x: int, y: int, entry: Entry) -> None:
        centre_y = y + ROW_HEIGHT // 2 + 1
        if entry.winner:
            self.draw.rectangle(
                (x + 1, y + 1, x + BOX_WIDTH - 1, y + ROW_HEIGHT - 1), fill=style.TINT
            )
        if entry.seed:
            seed = str(entry.seed)
            right = x + _SEED_WIDTH - 5
            self._text(right, centre_y, seed, style.SEED_SIZE, style.MUTED, False, "rm")
        if not entry.name:
            undecided = self.labels.undecided
            self._text(x + _SEED_WIDTH, centre_y, undecided, style.NAME_SIZE, style.MUTED, False)
            return
        room = BOX_WIDTH - _SEED_WIDTH - _SCORE_WIDTH - _INSET
        name = fitted(entry.name, style.NAME_SIZE, room, bold=entry.winner)
        self._text(x + _SEED_WIDTH, centre_y, name, style.NAME_SIZE, style.TEXT, entry.winner)
        if entry.score:
            score = fitted(entry.score, style.NAME_SIZE, _SCORE_WIDTH, bold=entry.winner)
            right = x + BOX_WIDTH - _INSET
            self._text(right, centre_y, score, style.NAME_SIZE, style.TEXT, entry.winner, "rm")

    def _text(
        self, x: int, y: int, text: str, size: int, fill: RGB, bold: bool, anchor: str = "lm"
    ) -> None:
        stamp(self.image, (x, y), text, size, fill, bold, anchor)
