"""Board picture speed and size at the default width over 300 varied positions.

Positions come from the GNU Backgammon oracle file (every 7th, with its dice, a cube, a score
and the last play highlighted) plus long nardy self-play positions. Prints one JSON object as
its last line: render-plus-encode median and p99 (ms), encode alone (the finished picture to
PNG bytes, in the palette the bot chose once for the theme, size and variant) median, their
ratio, and PNG sizes (KB, median and max); and the analysis chart of a 400-decision match
(median and worst of 20 drawings, ms); and a 64-player knockout's picture with consolation and
last chance, drawn and encoded (median and p99 of 50 drawings, ms; issue 39 asks for at most
100), and the same for a 64-player double elimination (the widest bracket) as the bot describes it.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bot.core.text.i18n import speech  # noqa: E402
from bot.core.tournament.picture import PictureOf  # noqa: E402
from bot.core.tournament.settings import Kind  # noqa: E402
from gammon import Position, Variant, legal_plays  # noqa: E402
from gammon.tournament import DoubleElimination  # noqa: E402
from rendering import (  # noqa: E402
    BoardView,
    ChartError,
    ChartLabels,
    LastPlay,
    draw_analysis_chart,
    render_image,
)
from rendering.board import board_palette  # noqa: E402
from rendering.palette import encode_in_palette  # noqa: E402
from rendering.theme import THEMES  # noqa: E402
from rendering.tournament import draw_tournament  # noqa: E402
from rendering.tournament_view import TournamentPicture  # noqa: E402
from tests.rendering.tournament_scenes import sixty_four_players  # noqa: E402

DATA = ROOT / "tests" / "data" / "gnubg-plays-2000.jsonl"
BACKGAMMON_CASES = 240
NARDY_CASES = 60


def views(rng: random.Random) -> list[tuple[BoardView, LastPlay | None]]:
    cases: list[tuple[BoardView, LastPlay | None]] = []
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]
    for row in rows[::7][:BACKGAMMON_CASES]:
        before = Position.from_id(row["pos_id"])
        plays = legal_plays(before, row["dice"])
        position = rng.choice(plays).result if plays else before.swapped()
        last = LastPlay.from_play(rng.choice(plays), 0) if plays else None
        view = BoardView(
            variant=Variant.BACKGAMMON,
            sides=(position.opponent, position.player),
            turn=1,
            on_roll=1,
            dice=(rng.randint(1, 6), rng.randint(1, 6)),
            cube_value=rng.choice([1, 2, 4, 8]),
            cube_owner=rng.choice([None, 0, 1]),
            score=(rng.randint(0, 6), rng.randint(0, 6)),
            length=7,
        )
        cases.append((view, last))
    position = Position.start(Variant.LONG_NARDY)
    while len(cases) < BACKGAMMON_CASES + NARDY_CASES:
        plays = legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6)))
        if not plays:
            position = position.swapped()
            continue
        play = rng.choice(plays)
        if play.result.opponent[0] == 15:
            position = Position.start(Variant.LONG_NARDY)
            continue
        position = play.result
        view = BoardView(
            variant=Variant.LONG_NARDY,
            sides=(position.opponent, position.player),
            turn=1,
            length=5,
            cube_visible=False,
        )
        cases.append((view, LastPlay.from_play(play, 0)))
    return cases


def palette(view: BoardView) -> Image.Image:
    """The palette the bot encodes this board in (chosen once per theme, size and variant)."""
    return board_palette(THEMES["classic"], 960, view.variant)


def analysis_chart_ms() -> list[float]:
    """The analysis chart of a long match (400 decisions, five games, six errors marked):
    milliseconds per drawing, over 20 drawings after a warm one."""
    chances = [0.5 + 0.45 * math.sin(index / 9) for index in range(400)]
    starts = [0, 90, 170, 260, 330]
    errors = [ChartError(index, index % 2, 0.1) for index in range(7, 400, 70)]
    names = ("Anna Groß", "Дмитрий")
    labels = ChartLabels(
        title="Match 12: Anna Groß vs Дмитрий",
        y_axis="Anna Groß's chance to win the match",
        x_axis="moves",
        game="Game {number}",
    )
    draw_analysis_chart(chances, starts, errors, names, labels)  # fonts and caches warm
    timings: list[float] = []
    for _ in range(20):
        started = time.perf_counter()
        draw_analysis_chart(chances, starts, errors, names, labels)
        timings.append((time.perf_counter() - started) * 1000)
    return sorted(timings)


def double_elimination_64() -> TournamentPicture:
    """A 64-player double elimination before its first result, as ``/tournament`` draws it."""
    players = list(range(1, 65))
    names = {player: f"Player {player} of the club" for player in players}
    view = DoubleElimination().view(players, {})
    return PictureOf(speech("en"), players, names, {}).picture("Big open", Kind.DOUBLE, view)


def bracket_64_ms(picture: TournamentPicture) -> list[float]:
    """``picture`` drawn and encoded: milliseconds per picture, over 50 after a warm one (the
    palette is chosen then)."""
    draw_tournament(picture)
    timings: list[float] = []
    for _ in range(50):
        started = time.perf_counter()
        draw_tournament(picture)
        timings.append((time.perf_counter() - started) * 1000)
    return sorted(timings)


def main() -> None:
    rng = random.Random(5)
    cases = views(rng)
    names = ("Anna Groß", "Дмитрий")
    for view, last in cases[:5]:  # warm the caches of every theme-independent piece
        encode_in_palette(render_image(view, names=names, last_play=last), palette(view))
    totals: list[float] = []
    encodes: list[float] = []
    sizes: list[int] = []
    for view, last in cases:
        started = time.perf_counter()
        image = render_image(view, names=names, last_play=last)
        middle = time.perf_counter()
        png = encode_in_palette(image, palette(view))
        finished = time.perf_counter()
        totals.append((finished - started) * 1000)
        encodes.append((finished - middle) * 1000)
        sizes.append(len(png))
    totals.sort()
    encode_median = statistics.median(encodes)
    charts = analysis_chart_ms()
    brackets = bracket_64_ms(sixty_four_players())
    doubles = bracket_64_ms(double_elimination_64())
    print(
        json.dumps(
            {
                "pictures": len(cases),
                "width": image.width,
                "height": image.height,
                "render_and_encode_ms_median": round(statistics.median(totals), 2),
                "render_and_encode_ms_p99": round(totals[int(len(totals) * 0.99)], 2),
                "encode_only_ms_median": round(encode_median, 2),
                "total_over_encode_ratio": round(statistics.median(totals) / encode_median, 2),
                "png_kb_median": round(statistics.median(sizes) / 1024, 1),
                "png_kb_max": round(max(sizes) / 1024, 1),
                "analysis_chart_400_decisions_ms_median": round(statistics.median(charts), 2),
                "analysis_chart_400_decisions_ms_p99": round(charts[-1], 2),
                "bracket_64_ms_median": round(statistics.median(brackets), 2),
                "bracket_64_ms_p99": round(brackets[int(len(brackets) * 0.99)], 2),
                "bracket_64_double_ms_median": round(statistics.median(doubles), 2),
                "bracket_64_double_ms_p99": round(doubles[int(len(doubles) * 0.99)], 2),
            }
        )
    )


if __name__ == "__main__":
    main()
