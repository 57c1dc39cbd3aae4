"""The chart of a match analysis: a golden image, empty and long matches, hostile names and
texts, clamped values, sizes, determinism and speed.

Rewrite the golden picture after an intended change of the chart (then look at it before
committing it):

    python -m tests.rendering.regenerate_goldens
"""

from __future__ import annotations

import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from rendering import ChartError, ChartLabels, draw_analysis_chart
from rendering.analysis_chart import _Chart, _games, _lead_areas, _tick_step, chart_image
from tests.rendering.compare import difference, picture

GOLDEN = Path(__file__).parent / "golden"
WIDTH, HEIGHT = 900, 420
LABELS = ChartLabels(
    title="Match 12: Anna Groß vs Дмитрий",
    y_axis="Anna Groß's chance to win the match",
    x_axis="moves",
    game="Game {number}",
)
NAMES = ("Anna Groß", "Дмитрий")
BLUE, ORANGE = (30, 104, 186), (226, 118, 12)

# Three games in percent: Anna wins a swinging first game, Дмитрий the second (a gammon),
# Anna the third after Дмитрий's comeback fades.
_GAMES = (
    "47 53 50 47 37 34 46 51 63 65 69 71 53 63 68 73 55 36 27 23 26 26 30 25 27 31 25 43 52 69 "
    "69 69 74 81 89 93 94 94 95 98 98 98 99 98 98 100",
    "29 26 25 19 22 22 13 17 22 30 45 50 51 37 43 37 32 21 14 11 15 5 3 2 4 3 1 1 1 1 0",
    "58 61 72 73 75 79 70 62 55 48 41 36 44 39 30 33 41 52 58 49 55 63 70 66 72 79 75 81 86 83 "
    "88 90 87 92 94 91 95 96 97 95 97 98 98 97 98 99 99 99 98 99 99 99 99 99 99 99 99 100",
)
CHANCES = [int(value) / 100 for game in _GAMES for value in game.split()]
STARTS = [0, 46, 77]
# Numbered as the analysis lists them: Anna's largest first, then Дмитрий's.
ERRORS = [
    ChartError(12, 0, 0.214, 1),
    ChartError(18, 0, 0.162, 2),
    ChartError(59, 0, 0.138, 3),
    ChartError(29, 1, 0.283, 4),
    ChartError(94, 1, 0.121, 5),
    ChartError(56, 1, 0.094, 6),
]


def three_games() -> bytes:
    """A realistic 3-game match with the three largest errors of each player."""
    return draw_analysis_chart(CHANCES, STARTS, ERRORS, NAMES, LABELS)


SCENES: dict[str, Callable[[], bytes]] = {"analysis_chart": three_games}


def rgb(png: bytes) -> Image.Image:
    return picture(png).convert("RGB")


def colour_share(
    image: Image.Image, colour: tuple[int, int, int], box: tuple[int, int, int, int]
) -> float:
    """The share of pixels in ``box`` within a few steps of ``colour``."""
    data = image.crop(box).tobytes()
    pixels = list(zip(data[0::3], data[1::3], data[2::3], strict=True))
    red, green, blue = colour
    near = sum(
        1
        for r, g, b in pixels
        if abs(r - red) <= 12 and abs(g - green) <= 12 and abs(b - blue) <= 12
    )
    return near / len(pixels)


PLOT = (70, 110, 870, 370)  # inside the plot area at the default size
HEADER = (0, 0, WIDTH, 78)  # the title, the legend and the y axis text


def test_the_chart_matches_its_golden_image() -> None:
    rendered = picture(three_games())
    golden = picture((GOLDEN / "analysis_chart.png").read_bytes())
    assert rendered.size == golden.size == (WIDTH, HEIGHT)
    assert rendered.mode == "P"
    mean, far = difference(rendered, golden)
    assert mean < 1.5, f"mean difference {mean:.2f}"
    assert far < 0.003, f"{far:.2%} of pixels differ clearly"


def test_the_comparison_would_notice_a_changed_chart() -> None:
    golden = picture((GOLDEN / "analysis_chart.png").read_bytes())
    moved = [CHANCES[index] for index in range(len(CHANCES) - 1, -1, -1)]
    other = picture(draw_analysis_chart(moved, STARTS, ERRORS, NAMES, LABELS))
    mean, far = difference(golden, other)
    assert far > 0.003 or mean > 1.5
    fewer = picture(draw_analysis_chart(CHANCES, STARTS, ERRORS[:1], NAMES, LABELS))
    mean, far = difference(golden, fewer)
    assert far > 0.0005


def test_the_picture_shows_both_players_and_the_leads() -> None:
    image = rgb(three_games())
    assert colour_share(image, BLUE, PLOT) > 0.001  # Anna's dots
    assert colour_share(image, ORANGE, PLOT) > 0.001  # Дмитрий's dots
    assert colour_share(image, BLUE, HEADER) > 0.0005  # the legend
    assert colour_share(image, ORANGE, HEADER) > 0.0005


def test_each_dot_carries_its_number() -> None:
    """The number is written just above its dot (below it near the top), in the erring
    player's colour: the marker of error 1 is where the list's error 1 is."""
    numbered = rgb(three_games())
    unnumbered = [_unnumbered(error) for error in ERRORS]
    plain = rgb(draw_analysis_chart(CHANCES, STARTS, unnumbered, NAMES, LABELS))
    layout = _Chart(CHANCES, _games(STARTS, len(CHANCES)), WIDTH, HEIGHT)
    for error in ERRORS:
        x, y = layout.point(error.index)
        reach = layout.radius(error) + 24
        above = (round(x - 7), round(y - reach), round(x + 7), round(y - layout.radius(error)))
        below = (round(x - 7), round(y + layout.radius(error)), round(x + 7), round(y + reach))
        colour = (BLUE, ORANGE)[error.player]
        gained = max(
            colour_share(numbered, colour, box) - colour_share(plain, colour, box)
            for box in (above, below)
        )
        assert gained > 0.02, error  # a digit: some twenty pixels of 336
    _mean, far = difference(numbered, plain)
    assert 0 < far < 0.01


def _unnumbered(error: ChartError) -> ChartError:
    return ChartError(error.index, error.player, error.loss)


def test_the_same_input_gives_the_same_bytes_in_any_thread() -> None:
    expected = three_games()
    assert three_games() == expected
    with ThreadPoolExecutor(max_workers=4) as pool:
        produced = list(pool.map(lambda _: three_games(), range(8)))
    assert produced == [expected] * 8


def test_no_decisions_give_the_title_and_an_empty_plot() -> None:
    png = draw_analysis_chart([], [], [], NAMES, LABELS)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = rgb(png)
    assert image.size == (WIDTH, HEIGHT)
    full = rgb(three_games())
    mean, far = difference(image.crop(HEADER), full.crop(HEADER))
    assert far == 0
    assert mean < 0.5
    assert colour_share(image, BLUE, PLOT) == 0
    assert colour_share(image, ORANGE, PLOT) == 0
    # Starts and errors without decisions are ignored.
    ignored = draw_analysis_chart([], [0, 3], [ChartError(0, 0, 0.5)], NAMES, LABELS)
    assert difference(rgb(ignored), image)[1] == 0


def test_a_thousand_decisions_draw_quickly() -> None:
    chances = [0.5 + 0.45 * math.sin(index / 17) * math.cos(index / 101) for index in range(1000)]
    starts = list(range(0, 1000, 83))
    errors = [ChartError(index, index % 2, 0.02 + index / 2000) for index in range(5, 1000, 160)]
    png = draw_analysis_chart(chances, starts, errors, NAMES, LABELS)
    image = picture(png)
    assert image.size == (WIDTH, HEIGHT)
    assert len(png) < 150 * 1024


HOSTILE_NAMES = [
    ("W" * 500, "Ж" * 300),
    ("שלום עולם", "مرحبا بالعالم"),
    ("🎲🎉🔥", "\u202e\u0000\u200b\n\t"),
    ("Anna\u0000\u0007Groß\r\n", "x" * 64 + "🎲" * 64),
    ("", ""),
]


@pytest.mark.parametrize("names", HOSTILE_NAMES)
def test_hostile_names_keep_the_plot_as_it_is(names: tuple[str, str]) -> None:
    plain = rgb(three_games())
    hostile = rgb(draw_analysis_chart(CHANCES, STARTS, ERRORS, names, LABELS))
    assert hostile.size == (WIDTH, HEIGHT)
    below_header = (0, 52, WIDTH, HEIGHT)
    mean, far = difference(plain.crop(below_header), hostile.crop(below_header))
    assert far == 0
    assert mean < 0.5
    # Both legend dots are still there, whatever the names.
    assert colour_share(hostile, BLUE, HEADER) > 0.0005
    assert colour_share(hostile, ORANGE, HEADER) > 0.0005


def test_hostile_texts_are_cleaned_and_shortened() -> None:
    labels = ChartLabels(
        title="Match 12: " + "W" * 500 + " vs שלום 🎉\u0000",
        y_axis="\u0000\u202e" + "x's chance " * 80,
        x_axis="moves " * 40,
        game="Game {number",  # a broken translation falls back to English
        player="{name}",  # likewise
    )
    png = draw_analysis_chart(CHANCES, STARTS, ERRORS, ("🎲", ""), labels, 640, 300)
    assert picture(png).size == (640, 300)
    broken = ChartLabels(title="", y_axis="", x_axis="", game="{0}{1}", player="{}")
    assert picture(draw_analysis_chart(CHANCES, STARTS, ERRORS, NAMES, broken)).size == (
        WIDTH,
        HEIGHT,
    )


def test_values_out_of_range_are_clamped() -> None:
    wild = [-3.0, 7.0, math.nan, math.inf, -math.inf, 0.5, 1.5]
    tame = [0.0, 1.0, 0.5, 1.0, 0.0, 0.5, 1.0]
    errors = [ChartError(1, 0, 50.0), ChartError(4, 1, math.nan), ChartError(5, 1, -2.0)]
    tamed = [ChartError(1, 0, 1.0), ChartError(4, 1, 0.0), ChartError(5, 1, 0.0)]
    starts = [0, 3]
    expected = chart_image(tame, starts, tamed, NAMES, LABELS)
    assert chart_image(wild, starts, errors, NAMES, LABELS).tobytes() == expected.tobytes()
    # Errors off the chart or by a third player, and starts out of range, are left out.
    strays = [*errors, ChartError(7, 0, 0.3), ChartError(-1, 1, 0.3), ChartError(2, 2, 0.3)]
    with_strays = chart_image(wild, [*starts, 99, -4], strays, NAMES, LABELS)
    assert with_strays.tobytes() == expected.tobytes()


@pytest.mark.parametrize(("width", "height"), [(900, 420), (320, 200), (1600, 700), (2400, 300)])
def test_the_png_decodes_at_the_requested_size(width: int, height: int) -> None:
    png = draw_analysis_chart(CHANCES, STARTS, ERRORS, NAMES, LABELS, width, height)
    image = picture(png)
    assert image.format == "PNG"
    assert image.size == (width, height)


@pytest.mark.parametrize(("width", "height"), [(100, 420), (900, 50), (5000, 420)])
def test_absurd_sizes_are_refused(width: int, height: int) -> None:
    with pytest.raises(ValueError, match="pixels"):
        draw_analysis_chart(CHANCES, STARTS, ERRORS, NAMES, LABELS, width, height)


def test_games_are_numbered_by_their_start() -> None:
    assert _games([0, 46, 77], 135) == [(0, 46, 1), (46, 77, 2), (77, 135, 3)]
    # A game without decisions shares its start with the next, which keeps its own number.
    assert _games([0, 10, 10], 20) == [(0, 10, 1), (10, 20, 3)]
    # Out of range starts are dropped; decisions before the first start get no number.
    assert _games([5, 500, -1], 10) == [(0, 5, 0), (5, 10, 1)]
    assert _games([0], 0) == []


def test_the_lead_is_split_where_the_line_crosses_50_percent() -> None:
    # y grows downwards: 10 is above the line at 50, 90 below.
    areas = _lead_areas([(0.0, 10.0), (10.0, 90.0), (20.0, 90.0)], 50.0)
    assert [player for player, _ in areas] == [0, 1]
    assert areas[0][1] == [(0.0, 50.0), (0.0, 10.0), (5.0, 50.0), (5.0, 50.0)]
    assert areas[1][1][-1] == (20.0, 50.0)
    assert _lead_areas([(0.0, 50.0), (10.0, 50.0)], 50.0) == []
    # A line that touches 50 % on its way to the other side is split there too.
    touching = _lead_areas([(0.0, 10.0), (10.0, 50.0), (20.0, 90.0), (30.0, 50.0)], 50.0)
    assert [(player, area[1:-1]) for player, area in touching] == [
        (0, [(0.0, 10.0), (10.0, 50.0)]),
        (1, [(10.0, 50.0), (20.0, 90.0), (30.0, 50.0)]),
    ]


def test_tick_steps_are_round() -> None:
    assert [_tick_step(count, 12) for count in (5, 12, 13, 60, 135, 1000)] == [1, 1, 2, 5, 20, 100]
