"""The leaderboard picture: a golden image, an empty board, hostile names, only ten lines,
and the same bytes for the same input.

Rewrite the golden picture after an intended change (then look at it before committing it):

    python -m tests.rendering.regenerate_goldens
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rendering.leaderboard import (
    MAX_LINES,
    WIDTH,
    LeaderboardLabels,
    LeaderboardLine,
    draw_leaderboard,
)
from tests.rendering.compare import difference, picture

GOLDEN = Path(__file__).parent / "golden"
LABELS = LeaderboardLabels("Top 10 · backgammon · this chat")
PLAYERS = (
    ("Anna Groß", "1,712.4", "1,234"),
    ("Bob", "1,688.0", "410"),
    ("Дмитрий", "1,650.3", "97"),
    ("Eleni Παπαδοπούλου", "1,601.9", "15"),
    ("Eve", "1,590.0", "88"),
)


def top_five_and_me() -> bytes:
    lines = [
        LeaderboardLine(str(rank), name, rating, experience, own=rank == 4, place=rank)
        for rank, (name, rating, experience) in enumerate(PLAYERS, start=1)
    ]
    own = LeaderboardLine("57", "Zed", "1,480.2", "36", own=True, place=57)
    return draw_leaderboard(lines, LABELS, own)


SCENES: dict[str, Callable[[], bytes]] = {"leaderboard": top_five_and_me}


def test_the_leaderboard_matches_its_golden_image() -> None:
    rendered = picture(top_five_and_me())
    golden = picture((GOLDEN / "leaderboard.png").read_bytes())
    assert rendered.size == golden.size
    assert rendered.width == WIDTH
    mean, far = difference(rendered, golden)
    assert mean < 1.5, f"mean difference {mean:.2f}"
    assert far < 0.003, f"{far:.2%} of pixels differ clearly"


def test_the_comparison_would_notice_another_order() -> None:
    golden = picture((GOLDEN / "leaderboard.png").read_bytes())
    swapped = [
        LeaderboardLine(str(rank), name, rating, experience, place=rank)
        for rank, (name, rating, experience) in enumerate(reversed(PLAYERS), start=1)
    ]
    other = picture(draw_leaderboard(swapped, LABELS, LeaderboardLine("57", "Zed", "1", "3")))
    mean, far = difference(golden, other)
    assert far > 0.003 or mean > 1.5


def test_an_empty_board_says_so_and_is_smaller() -> None:
    empty = picture(draw_leaderboard([], LABELS))
    full = picture(top_five_and_me())
    assert empty.width == WIDTH
    assert empty.height < full.height


def test_only_ten_lines_are_drawn_and_hostile_names_are_harmless() -> None:
    many = [
        LeaderboardLine(str(n), "\x00\u202e" + "x" * 10_000 + "🎲", "1", "1", place=n)
        for n in range(1, 40)
    ]
    ten = picture(draw_leaderboard(many[:MAX_LINES], LABELS))
    all_of_them = picture(draw_leaderboard(many, LABELS))
    assert ten.size == all_of_them.size


def test_the_same_input_gives_the_same_bytes() -> None:
    assert top_five_and_me() == top_five_and_me()
