"""Tournament pictures: golden images of a knockout with consolation, a double elimination
with a reset, two round-robin groups and a Swiss table; names cut to their box, the width of a
table picture, and the same bytes for the same input.

Rewrite the golden pictures after an intended change (then look at them before committing):

    python -m tests.rendering.regenerate_goldens
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rendering.tournament import draw_tournament
from rendering.tournament_style import TABLE_WIDTH
from rendering.tournament_view import Entry, TournamentPicture
from tests.rendering.compare import difference, picture
from tests.rendering.tournament_scenes import (
    PICTURES,
    SCENES,
    knockout_with_consolation,
    sixty_four_players,
    swiss_table,
)

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(SCENES))
def test_the_picture_matches_its_golden_image(name: str) -> None:
    rendered = picture(SCENES[name]())
    golden = picture((GOLDEN / f"{name}.png").read_bytes())
    assert rendered.size == golden.size
    mean, far = difference(rendered, golden)
    assert mean < 1.5, f"mean difference {mean:.2f}"
    assert far < 0.003, f"{far:.2%} of pixels differ clearly"


def test_the_comparison_would_notice_another_winner() -> None:
    golden = picture((GOLDEN / "tournament_knockout.png").read_bytes())
    shown = knockout_with_consolation()
    final = shown.brackets[0].rounds[2]
    other_final = replace(
        final,
        matches=(replace(final.matches[0], first=Entry("Zed", 9, "9", winner=True)),),
    )
    rounds = (*shown.brackets[0].rounds[:2], other_final)
    other = replace(shown, brackets=(replace(shown.brackets[0], rounds=rounds), shown.brackets[1]))
    mean, far = difference(golden, picture(draw_tournament(other)))
    assert far > 0.0005 or mean > 0.2


def test_tables_alone_are_as_wide_as_a_phone_can_read() -> None:
    assert picture(draw_tournament(swiss_table())).width == TABLE_WIDTH


def test_overlong_and_hostile_names_are_cut_to_their_box() -> None:
    shown = knockout_with_consolation()
    hostile = "\x00\u202e" + "x" * 10_000 + "🎲"
    first = shown.brackets[0].rounds[0]
    match = replace(first.matches[0], first=Entry(hostile, 1, "7", winner=True))
    rounds = (replace(first, matches=(match, *first.matches[1:])), *shown.brackets[0].rounds[1:])
    other = replace(shown, brackets=(replace(shown.brackets[0], rounds=rounds), shown.brackets[1]))
    assert picture(draw_tournament(other)).size == picture(draw_tournament(shown)).size


def test_sixty_four_players_make_a_tall_wide_picture_to_zoom_into() -> None:
    drawn = picture(draw_tournament(sixty_four_players()))
    # Six rounds of 210-pixel boxes 30 apart, in the frame's 2 x 36 pixels: 1362 wide.
    assert drawn.width == 6 * 210 + 5 * 30 + 2 * 36


def test_an_empty_picture_is_only_its_title() -> None:
    empty = picture(draw_tournament(TournamentPicture("Nothing yet")))
    assert empty.width == TABLE_WIDTH


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_the_same_input_gives_the_same_bytes(name: str) -> None:
    assert draw_tournament(PICTURES[name]()) == draw_tournament(PICTURES[name]())
