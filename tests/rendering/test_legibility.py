"""Every board picture's words stay legible on a phone: scaled to 360 pixels wide, the point
numbers, pip counts, names, scores, the match's length, the cube's value and the counts on
tall stacks are at least 8 pixels tall, measured on the drawn pixels (:mod:`legibility`)."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from PIL import Image

from gammon import Position, Variant
from rendering import BoardView, LastPlay, MemberCubeView, render_image
from rendering.board import render_marks
from rendering.chouette import chouette_image
from rendering.marks import TextMark
from rendering.theme import THEMES, Theme
from tests.rendering.legibility import LEGIBLE, PHONE_WIDTH, Word, ink, lines_of_words

THEME_NAMES = sorted(THEMES)


def start(variant: Variant, **changes: object) -> BoardView:
    position = Position.start(variant)
    view = BoardView(
        variant=variant,
        sides=(position.player, position.opponent),
        length=7,
        cube_visible=variant is Variant.BACKGAMMON,
    )
    return replace(view, **changes)  # type: ignore[arg-type]


def board(view: BoardView, theme: Theme, **options: object) -> Image.Image:
    return render_image(view, theme=theme, names=("ANNA", "HEIKE"), **options)  # type: ignore[arg-type]


def chouette(view: BoardView, theme: Theme) -> Image.Image:
    members = [MemberCubeView("HEIKE", captain=True), MemberCubeView("ANNA", value=2)]
    return chouette_image(view, box="OLAF", captain="HEIKE", members=members, theme=theme)


def too_small(words: list[Word]) -> list[int]:
    return [word.height for word in words if word.height < LEGIBLE]


@pytest.mark.parametrize("theme_name", THEME_NAMES)
@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("draw", [board, chouette], ids=["board", "chouette"])
def test_point_numbers_are_legible_on_a_phone(
    draw: object, variant: Variant, theme_name: str
) -> None:
    theme = THEMES[theme_name]
    view = start(variant)
    drawing = draw  # board or chouette
    assert callable(drawing)
    shown = drawing(view, theme)
    hidden = drawing(view, replace(theme, frame_text=theme.frame))
    lines = lines_of_words(ink(shown, hidden, theme.frame_text, theme.frame))
    assert [len(words) for words in lines] == [12, 12]  # 13..24 above, 12..1 below
    for words in lines:
        assert not too_small(words), f"point numbers {too_small(words)} pixels tall"


@pytest.mark.parametrize("theme_name", THEME_NAMES)
@pytest.mark.parametrize("variant", list(Variant))
def test_pip_counts_are_legible_on_a_phone(variant: Variant, theme_name: str) -> None:
    theme = THEMES[theme_name]
    view = start(variant, turn=0)
    shown = board(view, theme)
    hidden = board(view, replace(theme, muted_text=theme.background))
    lines = lines_of_words(ink(shown, hidden, theme.muted_text, theme.background))
    assert len(lines) == 2  # "Pips: 167" (or 360 in long nardy) in each band
    counts = [words[-1] for words in lines]
    assert not too_small(counts), f"pip counts {too_small(counts)} pixels tall"


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_names_scores_and_match_length_are_legible_on_a_phone(theme_name: str) -> None:
    theme = THEMES[theme_name]
    view = start(Variant.BACKGAMMON, score=(3, 5))  # nobody to act: both names plain text
    shown = board(view, theme)
    hidden = board(view, replace(theme, text=theme.background))
    top, bottom = lines_of_words(ink(shown, hidden, theme.text, theme.background))
    # Above: "HEIKE", her score 5, "Match to 7"; below: "ANNA" and her score 3.
    assert len(top) >= 3
    assert len(bottom) == 2
    shown_words = [top[0], top[1], top[-1], *bottom]
    assert not too_small(shown_words), f"{too_small(shown_words)} pixels tall"


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_the_last_play_is_legible_on_a_phone(theme_name: str) -> None:
    theme = THEMES[theme_name]
    view = start(Variant.BACKGAMMON, turn=None)
    play = LastPlay.from_text("13/10 13/11", 0)
    shown = board(view, theme, last_play=play)
    hidden = board(view, replace(theme, accent=theme.background), last_play=play)
    lines = lines_of_words(ink(shown, hidden, theme.accent, theme.background))
    status = lines[-1]  # "ANNA: 13/10 13/11" at the right of the bottom band
    assert len(status) == 3
    assert not too_small(status), f"{too_small(status)} pixels tall"


def test_a_long_last_play_is_set_smaller_between_the_pip_count_and_the_edge() -> None:
    theme = THEMES["classic"]
    view = start(Variant.BACKGAMMON, turn=None)
    play = LastPlay.from_text("24/18 18/12 12/6 13/7", 0)
    names = ("Анастасия Владимировна", "Bartholomew")
    shown = render_image(view, theme=theme, names=names, last_play=play)
    no_status = replace(theme, accent=theme.background)
    hidden = render_image(view, theme=no_status, names=names, last_play=play)
    status = lines_of_words(ink(shown, hidden, theme.accent, theme.background))[-1]
    no_pips = replace(theme, muted_text=theme.background)
    hidden = render_image(view, theme=no_pips, names=names, last_play=play)
    pips = lines_of_words(ink(shown, hidden, theme.muted_text, theme.background))[-1]
    assert pips[-1].right + 3 < status[0].left  # the status starts after the pip count
    assert status[-1].right <= PHONE_WIDTH - 4  # and ends inside the picture, with a margin
    assert pips[-1].height >= LEGIBLE
    _background, marks = render_marks(view, theme=theme, names=names, last_play=play)
    texts = [mark.text for mark in marks if isinstance(mark, TextMark)]
    play_text = ": 24/18 18/12 12/6 13/7"
    status_text = next(text for text in texts if text.endswith(play_text))
    name = status_text.removesuffix(play_text)
    assert name.endswith("…")  # the name is cut, never the play
    assert len(name) > 1
    assert names[0].startswith(name.removesuffix("…"))


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_the_cube_and_tall_stacks_are_legible_on_a_phone(theme_name: str) -> None:
    theme = THEMES[theme_name]
    sides = [0] * 26
    sides[6], sides[8], sides[13] = 7, 3, 5
    view = start(Variant.BACKGAMMON, sides=(tuple(sides), tuple(sides)), cube_value=8)
    view = replace(view, cube_owner=0)
    shown = board(view, theme)
    cube = ink(
        shown, board(view, replace(theme, cube_text=theme.cube)), theme.cube_text, theme.cube
    )
    light = replace(theme, label_on_light=theme.light_checker)
    dark = replace(theme, label_on_dark=theme.dark_checker)
    light_count = ink(shown, board(view, light), theme.label_on_light, theme.light_checker)
    dark_count = ink(shown, board(view, dark), theme.label_on_dark, theme.dark_checker)
    for mask, what in (
        (cube, "the cube's 8"),
        (light_count, "7 on White's six point"),
        (dark_count, "7 on Black's six point"),
    ):
        words = [word for line in lines_of_words(mask) for word in line]
        assert len(words) == 1, what
        assert not too_small(words), f"{what}: {too_small(words)} pixels tall"


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_chouette_names_are_legible_on_a_phone(theme_name: str) -> None:
    theme = THEMES[theme_name]
    view = start(Variant.BACKGAMMON, cube_visible=False)
    shown = chouette(view, theme)
    hidden = chouette(view, replace(theme, text=theme.tray))
    mask = ink(shown, hidden, theme.text, theme.tray)
    board_height = render_image(view, theme=theme).height * mask.width / shown.width
    panel = (0, math.ceil(board_height), mask.width // 2, mask.height)  # names and tags
    names = [words[0] for words in lines_of_words(mask.crop(panel))]
    assert len(names) == 2  # HEIKE (with the captain's tag) and ANNA
    assert not too_small(names), f"names {too_small(names)} pixels tall"
