"""The picture of a tournament: its brackets stacked, a heading each, then its tables, in the
leaderboard's panel inside the board's wooden frame.

Plain values in (:mod:`rendering.tournament_view`), PNG bytes out; every text comes from the
caller, translated; names are drawn as the board draws them (the bundled font with libraqm:
Arabic shaped and laid out right to left) and cut with an ellipsis to their box. A picture of
tables only is :data:`~rendering.tournament_style.TABLE_WIDTH` wide, legible on a phone; a
bracket makes it as wide as its rounds need (see :mod:`rendering.tournament_style`).
:func:`draw_tournament` is pure and thread-safe, and the same input gives the same bytes.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from rendering import tournament_style as style
from rendering.bracket import bracket_size, draw_bracket
from rendering.palette import encode_in_palette, shared_palette
from rendering.sprites import font
from rendering.text import fitted
from rendering.tournament_table import draw_table, table_height, table_width
from rendering.tournament_view import (
    BracketMatch,
    BracketPart,
    BracketRound,
    Entry,
    StandingsTable,
    TableLine,
    TournamentPicture,
)

_MARGIN = style.RIM + style.PADDING


def draw_tournament(picture: TournamentPicture) -> bytes:
    """The picture as PNG bytes, in a palette chosen once (:func:`tournament_palette`), zlib
    level 1: a 64-player bracket is six million mostly flat pixels; level 3 took 11 ms more
    for 11 % fewer bytes (docs/benchmarks.md)."""
    return encode_in_palette(tournament_image(picture), tournament_palette(), compress_level=1)


@lru_cache(maxsize=1)
def tournament_palette() -> Image.Image:
    """The colours of every tournament picture, chosen once from a sample that shows each
    kind of mark (:mod:`rendering.palette`): choosing them for each picture took most of a
    64-player bracket's time (docs/benchmarks.md)."""
    return shared_palette([tournament_image(_SAMPLE)])


_WINNER = Entry("Anna Groß", 1, "7", winner=True)
_SAMPLE = TournamentPicture(
    "Sample · نموذج",
    (
        BracketPart(
            "Main",
            (
                BracketRound(
                    "Semifinals",
                    (
                        BracketMatch(_WINNER, Entry("محمد", 4, "3")),
                        BracketMatch(Entry("Bob", 2), Entry(), bye=True),
                    ),
                ),
                BracketRound("Final", (BracketMatch(Entry("Anna Groß", 1), Entry()),)),
            ),
        ),
    ),
    (
        StandingsTable(
            "Swiss",
            (
                TableLine("1", "Дмитрий", "3", "3–0", "3", "+12", "5"),
                TableLine("2", "Eleni", "3", "2–1", "2", "−3", "6"),
                TableLine("3", "Zed", "3", "0–3", "0", "−9", "4", out=True),
            ),
            buchholz=True,
        ),
    ),
)


def tournament_image(picture: TournamentPicture) -> Image.Image:
    """:func:`draw_tournament` before encoding (an RGB image)."""
    sizes = [bracket_size(part) for part in picture.brackets]
    inner = max(
        [style.TABLE_WIDTH - 2 * _MARGIN]
        + [width for width, _ in sizes]
        + [table_width(table, picture.labels) for table in picture.tables]
    )
    sections = [height for _, height in sizes] + [table_height(t) for t in picture.tables]
    body = sum(sections) + style.SECTION_GAP * max(0, len(sections) - 1)
    width = inner + 2 * _MARGIN
    height = 2 * _MARGIN + style.TITLE_HEIGHT + body
    image = Image.new("RGB", (width, height), style.FRAME)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, width - 1, height - 1), outline=style.FRAME_EDGE, width=3)
    draw.rectangle(
        (style.RIM, style.RIM, width - 1 - style.RIM, height - 1 - style.RIM), fill=style.PANEL
    )
    title = fitted(picture.title, style.TITLE_SIZE, inner)
    draw.text((_MARGIN, _MARGIN), title, font=font(style.TITLE_SIZE), fill=style.TEXT)
    top = _MARGIN + style.TITLE_HEIGHT
    for part, (_, part_height) in zip(picture.brackets, sizes, strict=True):
        draw_bracket(image, _MARGIN, top, part, picture.labels)
        top += part_height + style.SECTION_GAP
    for table in picture.tables:
        draw_table(draw, _MARGIN, top, inner, table, picture.labels)
        top += table_height(table) + style.SECTION_GAP
    return image
