"""The picture of a leaderboard: rank, player, rating and experience, ten lines and the asking
player's own line, in the board's style.

Plain values in, PNG bytes out, like the board and the analysis chart: the bundled font, the
board's wooden frame around a light panel that reads well on Discord's and Telegram's dark and
light themes. Every text comes from the caller, numbers already written the way the reader's
language writes them; nothing here translates. The first three ranks get the colours of
medals; the asking player's line is tinted. :func:`draw_leaderboard` is pure and thread-safe,
and the same input gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from rendering.palette import encode
from rendering.panel import FRAME, FRAME_EDGE, MUTED, PANEL, RULE, STRIPE, TEXT, TINT
from rendering.sprites import font
from rendering.text import fitted
from rendering.theme import RGB

WIDTH: Final = 640
MAX_LINES: Final = 10  # lines beyond these are left out

_RIM: Final = 14
_PADDING: Final = 22
_TITLE_SIZE: Final = 26
_HEAD_SIZE: Final = 15
_LINE_SIZE: Final = 20
_LINE_HEIGHT: Final = 40
_HEAD_HEIGHT: Final = 30
_TITLE_HEIGHT: Final = 48
_GAP: Final = 14  # before the asking player's own line when it is not among the ten

_MEDALS: Final[tuple[RGB, RGB, RGB]] = ((212, 160, 23), (160, 166, 174), (184, 115, 51))

# Column edges as shares of the panel's inner width: rank (right-aligned), name, rating
# (right-aligned), experience (right-aligned).
_RANK_RIGHT: Final = 0.09
_NAME_LEFT: Final = 0.13
_NAME_RIGHT: Final = 0.62
_RATING_RIGHT: Final = 0.80
_EXPERIENCE_RIGHT: Final = 1.0


@dataclass(frozen=True)
class LeaderboardLine:
    """One player's line, every value written as it should be shown."""

    rank: str
    name: str
    rating: str
    experience: str
    own: bool = False  # the asking player's line: tinted
    place: int = 0  # 1 to 3 get a medal's colour


@dataclass(frozen=True)
class LeaderboardLabels:
    title: str
    player: str = "Player"
    rating: str = "Rating"
    experience: str = "Experience"
    empty: str = "Nobody has played enough rated matches yet."


def draw_leaderboard(
    lines: Sequence[LeaderboardLine],
    labels: LeaderboardLabels,
    own: LeaderboardLine | None = None,
) -> bytes:
    """The leaderboard as PNG bytes, ``WIDTH`` pixels wide: ``lines`` (at most ten are
    drawn), then ``own`` under a gap when the asking player is not among them."""
    return encode(leaderboard_image(lines, labels, own))


def leaderboard_image(
    lines: Sequence[LeaderboardLine],
    labels: LeaderboardLabels,
    own: LeaderboardLine | None = None,
) -> Image.Image:
    """:func:`draw_leaderboard` before encoding (an RGB image)."""
    shown = list(lines[:MAX_LINES])
    body = max(1, len(shown)) * _LINE_HEIGHT + (_GAP + _LINE_HEIGHT if own else 0)
    height = 2 * _RIM + 2 * _PADDING + _TITLE_HEIGHT + _HEAD_HEIGHT + body
    image = Image.new("RGB", (WIDTH, height), FRAME)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH - 1, height - 1), outline=FRAME_EDGE, width=3)
    draw.rectangle((_RIM, _RIM, WIDTH - 1 - _RIM, height - 1 - _RIM), fill=PANEL)
    table = _Table(draw, _RIM + _PADDING, WIDTH - _RIM - _PADDING)
    top = _RIM + _PADDING
    draw.text(
        (table.left, top),
        fitted(labels.title, _TITLE_SIZE, table.width),
        font=font(_TITLE_SIZE),
        fill=TEXT,
    )
    top += _TITLE_HEIGHT
    table.heading(top, labels)
    top += _HEAD_HEIGHT
    if not shown:
        draw.text(
            (table.left, top + 10),
            fitted(labels.empty, _LINE_SIZE - 2, table.width, bold=False),
            font=font(_LINE_SIZE - 2, bold=False),
            fill=MUTED,
        )
    for number, line in enumerate(shown):
        table.line(top + number * _LINE_HEIGHT, line, stripe=number % 2 == 1)
    if own is not None:
        table.line(top + max(1, len(shown)) * _LINE_HEIGHT + _GAP, own, stripe=False)
    return image


class _Table:
    def __init__(self, draw: ImageDraw.ImageDraw, left: int, right: int) -> None:
        self.draw = draw
        self.left = left
        self.width = right - left

    def _x(self, share: float) -> int:
        return self.left + round(self.width * share)

    def _right(self, text: str, share: float, y: int, size: int, bold: bool, fill: RGB) -> None:
        face = font(size, bold)
        self.draw.text((self._x(share) - face.getlength(text), y), text, font=face, fill=fill)

    def heading(self, top: int, labels: LeaderboardLabels) -> None:
        face = font(_HEAD_SIZE, bold=False)
        y = top + 6
        self._right("#", _RANK_RIGHT, y, _HEAD_SIZE, False, MUTED)
        name_width = self._x(_NAME_RIGHT) - self._x(_NAME_LEFT)
        player = fitted(labels.player, _HEAD_SIZE, name_width, bold=False)
        self.draw.text((self._x(_NAME_LEFT), y), player, font=face, fill=MUTED)
        column = self._x(_RATING_RIGHT) - self._x(_NAME_RIGHT) - 8
        rating = fitted(labels.rating, _HEAD_SIZE, column, bold=False)
        self._right(rating, _RATING_RIGHT, y, _HEAD_SIZE, False, MUTED)
        column = self._x(_EXPERIENCE_RIGHT) - self._x(_RATING_RIGHT) - 8
        experience = fitted(labels.experience, _HEAD_SIZE, column, bold=False)
        self._right(experience, _EXPERIENCE_RIGHT, y, _HEAD_SIZE, False, MUTED)
        bottom = top + _HEAD_HEIGHT - 2
        self.draw.line((self.left, bottom, self.left + self.width, bottom), fill=RULE, width=2)

    def line(self, top: int, line: LeaderboardLine, stripe: bool) -> None:
        background = TINT if line.own else STRIPE if stripe else None
        if background is not None:
            self.draw.rectangle(
                (self.left - 6, top, self.left + self.width + 6, top + _LINE_HEIGHT - 1),
                fill=background,
            )
        y = top + (_LINE_HEIGHT - _LINE_SIZE) // 2 - 1
        if 1 <= line.place <= 3:
            radius = _LINE_HEIGHT // 2 - 7
            centre_x, centre_y = self._x(_RANK_RIGHT) - radius - 2, top + _LINE_HEIGHT // 2
            self.draw.ellipse(
                (centre_x - radius, centre_y - radius, centre_x + radius, centre_y + radius),
                fill=_MEDALS[line.place - 1],
            )
            face = font(_LINE_SIZE - 4)
            rank = fitted(line.rank, _LINE_SIZE - 4, 2 * radius)
            self.draw.text((centre_x, centre_y), rank, font=face, fill=(255, 255, 255), anchor="mm")
        else:
            rank = fitted(line.rank, _LINE_SIZE, self._x(_RANK_RIGHT) - self.left)
            self._right(rank, _RANK_RIGHT, y, _LINE_SIZE, True, TEXT)
        name_width = self._x(_NAME_RIGHT) - self._x(_NAME_LEFT) - 8
        name = fitted(line.name, _LINE_SIZE, name_width, bold=line.own)
        self.draw.text((self._x(_NAME_LEFT), y), name, font=font(_LINE_SIZE, line.own), fill=TEXT)
        column = self._x(_RATING_RIGHT) - self._x(_NAME_RIGHT) - 8
        rating = fitted(line.rating, _LINE_SIZE, column)
        self._right(rating, _RATING_RIGHT, y, _LINE_SIZE, True, TEXT)
        column = self._x(_EXPERIENCE_RIGHT) - self._x(_RATING_RIGHT) - 8
        experience = fitted(line.experience, _LINE_SIZE, column, bold=False)
        self._right(experience, _EXPERIENCE_RIGHT, y, _LINE_SIZE, False, MUTED)
