"""The picture of a chouette: the box's board against the captain, and every member's cube.

The board is drawn exactly as any board (:func:`rendering.board.render_image`): the box is
board player 0, the team (its acting captain) board player 1, a money game without the board's
own cube. Under it a panel lists the team in seat order, captain first, one line each: the
member's name with a checker of the team's colour, a tag for the captain, the acting captain
(who moves the team's checkers once the captain is out) and a member who is out of the game
(name struck through, greyed); then a rail from the member to the box, drawn on the right as
one block for the whole team, with the member's cube on it: at the member's end when the member
owns it, in the middle when it is centred, at the box's end when the box owns it, and halfway
to the player who must answer while a double waits.

Plain values in, PNG bytes out, like the board; :func:`render_chouette` is pure and
thread-safe, and the same input gives the same bytes. Names are cleaned and shortened as on the
board; the words come from ``labels`` (English by default, see :mod:`rendering.labels`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final

from PIL import Image, ImageDraw

from gammon.chouette import MAX_PLAYERS, ChouetteGame, Side
from rendering.board import DEFAULT_WIDTH, render_image
from rendering.geometry import TEXT, geometry
from rendering.labels import DEFAULT_LABELS, label
from rendering.palette import encode
from rendering.sprites import checker, cube, font, ring
from rendering.text import fitted
from rendering.theme import DEFAULT_THEME, RGB, THEMES, Theme
from rendering.view import BoardView, LastPlay

BOX: Final = 0  # the box's board player
TEAM: Final = 1  # the team's board player: its home is at the bottom by default
MAX_MEMBERS: Final = MAX_PLAYERS - 1
OWNERS: Final = ("centre", "box", "member")

# The panel, in checker diameters (u) like the board's geometry.
_MARGIN: Final = 0.3  # the panel's frame from the picture's edges (sides and bottom)
_PAD: Final = 0.2  # inside the frame, above the first line and below the last
_ROW: Final = 1.0  # one member's line
_BOX_HEIGHT: Final = 2.4  # the box's block at least (a team of two is shorter)
_ICON_X: Final = 0.9  # centre of the team's checker on each line
_ICON: Final = 0.7
_NAME_X: Final = 1.5
_NAME_SIZE: Final = TEXT
_TAG_SIZE: Final = 0.42
_TAG_HEIGHT: Final = 0.6
_TAG_PAD: Final = 0.18
_GAP: Final = 0.2
_RAIL_LEFT: Final = 8.8
_BOX_LEFT: Final = 13.2  # the box's block, to the panel's right edge
_RAIL: Final = 0.12  # the rail's thickness
_CUBE: Final = 0.9
_CUBE_INSET: Final = 0.55  # from a rail's ends to the centre of a cube owned there
_FADED: Final = 0.4  # how much of an out member's checker and cube shows
_TAG_MAX: Final = 4.4  # the widest word in a frame ("Действующий капитан")


@dataclass(frozen=True)
class MemberCubeView:
    """One team member's line: the name as shown, their cube against the box (``value``, and
    ``owner`` "centre", "box" or "member"), ``dropped`` when their game is over (they dropped
    a double, or the box dropped theirs), ``captain`` for the captain of this game, ``acting``
    for the member moving the team's checkers now. ``offered_by`` ("box" or "member") is the
    side whose double on this cube waits for an answer."""

    name: str
    value: int = 1
    owner: str = "centre"
    dropped: bool = False
    captain: bool = False
    acting: bool = False
    offered_by: str | None = None

    def __post_init__(self) -> None:
        owner = str(self.owner)
        if owner not in OWNERS:
            raise ValueError(f"a cube's owner is one of {OWNERS}, not {self.owner!r}")
        object.__setattr__(self, "owner", owner)
        if self.offered_by is not None:
            offered_by = str(self.offered_by)
            if offered_by not in ("box", "member"):
                raise ValueError("a double is offered by the box or the member")
            object.__setattr__(self, "offered_by", offered_by)
        if not isinstance(self.value, int) or self.value < 1:
            raise ValueError("a cube's value is a whole number from 1")


_OFFERED_BY: Final[Mapping[Side | None, str]] = {Side.BOX: "box", Side.TEAM: "member"}


def chouette_members(
    game: ChouetteGame, names: Mapping[str, str] | None = None
) -> tuple[MemberCubeView, ...]:
    """The lines of ``game``'s team in seat order, captain first; ``names`` maps player ids to
    the names to show (an id without one shows as itself)."""
    shown = names or {}
    acting = game.acting_captain
    return tuple(
        MemberCubeView(
            name=shown.get(member_cube.member, member_cube.member),
            value=member_cube.value,
            owner=str(member_cube.owner),
            dropped=not member_cube.live,
            captain=member_cube.member == game.table.captain,
            acting=member_cube.member == acting,
            offered_by=_OFFERED_BY.get(member_cube.offered_by),
        )
        for member_cube in game.cubes
    )


def render_chouette(
    view: BoardView,
    *,
    box: str,
    captain: str,
    members: Sequence[MemberCubeView],
    perspective: int = TEAM,
    theme: str | Theme = DEFAULT_THEME,
    labels: Mapping[str, str] = DEFAULT_LABELS,
    last_play: LastPlay | None = None,
    size: int = DEFAULT_WIDTH,
) -> bytes:
    """The chouette as PNG bytes, ``size`` pixels wide: the board of ``box`` (board player 0)
    against ``captain`` (board player 1, the name on the team's band: normally whoever moves
    the team's checkers), then the panel of ``members`` (one to seven, in seat order). The
    board's own cube is never drawn: each member's cube is on the panel. ``perspective`` is
    the board player whose home is at the bottom right (by default the team's)."""
    return encode(
        chouette_image(
            view,
            box=box,
            captain=captain,
            members=members,
            perspective=perspective,
            theme=theme,
            labels=labels,
            last_play=last_play,
            size=size,
        )
    )


def chouette_image(
    view: BoardView,
    *,
    box: str,
    captain: str,
    members: Sequence[MemberCubeView],
    perspective: int = TEAM,
    theme: str | Theme = DEFAULT_THEME,
    labels: Mapping[str, str] = DEFAULT_LABELS,
    last_play: LastPlay | None = None,
    size: int = DEFAULT_WIDTH,
) -> Image.Image:
    """:func:`render_chouette` before encoding (an RGB image)."""
    lines = tuple(members)
    if not 1 <= len(lines) <= MAX_MEMBERS:
        raise ValueError(f"a chouette's team has 1 to {MAX_MEMBERS} members")
    if sum(line.acting for line in lines) > 1:
        raise ValueError("at most one member moves the team's checkers")
    chosen = THEMES[theme] if isinstance(theme, str) else theme
    board = render_image(
        replace(view, cube_visible=False, double_offered=False),
        perspective=perspective,
        theme=chosen,
        size=size,
        names=(box, captain),
        last_play=last_play,
        labels={**labels, "money": label(labels, "chouette")},  # not a money game's title
    )
    u = geometry(board.width).u
    rows_height = max(len(lines) * _ROW, _BOX_HEIGHT)
    panel_height = round((rows_height + 2 * _PAD + _MARGIN) * u)
    canvas = Image.new("RGB", (board.width, board.height + panel_height), chosen.background)
    canvas.paste(board, (0, 0))
    _Panel(canvas, board.height, u, view, chosen, labels).draw(box, lines, rows_height)
    return canvas


def _blend(colour: RGB, under: RGB, share: float) -> RGB:
    """``share`` of ``colour`` over ``under``."""
    mixed = (round(c * share + b * (1 - share)) for c, b in zip(colour, under, strict=True))
    return (next(mixed), next(mixed), next(mixed))


def _faded(sprite: Image.Image) -> Image.Image:
    """A sprite showing through at ``_FADED`` of its opacity."""
    faded = sprite.copy()
    faded.putalpha(sprite.getchannel("A").point(lambda alpha: round(alpha * _FADED)))
    return faded


class _Panel:
    """Draws the team's panel under the board onto ``canvas``."""

    def __init__(
        self,
        canvas: Image.Image,
        top: int,
        u: float,
        view: BoardView,
        theme: Theme,
        labels: Mapping[str, str],
    ) -> None:
        self.canvas = canvas
        self.draw_on = ImageDraw.Draw(canvas)
        self.top = top
        self.u = u
        self.view = view
        self.theme = theme
        self.labels = labels
        self.right = canvas.width - _MARGIN * u

    def x(self, units: float) -> float:
        return units * self.u

    def px(self, units: float) -> int:
        return round(units * self.u)

    def paste(self, sprite: Image.Image, centre: tuple[float, float]) -> None:
        corner = (round(centre[0] - sprite.width / 2), round(centre[1] - sprite.height / 2))
        self.canvas.paste(sprite, corner, sprite)

    def text(
        self, xy: tuple[float, float], text: str, size: int, fill: RGB, anchor: str, bold: bool
    ) -> None:
        self.draw_on.text(xy, text, font=font(size, bold), fill=fill, anchor=anchor)

    def draw(self, box: str, lines: tuple[MemberCubeView, ...], rows_height: float) -> None:
        theme = self.theme
        frame = (
            self.x(_MARGIN),
            self.top,
            self.right,
            self.canvas.height - self.x(_MARGIN),
        )
        self.draw_on.rounded_rectangle(
            frame, self.px(0.18), fill=theme.tray, outline=theme.frame_edge, width=2
        )
        first = self.top + self.x(_PAD)
        spare = (rows_height - len(lines) * _ROW) / 2  # a team of two sits in the middle
        for seat, line in enumerate(lines):
            centre = first + self.x(spare + (seat + 0.5) * _ROW)
            self.rail(line, centre)
            self.member(line, seat, centre)
        self.box(box, first, first + self.x(rows_height))

    # --- one member's line -------------------------------------------------------------

    def member(self, line: MemberCubeView, seat: int, y: float) -> None:
        theme = self.theme
        team_light = self.view.light == TEAM
        icon = checker(theme, team_light, self.px(_ICON))
        self.paste(_faded(icon) if line.dropped else icon, (self.x(_ICON_X), y))
        if line.acting:
            self.paste(ring(theme.accent, self.px(_ICON + 0.2), 0.1), (self.x(_ICON_X), y))
        tags = self.tags(line)
        tag_widths = [self.tag_width(text, self.x(_TAG_MAX)) for text, _style in tags]
        room = self.x(_RAIL_LEFT - _NAME_X - 0.4) - sum(
            width + self.x(_GAP) for width in tag_widths
        )
        size = self.px(_NAME_SIZE)
        limit = max(round(room), self.px(1.5))
        name = fitted(line.name, size, limit)
        if not name:  # nothing drawable: the board's "Player n", the box being player 1
            name = fitted(label(self.labels, "player", number=seat + 2), size, limit)
        colour = theme.muted_text if line.dropped else theme.accent if line.acting else theme.text
        x = self.x(_NAME_X)
        self.text((x, y), name, size, colour, "lm", bold=True)
        width = font(size).getlength(name)
        if line.dropped:
            thickness = max(2, self.px(0.05))
            self.draw_on.line((x - 2, y, x + width + 2, y), fill=theme.muted_text, width=thickness)
        x += width + self.x(_GAP)
        for (text, style), tag_width in zip(tags, tag_widths, strict=True):
            self.tag(x, y, text, tag_width, style)
            x += tag_width + self.x(_GAP)

    def tags(self, line: MemberCubeView) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        if line.captain:
            found.append(
                (label(self.labels, "chouette_captain"), "muted" if line.dropped else "plain")
            )
        if line.acting and not line.captain:
            found.append((label(self.labels, "chouette_acting"), "accent"))
        if line.dropped:
            found.append((label(self.labels, "chouette_out"), "muted"))
        return found

    def tag_width(self, text: str, limit: float) -> float:
        """The width of ``text``'s frame, at most ``limit``."""
        size = self.px(_TAG_SIZE)
        return min(font(size).getlength(text) + 2 * self.x(_TAG_PAD), limit)

    def tag(self, x: float, y: float, text: str, width: float, style: str) -> None:
        """A word in a rounded frame ``width`` wide: ``plain`` (the captain), ``accent`` (the
        acting captain), ``muted`` (out of the game) or ``strong`` (the box)."""
        theme = self.theme
        fill: RGB | None
        if style == "plain":
            fill, outline, ink = theme.frame, theme.frame_edge, theme.text
        elif style == "strong":
            fill, outline, ink = theme.text, theme.text, theme.background
        elif style == "accent":
            fill, outline, ink = None, theme.accent, theme.accent
        else:
            fill, outline, ink = None, theme.muted_text, theme.muted_text
        half = self.x(_TAG_HEIGHT) / 2
        self.draw_on.rounded_rectangle(
            (x, y - half, x + width, y + half), round(half), fill=fill, outline=outline, width=2
        )
        size = self.px(_TAG_SIZE)
        shown = fitted(text, size, math.ceil(width - 2 * self.x(_TAG_PAD)))
        self.text((x + width / 2, y), shown, size, ink, "mm", bold=True)

    # --- the rail and the cube -----------------------------------------------------------

    def rail(self, line: MemberCubeView, y: float) -> None:
        theme = self.theme
        left, right = self.x(_RAIL_LEFT), self.x(_BOX_LEFT)
        half = self.x(_RAIL) / 2
        colour = _blend(theme.muted_text, theme.tray, 0.2 if line.dropped else 0.45)
        edge = colour
        self.draw_on.rounded_rectangle(
            (left, y - half, right, y + half), round(half), fill=colour, outline=edge
        )
        stop = self.x(0.22)
        self.draw_on.rounded_rectangle(
            (left - half, y - stop, left + half, y + stop), round(half), fill=colour, outline=edge
        )
        ends = {
            "member": left + self.x(_CUBE_INSET),
            "centre": (left + right) / 2,
            "box": right - self.x(_CUBE_INSET + 0.05),
        }
        size = self.px(_CUBE)
        if line.offered_by is not None and not line.dropped:
            receiver = "member" if line.offered_by == "box" else "box"
            x = (ends["centre"] + ends[receiver]) / 2
            self.paste(cube(theme, line.value * 2, size, True), (x, y))
            return
        centred = line.value == 1 and line.owner == "centre" and not line.dropped
        shown = 64 if centred else line.value  # as on the board; a dropped cube shows its stake
        sprite = cube(theme, shown, size, False)
        self.paste(_faded(sprite) if line.dropped else sprite, (ends[line.owner], y))

    # --- the box -------------------------------------------------------------------------

    def box(self, name: str, top: float, bottom: float) -> None:
        theme = self.theme
        left, right = self.x(_BOX_LEFT), self.right - self.x(_PAD)
        self.draw_on.rounded_rectangle(
            (left, top, right, bottom),
            self.px(0.16),
            fill=theme.frame,
            outline=theme.frame_edge,
            width=2,
        )
        middle_x = (left + right) / 2
        middle_y = (top + bottom) / 2
        icon = checker(theme, self.view.light == BOX, self.px(0.7))
        self.paste(icon, (middle_x, middle_y - self.x(0.78)))
        size = self.px(_NAME_SIZE)
        room = round(right - left - self.x(0.3))
        shown = fitted(name, size, room) or fitted(
            label(self.labels, "player", number=1), size, room
        )
        self.text((middle_x, middle_y + self.x(0.02)), shown, size, theme.text, "mm", bold=True)
        word = label(self.labels, "chouette_box")
        width = self.tag_width(word, right - left - self.x(0.3))
        self.tag(middle_x - width / 2, middle_y + self.x(0.72), word, width, "strong")
