"""A board is encoded in a palette chosen once per theme, size and variant: every board must
still look like the picture that was drawn (its RGB image, compared pixel by pixel), about as
closely as with a palette chosen for that one picture. The palettes stored ahead of time
(rendering/stored_palettes.py) are as good as choosing them now, and every one a drawing
process warms up with is there."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest
from PIL import Image, ImageChops

from gammon import Position, Variant, legal_plays
from rendering import THEMES, BoardView, LastPlay, render_board, render_image
from rendering.board import choose_palette
from rendering.palette import encode_in_palette
from rendering.palette_store import palette_key, stored_palette
from rendering.replay import ANIMATION_WIDTH, GIF_COLOURS
from tests.oracle import oracle_cases
from tests.rendering.compare import difference, picture

NAMES = ("Anna Groß", "Дмитрий")


def _backgammon_views() -> list[tuple[BoardView, LastPlay | None]]:
    rng = random.Random(11)
    views: list[tuple[BoardView, LastPlay | None]] = []
    for number, case in enumerate(oracle_cases()[::97]):
        before = Position.from_id(case.position_id)
        plays = legal_plays(before, case.dice)
        position = rng.choice(plays).result if plays else before
        view = BoardView(
            variant=Variant.BACKGAMMON,
            sides=(position.opponent, position.player),
            turn=number % 2,
            on_roll=number % 2 if number % 3 else None,
            dice=case.dice if number % 3 else None,
            cube_value=rng.choice([1, 2, 4, 8]),
            cube_owner=rng.choice([None, 0, 1]),
            double_offered=number % 7 == 0,
            score=(number % 5, number % 3),
            length=rng.choice([0, 5, 7]),
            light=number % 2,
            winner=1 if number % 11 == 0 else None,
        )
        views.append((view, LastPlay.from_play(plays[0], 0) if plays else None))
    return views


def _nardy_views() -> list[tuple[BoardView, LastPlay | None]]:
    rng = random.Random(12)
    views: list[tuple[BoardView, LastPlay | None]] = []
    position = Position.start(Variant.LONG_NARDY)
    for turn in range(80):
        plays = legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6)))
        if not plays:
            position = position.swapped()
            continue
        play = rng.choice(plays)
        if turn % 8 == 0:
            view = BoardView(
                variant=Variant.LONG_NARDY,
                sides=(play.result.player, play.result.opponent),
                turn=1,
                on_roll=1,
                dice=(rng.randint(1, 6), rng.randint(1, 6)),
                length=3,
                cube_visible=False,
                light=turn % 2,
            )
            views.append((view, LastPlay.from_play(play, 0)))
        position = play.result.swapped()
    return views


CASES = _backgammon_views() + _nardy_views()
CLOSE = 50  # per channel (0..255); a palette chosen for each picture alone comes within 49


def _farthest(first: Image.Image, second: Image.Image) -> int:
    """The largest difference of one channel of one pixel between the two pictures."""
    difference = ImageChops.difference(first.convert("RGB"), second.convert("RGB"))
    counts = difference.histogram()  # 256 counts per channel, one after the other
    return max(index % 256 for index, count in enumerate(counts) if count)


def _own_palette_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("size", [480, 960])
def test_boards_in_the_shared_palette_look_like_what_was_drawn(theme: str, size: int) -> None:
    """Every pixel within CLOSE of the drawn picture in every channel, and on average about as
    close as with a palette of the picture's own. (A palette chosen from the empty board alone
    is off by up to 95 on dice and rings, one without rings on both point colours by 59: this
    test fails for both.)"""
    assert len(CASES) >= 25
    for view, play in CASES:
        drawn = render_image(view, theme=theme, size=size, names=NAMES, last_play=play)
        sent = picture(render_board(view, theme=theme, size=size, names=NAMES, last_play=play))
        assert sent.mode == "P"
        assert sent.size == drawn.size
        farthest = _farthest(sent, drawn)
        assert 0 < farthest <= CLOSE, f"{view}: a pixel off by {farthest}"
        mean, _far = difference(sent, drawn)
        own_mean, _ = difference(picture(_own_palette_png(drawn)), drawn)
        assert mean < own_mean + 0.5, f"{view}: {mean:.2f} against {own_mean:.2f}"


def test_the_palettes_a_drawing_process_warms_up_with_are_stored() -> None:
    """bot/core/runtime/painter.py warms up with the classic theme's boards of both variants
    and its backgammon animations: choosing those took about 0.5 s in every drawing process."""
    classic = THEMES["classic"]
    for width, colours, variant in (
        (960, 256, Variant.BACKGAMMON),
        (960, 256, Variant.LONG_NARDY),
        (ANIMATION_WIDTH, GIF_COLOURS, Variant.BACKGAMMON),
    ):
        assert stored_palette(palette_key(classic, width, variant, colours)) is not None
    changed = dataclasses.replace(classic, felt=(1, 2, 3))  # nothing stored: chosen anew
    assert stored_palette(palette_key(changed, 960, Variant.BACKGAMMON, 256)) is None


@pytest.mark.parametrize("theme", sorted(THEMES))
@pytest.mark.parametrize("variant", list(Variant))
def test_a_stored_animation_palette_is_as_good_as_one_chosen_now(
    theme: str, variant: Variant
) -> None:
    """(The boards' stored palettes are checked above: render_board encodes in them.)"""
    chosen_theme = THEMES[theme]
    stored = stored_palette(palette_key(chosen_theme, ANIMATION_WIDTH, variant, GIF_COLOURS))
    assert stored is not None
    fresh = choose_palette(chosen_theme, ANIMATION_WIDTH, variant, GIF_COLOURS)
    views = [case for case in CASES if case[0].variant is variant][:6]
    for view, play in views:
        drawn = render_image(view, theme=theme, size=ANIMATION_WIDTH, names=NAMES, last_play=play)
        sent = picture(encode_in_palette(drawn, stored))
        fresh_sent = picture(encode_in_palette(drawn, fresh))
        mean, _far = difference(sent, drawn)
        fresh_mean, _ = difference(fresh_sent, drawn)
        assert _farthest(sent, drawn) <= _farthest(fresh_sent, drawn) + 4
        assert mean < fresh_mean + 0.5, f"{view}: {mean:.2f} against {fresh_mean:.2f}"
