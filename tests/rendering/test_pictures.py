"""Board pictures: golden images, every oracle position, hostile names, threads, the CLI."""

from __future__ import annotations

import json
import logging
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import ImageFont

from bot.cli import main
from gammon import Position, Variant
from rendering import BoardView, LastPlay, encode, render_board, render_image, sprites
from rendering.text import clean, fitted, shrunk
from tests.oracle import oracle_cases
from tests.rendering.compare import difference, picture
from tests.rendering.scenarios import SCENES, state_for_tests

GOLDEN = Path(__file__).parent / "golden"
WIDTH, HEIGHT = 960, 842
BAND = 67  # each player's band, above and below the board


@pytest.mark.parametrize("name", sorted(SCENES))
def test_pictures_match_their_golden_images(name: str) -> None:
    rendered = picture(SCENES[name]())
    golden = picture((GOLDEN / f"{name}.png").read_bytes())
    assert rendered.size == golden.size == (WIDTH, HEIGHT)
    assert rendered.mode == "P"
    mean, far = difference(rendered, golden)
    assert mean < 1.5, f"{name}: mean difference {mean:.2f}"
    assert far < 0.003, f"{name}: {far:.2%} of pixels differ clearly"


def test_the_comparison_would_notice_a_changed_board() -> None:
    golden = picture((GOLDEN / "opening.png").read_bytes())
    other = picture((GOLDEN / "bar_and_hit.png").read_bytes())
    mean, far = difference(golden, other)
    assert far > 0.003 or mean > 1.5


def test_pictures_are_small_pngs() -> None:
    for scene in SCENES.values():
        png = scene()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(png) <= 150 * 1024


def test_every_oracle_position_renders() -> None:
    for number, case in enumerate(oracle_cases()):
        position = Position.from_id(case.position_id)
        view = BoardView(
            variant=Variant.BACKGAMMON,
            sides=(position.player, position.opponent),
            turn=0,
            on_roll=0,
            dice=case.dice,
            cube_value=2,
            cube_owner=number % 2,
            score=(number % 5, number % 3),
            length=7,
        )
        image = render_image(view, perspective=number % 2, names=("A", "B"))
        assert image.size == (WIDTH, HEIGHT)
        if number % 100 == 0:
            assert len(encode(image)) <= 150 * 1024


def test_names_with_emoji_or_200_characters_keep_the_layout() -> None:
    assert clean("Anna 🎲🎉 Groß") == "Anna Groß"
    assert clean("\u200b\u202eevil\u0000") == "evil"
    long_name = "Ж" * 200
    shortened = fitted(long_name, 23, 263)
    assert shortened.endswith("…")
    assert len(shortened) < 40
    state = state_for_tests()
    plain = picture(render_board(state, names=("Anna", "Bob")))
    hostile = picture(render_board(state, names=("🎲" * 50 + long_name, "x" * 200)))
    # The board and the right-hand quarter of both bands are untouched by the names.
    board = (0, BAND, WIDTH, HEIGHT - BAND)
    right = WIDTH * 3 // 4
    for box in (board, (right, 0, WIDTH, BAND), (right, HEIGHT - BAND, WIDTH, HEIGHT)):
        # (Each picture gets its own palette, so colours may shift by a step, never more.)
        mean, far = difference(plain.crop(box), hostile.crop(box))
        assert far == 0, box
        assert mean < 0.5, box
    emoji_only = picture(render_board(state, names=("🎲🎲🎲", "")))
    assert emoji_only.size == (WIDTH, HEIGHT)


def test_a_text_too_wide_is_set_smaller_before_it_is_cut() -> None:
    text = "Match to 7 · Crawford"
    room = math.ceil(sprites.font(24).getlength(text))
    assert sprites.font(25).getlength(text) > room
    assert shrunk(text, 30, 20, room) == (text, 24)  # the largest size that fits
    assert shrunk("Bob 🎲", 30, 20, 500) == ("Bob", 30)
    cut, size = shrunk(text, 30, 20, 100)
    assert size == 20
    assert cut.endswith("…")
    assert sprites.font(20).getlength(cut) <= 100


def test_rendering_in_threads_gives_the_same_pictures() -> None:
    scenes = list(SCENES.values()) * 4
    expected = [scene() for scene in scenes]
    with ThreadPoolExecutor(max_workers=4) as pool:
        produced = list(pool.map(lambda scene: scene(), scenes))
    assert produced == expected


def test_perspective_puts_the_chosen_player_at_the_bottom() -> None:
    state = state_for_tests()
    mine = picture(render_board(state, perspective=0))
    theirs = picture(render_board(state, perspective=1))
    assert difference(mine, theirs)[1] > 0.01


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError, match="size"):
        render_board(state_for_tests(), size=100)
    small = picture(render_board(state_for_tests(), size=480))
    assert small.size == (480, 421)
    with pytest.raises(ValueError, match="perspective"):
        render_board(state_for_tests(), perspective=2)
    with pytest.raises(KeyError):
        render_board(state_for_tests(), theme="neon")
    with pytest.raises(ValueError, match="last play"):
        LastPlay.from_text("8/??", 0)


def test_the_render_command_draws_from_gnubg_ids(tmp_path: Path) -> None:
    target = tmp_path / "board.png"
    result = CliRunner().invoke(
        main,
        [
            "render",
            "--position-id",
            "4HPwATDgc/ABMA",
            "--match-id",
            "QYkqASAAIAAA",
            "--last-play",
            "8/5 6/5",
            "--theme",
            "dark",
            "-o",
            str(target),
        ],
    )
    assert result.exit_code == 0, result.output
    image = picture(target.read_bytes())
    assert image.size == (WIDTH, HEIGHT)
    nardy = CliRunner().invoke(
        main,
        ["render", "--position-id", "AACA/z8AAID/Pw", "--variant", "long_nardy", "-o", str(target)],
    )
    assert nardy.exit_code == 0, nardy.output
    refused = CliRunner().invoke(main, ["render", "--position-id", "nonsense", "-o", str(target)])
    assert refused.exit_code == 2
    assert "Position ID" in refused.output


def test_a_view_from_ids_reads_the_match() -> None:
    view = BoardView.from_ids("4HPwATDgc/ABMA", "QYkqASAAIAAA")
    assert (view.length, view.score, view.cube_value, view.cube_owner) == (9, (2, 4), 2, 0)
    assert (view.on_roll, view.dice) == (1, (5, 2))
    assert json.dumps(view.pips()) == "[167, 167]"


def test_arabic_is_shaped_and_laid_out_right_to_left() -> None:
    """With libraqm the letters of سارة take their joined forms and run from the right: the
    word is drawn differently from Pillow's basic layout (isolated letters, left to right)."""
    assert sprites.layout_engine() is ImageFont.Layout.RAQM
    shaped = sprites.font(40)
    basic = ImageFont.truetype(shaped.path, 40, layout_engine=ImageFont.Layout.BASIC)
    word = "سارة"
    assert bytes(shaped.getmask(word)) != bytes(basic.getmask(word))
    # joined letters sit closer than the same letters standing alone
    assert shaped.getmask(word).size[0] < basic.getmask(word).size[0]


def test_without_libraqm_the_fallback_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sprites.features, "check", lambda name: False)
    sprites.layout_engine.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="rendering.sprites"):
            assert sprites.layout_engine() is ImageFont.Layout.BASIC
        assert "libraqm" in caplog.text
    finally:
        sprites.layout_engine.cache_clear()


def test_a_match_clock_shows_in_the_bands_and_nowhere_else() -> None:
    """Both reserves follow the pip counts in the players' bands; the board is untouched."""
    view = BoardView.from_state(state_for_tests())
    plain = picture(render_board(view, names=("Anna", "Bob")))
    timed = picture(render_board(replace(view, clocks=(159_000, 7_400)), names=("Anna", "Bob")))
    board = (0, BAND, WIDTH, HEIGHT - BAND)
    assert difference(plain.crop(board), timed.crop(board))[1] == 0
    for band in ((0, 0, WIDTH, BAND), (0, HEIGHT - BAND, WIDTH, HEIGHT)):
        assert difference(plain.crop(band), timed.crop(band))[1] > 0, band
