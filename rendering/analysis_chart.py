"""The picture of a match analysis: player 0's chance to win (the match, or the game in money
play) after each decision, the games, and the largest errors as dots in the erring player's
colour, each with its number from the analysis's list of errors.

Plain values in, PNG bytes out, like the board pictures: the same bundled font, the board's
wood and cream colours, a light panel that reads well on the dark and light themes of Discord
and Telegram. Every text comes from the caller (:class:`ChartLabels`); nothing here translates.

The shapes are drawn at twice the size and scaled down (smooth lines and dots); the texts are
drawn afterwards at the final size, so they stay crisp. :func:`draw_analysis_chart` is pure and
thread-safe, and the same input gives the same bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from typing import Final

from PIL import Image, ImageDraw

from rendering.labels import DEFAULT_LABELS
from rendering.palette import encode
from rendering.panel import FRAME, FRAME_EDGE, MUTED, PANEL, TEXT
from rendering.sprites import font
from rendering.text import clean, fitted
from rendering.theme import CLASSIC, RGB

MIN_WIDTH: Final = 320
MAX_WIDTH: Final = 2400
MIN_HEIGHT: Final = 200
MAX_HEIGHT: Final = 1600

_SCALE: Final = 2  # shapes are drawn at twice the size, then halved
_MAX_TEXT: Final = 400  # characters of a title or axis text kept before fitting

# Colours: the board's wood for the rim and the texts, a pale felt for the panel. The players
# are blue and orange, told apart in every kind of colour blindness; neither is the red of an
# "error", since both players' errors are marked.
_PLOT: Final[RGB] = (255, 253, 248)
_GRID: Final[RGB] = (232, 222, 204)
_AXIS: Final[RGB] = (196, 180, 158)
_EVEN: Final[RGB] = (160, 138, 114)  # the 50 % line
_SEPARATOR: Final[RGB] = (178, 156, 130)
_LINE: Final = CLASSIC.frame_edge
_PLAYERS: Final[tuple[RGB, RGB]] = ((30, 104, 186), (226, 118, 12))
_TINT: Final = 48  # of 255: how strongly the lead is shaded in the leader's colour
_DOT_RING: Final[RGB] = (255, 255, 255)


@dataclass(frozen=True)
class ChartError:
    """One marked error: at decision ``index`` (0-based, into the chances), by ``player``
    (0 or 1), who lost ``loss`` equity (> 0; the dot grows with it, up to a loss of 1).
    ``number`` is the error's number in the list beside the picture, written at its dot."""

    index: int
    player: int
    loss: float
    number: int | None = None


@dataclass(frozen=True)
class ChartLabels:
    """The chart's texts, translated by the caller. ``game`` and ``player`` are format strings
    with ``{number}`` (1-based); ``player`` names a player whose name has nothing drawable."""

    title: str  # e.g. "Match 12: alice vs bob"
    y_axis: str  # e.g. "alice's chance to win the match"
    x_axis: str  # e.g. "moves"
    game: str  # e.g. "Game {number}"
    player: str = DEFAULT_LABELS["player"]  # "Player {number}"


def draw_analysis_chart(
    win_chances: Sequence[float],
    game_starts: Sequence[int],
    errors: Sequence[ChartError],
    names: tuple[str, str],
    labels: ChartLabels,
    width: int = 900,
    height: int = 420,
) -> bytes:
    """The chart as PNG bytes of ``width`` × ``height`` pixels.

    ``win_chances`` are player 0's chances to win after each decision (of the match, or of
    the game in money play: ``labels.y_axis`` says which; clamped to 0..1, a NaN counts as
    0.5). ``game_starts`` are the indexes where games begin (the first
    is 0); ``errors`` are the dots to mark (those outside the chances are left out). Long or
    undrawable names and texts are shortened or cleaned, never refused.
    """
    return encode(
        chart_image(win_chances, game_starts, errors, names, labels, width=width, height=height)
    )


def chart_image(
    win_chances: Sequence[float],
    game_starts: Sequence[int],
    errors: Sequence[ChartError],
    names: tuple[str, str],
    labels: ChartLabels,
    width: int = 900,
    height: int = 420,
) -> Image.Image:
    """:func:`draw_analysis_chart` before encoding (an RGB image)."""
    if not (MIN_WIDTH <= width <= MAX_WIDTH and MIN_HEIGHT <= height <= MAX_HEIGHT):
        raise ValueError(
            f"the chart is {MIN_WIDTH} to {MAX_WIDTH} pixels wide "
            f"and {MIN_HEIGHT} to {MAX_HEIGHT} high"
        )
    chances = [_clamped(chance) for chance in win_chances]
    return _Chart(chances, _games(game_starts, len(chances)), width, height).draw(
        errors, names, labels
    )


def _clamped(value: float) -> float:
    if math.isnan(value):
        return 0.5
    return min(1.0, max(0.0, float(value)))


def _games(starts: Sequence[int], count: int) -> list[tuple[int, int, int]]:
    """(first index, end index, game number) of each game that has decisions. A start given
    twice (a game without decisions) keeps the later number; starts out of range are left
    out."""
    if not count:
        return []
    numbers: dict[int, int] = {}
    for position, start in enumerate(starts):
        if isinstance(start, int) and 0 <= start < count:
            numbers[start] = position + 1
    if 0 not in numbers:
        numbers[0] = 0  # decisions before the first start: a game without a caption
    firsts = sorted(numbers)
    ends = [*firsts[1:], count]
    return [(first, end, numbers[first]) for first, end in zip(firsts, ends, strict=True)]


def _formatted(template: str, fallback: str, number: int) -> str:
    try:
        return template.format(number=number)
    except (KeyError, IndexError, ValueError, AttributeError):
        return fallback.format(number=number)


def _fitted_text(text: str, size: int, max_width: int, bold: bool) -> str:
    """Like :func:`rendering.text.fitted`, for texts longer than a name (titles, axes)."""
    return _fitted_cut(text[:_MAX_TEXT], size, max_width, bold)


@lru_cache(maxsize=256)
def _fitted_cut(text: str, size: int, max_width: int, bold: bool) -> str:
    cleaned = "".join(_kept(char) for char in text)
    cleaned = " ".join(cleaned.split())
    face = font(size, bold)
    if face.getlength(cleaned) <= max_width:
        return cleaned
    low, high = 0, len(cleaned)
    while low < high:
        middle = (low + high + 1) // 2
        if face.getlength(cleaned[:middle].rstrip() + "…") <= max_width:
            low = middle
        else:
            high = middle - 1
    return cleaned[:low].rstrip() + "…" if low else ""


def _kept(char: str) -> str:
    """``char`` if the font draws it, else a space (the name cleaner decides)."""
    return char if char == " " or clean(char) == char else " "


class _Chart:
    """The layout for one size, then the drawing: shapes at twice the size, texts after."""

    def __init__(
        self, chances: list[float], games: list[tuple[int, int, int]], width: int, height: int
    ) -> None:
        self.chances = chances
        self.games = games
        self.width = width
        self.height = height
        s = min(width / 900, height / 420)
        self.s = s
        self.rim = max(3, round(7 * s))
        self.pad = round(self.rim + 16 * s)
        self.title_size = max(11, round(21 * s))
        self.small_size = max(9, round(13 * s))
        self.tick_size = max(8, round(12 * s))
        self.caption_size = max(8, round(11 * s))
        tick_width = font(self.tick_size, False).getlength("100%")
        self.title_y = self.pad + self.title_size * 0.55
        self.subtitle_y = self.title_y + self.title_size * 0.6 + 10 * s + self.small_size * 0.55
        self.left = round(self.pad + tick_width + 8 * s)
        self.right = round(width - self.pad)
        self.top = round(self.subtitle_y + self.small_size * 0.6 + 10 * s)
        self.bottom = round(height - self.pad - self.tick_size - 8 * s)
        self.strip = round(self.caption_size + 10 * s)  # room for the game captions
        self.y_full = self.top + self.strip
        self.legend_x = float(self.right)  # set by the legend's layout

    # --- coordinates ------------------------------------------------------------------------

    def x_of(self, boundary: float) -> float:
        """x of a place between decisions: 0 is the left edge, len(chances) the right."""
        count = max(1, len(self.chances))
        return self.left + (self.right - self.left) * boundary / count

    def y_of(self, chance: float) -> float:
        return self.bottom - (self.bottom - self.y_full) * chance

    def point(self, index: int) -> tuple[float, float]:
        return self.x_of(index + 0.5), self.y_of(self.chances[index])

    # --- drawing ----------------------------------------------------------------------------

    def draw(
        self, errors: Sequence[ChartError], names: tuple[str, str], labels: ChartLabels
    ) -> Image.Image:
        legend = self.legend_layout(names, labels)
        big = Image.new("RGB", (self.width * _SCALE, self.height * _SCALE), FRAME)
        shapes = ImageDraw.Draw(big)
        self.draw_frame(shapes)
        self.draw_grid(shapes)
        self.draw_lead(shapes)
        self.hline(shapes, self.y_of(0.5), _EVEN, dashed=True)
        self.draw_separators(shapes)
        self.draw_line(shapes)
        marked = self.marked(errors)
        self.draw_errors(shapes, marked)
        for colour, (x, y), _ in legend:
            self.dot(shapes, x, y, self.small_size * 0.4, colour)
        image = big.reduce(_SCALE)
        text = ImageDraw.Draw(image)
        self.draw_texts(text, labels)
        self.draw_numbers(text, marked)
        for _, (x, y), name in legend:
            text.text(
                (x + self.small_size * 0.4 + 5 * self.s, y),
                name,
                font=font(self.small_size),
                fill=TEXT,
                anchor="lm",
            )
        return image

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return (
            round(x0 * _SCALE),
            round(y0 * _SCALE),
            round(x1 * _SCALE) - 1,
            round(y1 * _SCALE) - 1,
        )

    def draw_frame(self, shapes: ImageDraw.ImageDraw) -> None:
        edge = max(1, round(1.5 * self.s * _SCALE))
        shapes.rectangle(self.box(0, 0, self.width, self.height), outline=FRAME_EDGE, width=edge)
        shapes.rounded_rectangle(
            self.box(self.rim, self.rim, self.width - self.rim, self.height - self.rim),
            radius=round(8 * self.s * _SCALE),
            fill=PANEL,
            outline=FRAME_EDGE,
            width=edge,
        )
        shapes.rectangle(self.box(self.left, self.top, self.right, self.bottom), fill=_PLOT)

    def hline(self, shapes: ImageDraw.ImageDraw, y: float, colour: RGB, dashed: bool) -> None:
        y2 = round(y * _SCALE)
        x0, x1 = self.left * _SCALE, self.right * _SCALE
        width = _SCALE
        if not dashed:
            shapes.line((x0, y2, x1, y2), fill=colour, width=width)
            return
        dash = round(6 * self.s * _SCALE)
        for start in range(x0, x1, 2 * dash):
            shapes.line((start, y2, min(start + dash, x1), y2), fill=colour, width=width)

    def draw_grid(self, shapes: ImageDraw.ImageDraw) -> None:
        for chance in (0.0, 0.25, 0.75, 1.0):
            self.hline(shapes, self.y_of(chance), _GRID, dashed=False)
        outline = self.box(self.left, self.top, self.right, self.bottom)
        shapes.rectangle(outline, outline=_AXIS, width=_SCALE)

    def game_points(self) -> list[list[tuple[float, float]]]:
        return [
            [(x * _SCALE, y * _SCALE) for x, y in map(self.point, range(first, end))]
            for first, end, _ in self.games
        ]

    def draw_lead(self, shapes: ImageDraw.ImageDraw) -> None:
        """Shade the area between the line and 50 %: blue where player 0 leads, orange where
        player 1 does (opaque, pre-blended colours: much faster than a mask)."""
        even = self.y_of(0.5) * _SCALE
        shades = [_blend(_PLOT, colour, _TINT / 255) for colour in _PLAYERS]
        for points in self.game_points():
            for player, area in _lead_areas(points, even):
                shapes.polygon(area, fill=shades[player])

    def draw_separators(self, shapes: ImageDraw.ImageDraw) -> None:
        for first, _, _ in self.games[1:]:
            x = round(self.x_of(first) * _SCALE)
            shapes.line(
                (x, self.top * _SCALE, x, self.bottom * _SCALE), fill=_SEPARATOR, width=_SCALE
            )

    def draw_line(self, shapes: ImageDraw.ImageDraw) -> None:
        width = max(2, round(2.4 * self.s * _SCALE))
        for points in self.game_points():
            if len(points) > 1:
                shapes.line(points, fill=_LINE, width=width, joint="curve")
            else:
                x, y = points[0]
                shapes.ellipse((x - width, y - width, x + width, y + width), fill=_LINE)

    def dot(
        self, shapes: ImageDraw.ImageDraw, x: float, y: float, radius: float, colour: RGB
    ) -> None:
        ring = max(1.0, 1.6 * self.s) * _SCALE
        r = radius * _SCALE
        cx, cy = x * _SCALE, y * _SCALE
        shapes.ellipse((cx - r - ring, cy - r - ring, cx + r + ring, cy + r + ring), fill=_DOT_RING)
        shapes.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)

    def marked(self, errors: Sequence[ChartError]) -> list[ChartError]:
        """The errors that fall on the chart, the largest first (so that a small dot beside a
        large one stays visible)."""
        inside = [
            error
            for error in errors
            if isinstance(error.index, int)
            and 0 <= error.index < len(self.chances)
            and error.player in (0, 1)
        ]
        return sorted(inside, key=lambda error: -_loss(error.loss))

    def radius(self, error: ChartError) -> float:
        return (3.0 + 10.0 * math.sqrt(_loss(error.loss))) * self.s

    def draw_errors(self, shapes: ImageDraw.ImageDraw, marked: Sequence[ChartError]) -> None:
        for error in marked:
            x, y = self.point(error.index)
            self.dot(shapes, x, y, self.radius(error), _PLAYERS[error.player])

    def draw_numbers(self, text: ImageDraw.ImageDraw, marked: Sequence[ChartError]) -> None:
        """Each error's number above its dot (below it when the dot is near the top), in the
        player's colour on a white halo, so it reads over the line and the shading."""
        face = font(self.small_size)
        halo = max(1, round(2.5 * self.s))
        for error in marked:
            if not isinstance(error.number, int) or error.number < 0:
                continue
            x, y = self.point(error.index)
            offset = self.radius(error) + (1.6 + 1.5) * self.s + halo + self.small_size * 0.6
            above = y - offset
            label_y = above if above - self.small_size * 0.5 >= self.y_full else y + offset
            text.text(
                (x, label_y),
                str(error.number),
                font=face,
                fill=_PLAYERS[error.player],
                anchor="mm",
                stroke_width=halo,
                stroke_fill=_DOT_RING,
            )

    # --- texts ------------------------------------------------------------------------------

    def legend_layout(
        self, names: tuple[str, str], labels: ChartLabels
    ) -> list[tuple[RGB, tuple[float, float], str]]:
        """Each player's dot (centre) and name, right-aligned on the title's line."""
        size = self.small_size
        face = font(size)
        widest = round((self.right - self.pad) * 0.22)
        shown = []
        for player, name in enumerate((*names, "", "")[:2]):
            text = fitted(name[:_MAX_TEXT], size, widest)
            if not text:
                number = player + 1
                text = fitted(
                    _formatted(labels.player, DEFAULT_LABELS["player"], number), size, widest
                )
            shown.append(text)
        x = float(self.right)
        entries: list[tuple[RGB, tuple[float, float], str]] = []
        for player in (1, 0):
            x -= face.getlength(shown[player])
            x -= self.small_size * 0.4 + 5 * self.s
            entries.append((_PLAYERS[player], (x, self.title_y), shown[player]))
            x -= self.small_size * 0.4 + 16 * self.s
        self.legend_x = x
        return entries[::-1]

    def draw_texts(self, text: ImageDraw.ImageDraw, labels: ChartLabels) -> None:
        room = round(self.legend_x - self.pad - 12 * self.s)
        title = _fitted_text(labels.title, self.title_size, room, True)
        text.text(
            (self.pad, self.title_y), title, font=font(self.title_size), fill=TEXT, anchor="lm"
        )
        axis = _fitted_text(labels.y_axis, self.small_size, self.right - self.pad, False)
        text.text(
            (self.pad, self.subtitle_y),
            axis,
            font=font(self.small_size, False),
            fill=MUTED,
            anchor="lm",
        )
        ticks = font(self.tick_size, False)
        for chance in (0.0, 0.25, 0.5, 0.75, 1.0):
            text.text(
                (self.left - 6 * self.s, self.y_of(chance)),
                f"{round(chance * 100)}%",
                font=ticks,
                fill=MUTED,
                anchor="rm",
            )
        self.draw_x_axis(text, labels)
        self.draw_captions(text, labels)

    def draw_x_axis(self, text: ImageDraw.ImageDraw, labels: ChartLabels) -> None:
        ticks = font(self.tick_size, False)
        y = self.bottom + 5 * self.s
        axis = _fitted_text(
            labels.x_axis, self.tick_size, round((self.right - self.left) / 3), False
        )
        axis_left = self.right - ticks.getlength(axis)
        text.text((self.right, y), axis, font=ticks, fill=MUTED, anchor="ra")
        count = len(self.chances)
        if not count:
            return
        step = _tick_step(count, (self.right - self.left) / (60 * self.s))
        for boundary in range(0, count + 1, step):
            x = self.x_of(boundary)
            label = str(boundary)
            half = ticks.getlength(label) / 2
            if x + half > axis_left - 10 * self.s:
                break
            text.text((max(x, self.left + half), y), label, font=ticks, fill=MUTED, anchor="ma")

    def draw_captions(self, text: ImageDraw.ImageDraw, labels: ChartLabels) -> None:
        face = font(self.caption_size)
        y = self.top + self.strip / 2
        for first, end, number in self.games:
            if number < 1:
                continue
            room = self.x_of(end) - self.x_of(first) - 10 * self.s
            for caption in (_formatted(labels.game, "Game {number}", number), str(number)):
                caption = _fitted_text(caption, self.caption_size, 10_000, True)
                if face.getlength(caption) <= room:
                    text.text(
                        (self.x_of(first) + 5 * self.s, y),
                        caption,
                        font=face,
                        fill=MUTED,
                        anchor="lm",
                    )
                    break


def _loss(loss: float) -> float:
    """The loss that sizes a dot: 0..1 (a NaN counts as 0)."""
    if math.isnan(loss):
        return 0.0
    return min(1.0, max(0.0, float(loss)))


def _blend(base: RGB, colour: RGB, share: float) -> RGB:
    return (
        round(base[0] + (colour[0] - base[0]) * share),
        round(base[1] + (colour[1] - base[1]) * share),
        round(base[2] + (colour[2] - base[2]) * share),
    )


Point = tuple[float, float]


def _lead_areas(points: list[Point], even: float) -> list[tuple[int, list[Point]]]:
    """The polygons between a line and the height ``even``, each with the player who leads
    there (0 above, 1 below; y grows downwards). The line is split where it crosses or
    touches that height."""
    areas: list[tuple[int, list[Point]]] = []
    run = [points[0]]
    for p, q in pairwise(points):
        if (p[1] - even) * (q[1] - even) < 0:
            share = (even - p[1]) / (q[1] - p[1])
            crossing = (p[0] + share * (q[0] - p[0]), even)
            run.append(crossing)
            areas.append(_area(run, even))
            run = [crossing]
        run.append(q)
        if q[1] == even:  # touching the line also ends a run: the next may change sides
            areas.append(_area(run, even))
            run = [q]
    areas.append(_area(run, even))
    return [area for area in areas if area[0] >= 0]


def _area(run: list[Point], even: float) -> tuple[int, list[Point]]:
    """The polygon under one run that stays on one side (-1 when it lies on the line)."""
    heights = [y for _, y in run if y != even]
    if not heights or len(run) < 2:
        return -1, []
    return (0 if heights[0] < even else 1), [(run[0][0], even), *run, (run[-1][0], even)]


def _tick_step(count: int, most: float) -> int:
    """A round step (1, 2, 5, 10, 20, 50, ...) giving at most ``most`` ticks over ``count``."""
    magnitude = 1
    while True:
        for factor in (1, 2, 5):
            step = factor * magnitude
            if count / step <= max(1.0, most):
                return step
        magnitude *= 10
