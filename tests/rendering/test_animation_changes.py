"""A game's animation drawn frame by frame only where the frames differ: the same pictures as
drawing every frame whole, and the same GIF frames as Pillow's own writer makes of them."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from PIL import Image

from gammon import Variant
from gammon.actions import Move, OpeningRoll, Roll
from gammon.match_rules import MatchRules
from gammon.replay import GameReplay, replay_games
from rendering.changes import Redrawing, merged
from rendering.gif import MAX_BANDS, STEP_MS, GifFrame, gif_frames
from rendering.marks import SpriteMark, TextMark, changed_boxes, draw_marks, text_font
from rendering.palette import shared_palette
from rendering.replay import (
    _frame_image,
    _frame_marks,
    animation_palette,
    render_replay_animation,
)
from rendering.sprites import checker, font
from rendering.theme import THEMES
from tests.rendering.compare import moments
from tests.rendering.test_replay_animation import CUBE_GAME, NAMES, RULES, random_game

GAMES = {
    "long": lambda: random_game(106),
    "other": lambda: random_game(7),
    "cube": lambda: replay_games(RULES, CUBE_GAME)[0],
    "long_nardy": lambda: replay_games(
        MatchRules(variant=Variant.LONG_NARDY, length=3),
        [OpeningRoll((2, 5)), Roll(1, (6, 6)), Move(1, "24/18(2)"), Roll(0, (3, 1))],
    )[0],
}


def redrawn(game: GameReplay, theme: str, perspective: int) -> Iterator[Image.Image]:
    redrawing: Redrawing | None = None
    for frame in game.frames:
        background, marks = _frame_marks(frame, NAMES, None, theme, 640, perspective)
        redrawing = redrawing or Redrawing(background)
        redrawing.draw(marks)
        yield redrawing.picture


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize(("theme", "perspective"), [("classic", 0), ("dark", 1)])
def test_every_frame_drawn_again_where_it_changed_is_the_whole_frame(
    name: str, theme: str, perspective: int
) -> None:
    game = GAMES[name]()
    for index, picture in enumerate(redrawn(game, theme, perspective)):
        whole = _frame_image(game.frames[index], NAMES, None, theme, 640, perspective)
        assert picture.tobytes() == whole.tobytes(), f"{name} frame {index}"


def decoded(gif: bytes) -> list[tuple[bytes, int]]:
    """Every moment of a GIF as the viewer shows it (RGB), with its duration."""
    return [(image.tobytes(), duration) for image, duration in moments(gif)]


def pillows_gif(game: GameReplay) -> bytes:
    """The GIF as Pillow's writer makes it of every frame drawn whole (the earlier way)."""
    images = [_frame_image(frame, NAMES, None, "classic", 640, 0) for frame in game.frames]
    palette = animation_palette("classic", 640, game.frames[0].state.variant)
    frames = [image.quantize(palette=palette, dither=Image.Dither.NONE) for image in images]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=[1200] * (len(frames) - 1) + [4000],
        loop=0,
        optimize=True,
        disposal=1,
        palette=palette.getpalette(),
    )
    return buffer.getvalue()


@pytest.mark.parametrize("name", ["long", "cube", "long_nardy"])
def test_the_gif_shows_what_pillows_writer_shows(name: str) -> None:
    game = GAMES[name]()
    ours, pillows = render_replay_animation(game, names=NAMES), pillows_gif(game)
    assert decoded(ours) == decoded(pillows)
    assert len(ours) <= len(pillows) * 1.01  # no frame stored larger than it was


def test_a_frame_like_the_one_before_lengthens_it() -> None:
    background = Image.new("RGB", (64, 32), (200, 180, 140))
    sprite = checker(THEMES["classic"], True, 20)
    frames: list[list[SpriteMark]] = [
        [SpriteMark(sprite, (4, 4))],
        [SpriteMark(sprite, (4, 4))],
        [SpriteMark(sprite, (30, 6))],
    ]
    redrawing = Redrawing(background)
    pieces = [redrawing.draw(marks) for marks in frames]
    assert pieces[1] == []
    samples = [background.copy()]
    draw_marks(samples[0], frames[0] + frames[2])
    stored = gif_frames(pieces, [100, 100, 100], shared_palette(samples, 127), 127)
    assert [frame.duration for frame in stored] == [200, 100]
    first, moved = stored
    assert first.at is None
    assert first.image.size == (64, 32)
    assert moved.at is not None  # only the checker's two places: x 4-24 and 30-50, y 4-26
    left, top = moved.at
    assert (left >= 4, top >= 4) == (True, True)
    assert (left + moved.image.width <= 50, top + moved.image.height <= 26) == (True, True)


def _moved_in_five_bands(duration: int) -> list[GifFrame]:
    """A 40x200 picture whose second frame moves one checker sideways in each of five bands of
    rows: y 0-20, 40-60, 100-120, 150-170 and 180-200."""
    background = Image.new("RGB", (40, 200), (200, 180, 140))
    sprite = checker(THEMES["classic"], True, 20)
    rows = (0, 40, 100, 150, 180)
    before = [SpriteMark(sprite, (0, row)) for row in rows]
    after = [SpriteMark(sprite, (20, row)) for row in rows]
    redrawing = Redrawing(background)
    pieces = [redrawing.draw(marks) for marks in (before, after)]
    samples = [background.copy()]
    draw_marks(samples[0], before + after)
    return gif_frames(pieces, [1000, duration], shared_palette(samples, 127), 127)


def test_a_frame_is_stored_as_bands_of_rows_cut_at_the_largest_gaps() -> None:
    first, *bands = _moved_in_five_bands(1000)
    assert first.at is None
    assert len(bands) == MAX_BANDS == 4
    # Rows 20-40 (20 rows), 60-100 (40), 120-150 (30) and 170-180 (10) changed nothing: the
    # three tallest gaps are cut, the checkers at rows 150 and 180 share the last band.
    spans = [(band.at[1], band.at[1] + band.image.height) for band in bands if band.at]
    assert len(spans) == 4
    inside = [(0, 20), (40, 60), (100, 120), (150, 200)]
    pairs = zip(spans, inside, strict=True)
    assert all(low <= top and bottom <= high for (top, bottom), (low, high) in pairs)
    assert [band.duration for band in bands] == [STEP_MS, STEP_MS, STEP_MS, 1000 - 3 * STEP_MS]


def test_a_frame_too_short_for_its_bands_is_one_rectangle() -> None:
    _first, only = _moved_in_five_bands(3 * STEP_MS)
    assert only.at is not None
    assert (only.at[1], only.at[1] + only.image.height) == (0, 200)
    assert only.duration == 3 * STEP_MS


def test_a_long_game_stores_its_frames_in_bands() -> None:
    game = GAMES["long"]()
    gif = Image.open(io.BytesIO(render_replay_animation(game, names=NAMES)))
    # Every frame after the first changes the top band, the board and the bottom band.
    assert gif.n_frames > 2 * len(game.frames)


def test_marks_in_another_order_change_the_whole_picture() -> None:
    sprite = checker(THEMES["classic"], True, 20)
    first, second = SpriteMark(sprite, (0, 0)), SpriteMark(sprite, (10, 0))
    assert changed_boxes([first, second], [first, second], (50, 50)) == []
    assert changed_boxes([first, second], [second, first], (50, 50)) == [(0, 0, 50, 50)]
    assert changed_boxes([first], [first, first], (50, 50)) == [(0, 0, 20, 20)]


def test_merged_boxes_are_disjoint_and_cover_them_all() -> None:
    boxes = [(0, 0, 10, 10), (5, 5, 20, 20), (100, 100, 110, 110), (0, 40, 5, 45), (300, 3, 310, 8)]
    strips = merged(boxes, near=4)
    for box in boxes:
        assert any(
            strip[0] <= box[0] and strip[1] <= box[1] and box[2] <= strip[2] and box[3] <= strip[3]
            for strip in strips
        )
    for index, strip in enumerate(strips):
        for other in strips[index + 1 :]:
            assert strip[3] <= other[1] or other[3] <= strip[1]  # no two share a row


def test_a_remembering_font_draws_and_measures_as_the_font_does() -> None:
    plain, remembering = font(24), text_font(24)
    for text in ("Anna Groß", "Дмитрий", "سارة", "Pips: 167"):
        for _ in range(2):  # drawn, then remembered
            assert remembering.getlength(text) == plain.getlength(text)
            ours, theirs = Image.new("RGB", (260, 40)), Image.new("RGB", (260, 40))
            draw_marks(ours, [TextMark((130.5, 20.25), text, remembering, (255, 255, 255), "mm")])
            theirs_mark = TextMark((130.5, 20.25), text, plain, (255, 255, 255), "mm")
            draw_marks(theirs, [theirs_mark])
            assert ours.tobytes() == theirs.tobytes(), text
    # arguments that cannot be remembered (a list of features) are passed on as they are
    assert remembering.getlength("ffi", features=["-liga"]) == plain.getlength(
        "ffi", features=["-liga"]
    )
