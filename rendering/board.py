"""Compose a board picture: the cached empty board, then checkers, dice, cube, highlights and
the two player bands, each a mark (:mod:`rendering.marks`) drawn in order on a copy of the
board; encode as PNG in a palette chosen once per theme, size and variant
(:mod:`rendering.palette`). (An animation compares two frames' marks to draw only what changed.)

:func:`render_board` is pure and thread-safe: it only reads cached images and draws on its own
copy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache, partial
from typing import Final

from PIL import Image

from gammon import Variant
from gammon.clock_setting import clock_face
from gammon.flow import MatchState
from gammon.position import mirror_point
from rendering.background import board_background
from rendering.geometry import VISIBLE_STACK, Geometry, geometry
from rendering.labels import DEFAULT_LABELS, label
from rendering.marks import (
    Colour,
    Mark,
    PolygonMark,
    RoundedRectangleMark,
    SpriteMark,
    TextMark,
    draw_marks,
    text_font,
)
from rendering.palette import encode_in_palette, shared_palette
from rendering.palette_samples import SAMPLE_NAMES, palette_samples
from rendering.palette_store import palette_key, stored_palette
from rendering.sprites import checker, cube, die, ring
from rendering.text import clean, fitted, shrunk
from rendering.theme import DEFAULT_THEME, THEMES, Theme
from rendering.view import BoardView, LastPlay

DEFAULT_WIDTH: Final = 960
MIN_WIDTH: Final = 480
MAX_WIDTH: Final = 2400
# In checker diameters: a name in a band is cut to the room the band's other texts leave,
# but to no less than the least and no more than the most.
_NAME_LEAST: Final = 3.2
_NAME_MOST: Final = 5.6
_SMALLEST_TEXT: Final = 0.44  # a band's right text is set down to this size before it is cut


def render_board(
    state: MatchState | BoardView,
    *,
    perspective: int | None = None,
    theme: str | Theme = DEFAULT_THEME,
    size: int = DEFAULT_WIDTH,
    names: Sequence[str] = ("", ""),
    last_play: LastPlay | None = None,
    labels: Mapping[str, str] = DEFAULT_LABELS,
) -> bytes:
    """The board as PNG bytes, ``size`` pixels wide (the height follows, about 0.88 of it).

    ``perspective`` is the player whose home is drawn at the bottom right (default: the player
    to act). ``names`` are players 0 and 1 (empty: "Player 1", "Player 2"). ``last_play`` is
    highlighted: where its checkers came from, where they went, and any hit.
    """
    view = state if isinstance(state, BoardView) else BoardView.from_state(state)
    chosen = THEMES[theme] if isinstance(theme, str) else theme
    image = render_image(
        view,
        perspective=perspective,
        theme=chosen,
        size=size,
        names=names,
        last_play=last_play,
        labels=labels,
    )
    return encode_in_palette(image, board_palette(chosen, size, view.variant))


@lru_cache(maxsize=16)
def board_palette(theme: Theme, size: int, variant: Variant, colours: int = 256) -> Image.Image:
    """The palette of ``colours`` every ``variant`` board of ``theme`` at ``size`` is encoded
    in: the one stored ahead of time (:mod:`rendering.palette_store`), else chosen now by
    :func:`choose_palette`. A game's animation takes one of 127 colours at its own width
    (:mod:`rendering.replay`)."""
    stored = stored_palette(palette_key(theme, size, variant, colours))
    return stored if stored is not None else choose_palette(theme, size, variant, colours)


def choose_palette(theme: Theme, size: int, variant: Variant, colours: int = 256) -> Image.Image:
    """The palette chosen from boards that show every kind of mark
    (:mod:`rendering.palette_samples`)."""
    samples = [
        render_image(view, theme=theme, size=size, names=SAMPLE_NAMES, last_play=play)
        for view, play in palette_samples(variant)
    ]
    return shared_palette(samples, colours)


def render_image(
    state: MatchState | BoardView,
    *,
    perspective: int | None = None,
    theme: str | Theme = DEFAULT_THEME,
    size: int = DEFAULT_WIDTH,
    names: Sequence[str] = ("", ""),
    last_play: LastPlay | None = None,
    labels: Mapping[str, str] = DEFAULT_LABELS,
) -> Image.Image:
    """:func:`render_board` before encoding (an RGB image)."""
    background, marks = render_marks(
        state,
        perspective=perspective,
        theme=theme,
        size=size,
        names=names,
        last_play=last_play,
        labels=labels,
    )
    canvas = background.copy()
    draw_marks(canvas, marks)
    return canvas


def render_marks(
    state: MatchState | BoardView,
    *,
    perspective: int | None = None,
    theme: str | Theme = DEFAULT_THEME,
    size: int = DEFAULT_WIDTH,
    names: Sequence[str] = ("", ""),
    last_play: LastPlay | None = None,
    labels: Mapping[str, str] = DEFAULT_LABELS,
) -> tuple[Image.Image, list[Mark]]:
    """:func:`render_image` as the empty board (shared: never draw on it) and the marks to
    draw on a copy of it, in order."""
    view = state if isinstance(state, BoardView) else BoardView.from_state(state)
    chosen = THEMES[theme] if isinstance(theme, str) else theme
    if not MIN_WIDTH <= size <= MAX_WIDTH:
        raise ValueError(f"size (the width in pixels) must be {MIN_WIDTH} to {MAX_WIDTH}")
    if perspective is None:
        perspective = view.turn if view.turn is not None else (view.on_roll or 0)
    if perspective not in (0, 1):
        raise ValueError("perspective is player 0 or 1")
    full_names = tuple(
        names[player]
        if player < len(names) and names[player].strip()
        else label(labels, "player", number=player + 1)
        for player in (0, 1)
    )
    background = board_background(chosen, size, view.variant)
    painter = _Painter(background.width, view, chosen, perspective, full_names, labels, last_play)
    painter.paint()
    return background, painter.marks


class _Painter:
    """Draws one view as marks on the empty board; the viewer's home is at the bottom right."""

    def __init__(
        self,
        width: int,
        view: BoardView,
        theme: Theme,
        viewer: int,
        names: tuple[str, ...],
        labels: Mapping[str, str],
        last_play: LastPlay | None,
    ) -> None:
        self.last_play = last_play
        self.marks: list[Mark] = []
        self.view = view
        self.theme = theme
        self.viewer = viewer
        self.names = names
        self.labels = labels
        self.geo: Geometry = geometry(width)
        self.d = round(self.geo.u * 0.96)

    # --- coordinates -------------------------------------------------------------------

    def viewer_point(self, player: int, point: int) -> int:
        """The viewer's number for ``player``'s point 1..24."""
        if player == self.viewer:
            return point
        return mirror_point(point, self.view.variant)

    def is_light(self, player: int) -> bool:
        return player == self.view.light

    # --- painting ----------------------------------------------------------------------

    def paint(self) -> None:
        for player in (0, 1):
            self.paint_points(player)
            if self.view.variant is Variant.BACKGAMMON:
                self.paint_bar(player)
            self.paint_tray(player)
        self.paint_cube()
        self.paint_dice()
        if self.last_play is not None:
            self.paint_last_play(self.last_play)
        self.paint_band(1 - self.viewer, top=True)
        self.paint_band(self.viewer, top=False)

    def paste(self, sprite: Image.Image, centre: tuple[float, float]) -> None:
        x = round(centre[0] - sprite.width / 2)
        y = round(centre[1] - sprite.height / 2)
        self.marks.append(SpriteMark(sprite, (x, y)))

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        size: int,
        fill: Colour,
        anchor: str,
        bold: bool = True,
    ) -> None:
        self.marks.append(TextMark(xy, text, text_font(size, bold), fill, anchor))

    def count_label(self, centre: tuple[float, float], count: int, light: bool) -> None:
        colour = self.theme.label_on_light if light else self.theme.label_on_dark
        self.text(centre, str(count), self.geo.text_size, colour, "mm")

    def stack_position(self, point: int, index: int) -> tuple[float, float]:
        return self.geo.stack_centre(point, min(index, VISIBLE_STACK - 1))

    def paint_points(self, player: int) -> None:
        side = self.view.sides[player]
        light = self.is_light(player)
        sprite = checker(self.theme, light, self.d)
        for point in range(1, 25):
            count = side[point]
            if not count:
                continue
            where = self.viewer_point(player, point)
            for index in range(min(count, VISIBLE_STACK)):
                self.paste(sprite, self.geo.stack_centre(where, index))
            if count > VISIBLE_STACK:
                self.count_label(self.geo.stack_centre(where, VISIBLE_STACK - 1), count, light)

    def paint_bar(self, player: int) -> None:
        count = self.view.sides[player][25]
        if not count:
            return
        upper = player == self.viewer
        light = self.is_light(player)
        sprite = checker(self.theme, light, self.d)
        shown = min(count, 3)
        for index in range(shown):
            self.paste(sprite, self.geo.bar_centre(upper, index))
        if count > shown:
            self.count_label(self.geo.bar_centre(upper, shown - 1), count, light)

    def tray_box(self, player: int) -> tuple[int, int, int, int]:
        viewer = player == self.viewer
        left = self.view.variant is Variant.LONG_NARDY and not viewer
        return self.geo.tray_box(upper=not viewer, left=left)

    def paint_tray(self, player: int) -> None:
        count = self.view.sides[player][0]
        if not count:
            return
        box = self.tray_box(player)
        light = self.is_light(player)
        face = self.theme.light_checker if light else self.theme.dark_checker
        rim = self.theme.light_rim if light else self.theme.dark_rim
        slab = (box[3] - box[1]) / 15
        from_bottom = player == self.viewer
        for index in range(count):
            if from_bottom:
                y1 = box[3] - index * slab
                y0 = y1 - slab
            else:
                y0 = box[1] + index * slab
                y1 = y0 + slab
            self.marks.append(
                RoundedRectangleMark(
                    (box[0] + 2, round(y0) + 1, box[2] - 2, round(y1) - 1),
                    max(1, round(slab / 3)),
                    face,
                    rim,
                )
            )
        filled_edge = box[3] - count * slab if from_bottom else box[1] + count * slab
        text_y = filled_edge - 0.4 * self.geo.u if from_bottom else filled_edge + 0.4 * self.geo.u
        if count == 15:
            text_y = (box[1] + box[3]) / 2
            self.count_label(((box[0] + box[2]) / 2, text_y), count, light)
            return
        self.text(
            ((box[0] + box[2]) / 2, text_y),
            str(count),
            self.geo.text_size,
            self.theme.text,
            "mm",
        )

    def paint_cube(self) -> None:
        view = self.view
        if view.variant is Variant.LONG_NARDY or not view.cube_visible:
            return
        size = self.d  # as big as a checker: its number as big as the other words
        panel = self.geo.left_panel
        x = (panel[0] + panel[2]) / 2
        if view.double_offered and view.on_roll is None and view.turn is not None:
            doubler = 1 - view.turn
            offered = cube(self.theme, view.cube_value * 2, size, True)
            self.paste(offered, self.geo.dice_centre(doubler == self.viewer, 0, 1))
            if view.cube_owner is None:
                return
        value = view.cube_value
        shown = 64 if value == 1 and view.cube_owner is None else value
        sprite = cube(self.theme, shown, size, False)
        if view.cube_owner is None:
            y = self.geo.middle
        elif view.cube_owner == self.viewer:
            y = panel[3] - 0.7 * self.geo.u
        else:
            y = panel[1] + 0.7 * self.geo.u
        if view.double_offered and view.cube_owner is not None:
            return  # the owner's cube is on the board as the offer
        self.paste(sprite, (x, y))

    def die_sprite(self, player: int, value: int) -> Image.Image:
        size = round(0.78 * self.geo.u)
        if self.is_light(player):
            return die(self.theme.die_light, self.theme.die_light_pip, value, size)
        return die(self.theme.die_dark, self.theme.die_dark_pip, value, size)

    def paint_dice(self) -> None:
        view = self.view
        if view.opening_dice is not None:
            for player in (0, 1):
                sprite = self.die_sprite(player, view.opening_dice[player])
                self.paste(sprite, self.geo.dice_centre(player == self.viewer, 0, 1))
            return
        if view.dice is None or view.on_roll is None:
            return
        right = view.on_roll == self.viewer
        for index, value in enumerate(view.dice):
            self.paste(self.die_sprite(view.on_roll, value), self.geo.dice_centre(right, index, 2))

    def paint_last_play(self, play: LastPlay) -> None:
        """Ghost rings where the moved checkers stood; rings on where they landed; hits in the
        hit colour, on the landing point and on the hit checker waiting on the bar."""
        mover = play.mover
        side = self.view.sides[mover]
        ghost_ring = ring(self.theme.accent, self.d, 0.06)
        landed_ring = ring(self.theme.accent, self.d + 6, 0.1)
        hit_ring = ring(self.theme.hit, self.d + 6, 0.12)
        ghosts: dict[int, int] = {}
        landings: dict[int, int] = {}
        upper_bar = mover == self.viewer
        for start, end, hits in play.paths:
            index = side[start] + ghosts.get(start, 0)
            ghosts[start] = ghosts.get(start, 0) + 1
            if start == 25 and self.view.variant is Variant.BACKGAMMON:
                self.paste(ghost_ring, self.geo.bar_centre(upper_bar, min(index, 2)))
            elif 1 <= start <= 24:
                self.paste(ghost_ring, self.stack_position(self.viewer_point(mover, start), index))
            for point in hits:
                if point != end and 1 <= point <= 24:
                    passed = self.viewer_point(mover, point)
                    self.paste(hit_ring, self.stack_position(passed, side[point]))
            if 1 <= end <= 24:
                landed = landings.get(end, 0)
                landings[end] = landed + 1
                slot = max(0, side[end] - 1 - landed)
                landing = self.stack_position(self.viewer_point(mover, end), slot)
                self.paste(hit_ring if end in hits else landed_ring, landing)
        hit_count = sum(len(hits) for _start, _end, hits in play.paths)
        if hit_count and self.view.variant is Variant.BACKGAMMON:
            victim = 1 - mover
            on_bar = self.view.sides[victim][25]
            for index in range(min(hit_count, on_bar, 3)):
                self.paste(hit_ring, self.geo.bar_centre(victim == self.viewer, index))

    # --- the player bands ----------------------------------------------------------------

    def match_text(self) -> str:
        view = self.view
        if view.variant is Variant.LONG_NARDY:
            if view.length:
                return label(self.labels, "long_nardy_to", length=view.length)
            return label(self.labels, "long_nardy_single")
        if not view.length:
            return label(self.labels, "money")
        text = label(self.labels, "match_to", length=view.length)
        if view.crawford:
            text += " · " + label(self.labels, "crawford")
        return text

    def status_text(self, name: Callable[[int], str] | None = None) -> str:
        """What just happened, naming player p as ``name(p)`` (by default the full name)."""
        view = self.view
        named = name or self.names.__getitem__
        if view.winner is not None:
            return label(self.labels, "wins", name=named(view.winner))
        if view.double_offered and view.turn is not None:
            doubler = 1 - view.turn
            return label(self.labels, "doubles", name=named(doubler), value=view.cube_value * 2)
        if self.last_play is not None:
            return label(
                self.labels, "played", name=named(self.last_play.mover), play=self.last_play.text
            )
        return ""

    def short_name(self, size: int, width: int, player: int) -> str:
        return fitted(self.names[player], size, width)

    def status_fitted(self, size: int, smallest: int, room: int) -> tuple[str, int]:
        """:meth:`status_text` set as large as ``room`` allows, down to ``smallest``; if it is
        still too wide the name in it is cut, not the play."""
        text, shown_size = shrunk(self.status_text(), size, smallest, room)
        if not text.endswith("…"):
            return text, shown_size
        face = text_font(smallest)
        for name_width in range(round(4 * self.geo.u), 0, -max(1, round(self.geo.u / 4))):
            text = clean(self.status_text(partial(self.short_name, smallest, name_width)))
            if face.getlength(text) <= room:
                return text, smallest
        return shrunk(text, smallest, smallest, room)

    def paint_band(self, player: int, top: bool) -> None:
        """From the left: an arrow if the player is to act, a checker of the player's colour,
        the name, the score and the pip count; at the right the match (above) or what just
        happened (below), set smaller or cut if it does not fit."""
        geo = self.geo
        u = geo.u
        face = text_font(geo.text_size)
        band = geo.top_band if top else geo.bottom_band
        y = (band[1] + band[3]) / 2
        active = self.view.turn == player
        x = self.paint_marker(player, y, active)
        score = str(self.view.score[player])
        box_width = face.getlength(score) + 0.4 * u
        pips = label(self.labels, "pips", pips=self.view.pips()[player])
        if self.view.clocks is not None:
            pips += " · " + clock_face(self.view.clocks[player])
        right_text = self.match_text() if top else self.status_text()
        right = geo.width - 0.4 * u
        # The name takes the room the rest leaves, within limits; the right text then shrinks.
        rest = 0.3 * u + box_width + 0.3 * u + face.getlength(pips) + 0.5 * u
        wanted = face.getlength(right_text) if right_text else 0
        room = min(_NAME_MOST * u, max(_NAME_LEAST * u, right - x - rest - wanted))
        name = fitted(self.names[player], geo.text_size, round(room))
        self.text(
            (x, y), name, geo.text_size, self.theme.accent if active else self.theme.text, "lm"
        )
        x += face.getlength(name) + 0.3 * u
        self.marks.append(
            RoundedRectangleMark(
                (x, y - 0.4 * u, x + box_width, y + 0.4 * u),
                round(0.12 * u),
                self.theme.frame,
                self.theme.frame_edge,
            )
        )
        self.text((x + box_width / 2, y), score, geo.text_size, self.theme.text, "mm")
        x += box_width + 0.3 * u
        self.text((x, y), pips, geo.text_size, self.theme.muted_text, "lm")
        x += face.getlength(pips)
        if right_text:
            self.paint_right_text(right_text, top, (right, y), max(right - x - 0.5 * u, 2 * u))

    def paint_marker(self, player: int, y: float, active: bool) -> float:
        """The arrow of the player to act and a checker of the player's colour (ringed if
        active) at the left of a band; where the name starts."""
        u = self.geo.u
        x = 0.3 * u
        if active:
            arrow = [(x, y - 0.22 * u), (x + 0.33 * u, y), (x, y + 0.22 * u)]
            self.marks.append(PolygonMark(arrow, self.theme.accent))
        centre = (x + 0.9 * u, y)
        self.paste(checker(self.theme, self.is_light(player), round(0.7 * u)), centre)
        if active:
            self.paste(ring(self.theme.accent, round(0.9 * u), 0.1), centre)
        return x + 1.5 * u

    def paint_right_text(self, text: str, top: bool, end: tuple[float, float], room: float) -> None:
        """The match (``top``) or the status, ending at ``end``, at most ``room`` wide."""
        size, smallest = self.geo.text_size, round(_SMALLEST_TEXT * self.geo.u)
        if top:
            shown, shown_size = shrunk(text, size, smallest, round(room))
        else:
            shown, shown_size = self.status_fitted(size, smallest, round(room))
        colour = self.theme.text if top else self.theme.accent
        self.text(end, shown, shown_size, colour, "rm")
