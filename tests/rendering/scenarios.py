"""The golden pictures: each a small scene built through the engine, as a player would see it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from gammon import Position, Variant, parse_play
from gammon.actions import Move, OpeningRoll, Roll
from gammon.flow import MatchState, Phase, apply, new_match
from gammon.match_rules import MatchRules
from rendering import LastPlay, render_board

NAMES = ("Anna Groß", "Дмитрий")


def opening() -> bytes:
    """Anna has won the opening roll 3-1 (one die each) and is to play."""
    state = apply(new_match(MatchRules(length=5)), OpeningRoll((3, 1)))
    return render_board(state, names=NAMES)


def bar_and_hit() -> bytes:
    """The rule text's example: Anna hits with 13/10* 6/5; Дмитрий has rolled 6-2 on the bar."""
    white = {5: 1, 6: 4, 8: 3, 13: 5, 24: 2}
    black = {25 - point: count for point, count in {1: 2, 10: 1, 12: 5, 17: 3, 19: 4}.items()}
    position = Position.from_points(white, black)
    state = replace(
        new_match(MatchRules(length=7)),
        phase=Phase.MOVING,
        position=position,
        dice=(3, 1),
        score=(2, 4),
    )
    play = parse_play("13/10* 6/5", position, (3, 1))
    state = apply(apply(state, Move(0, "13/10* 6/5")), Roll(1, (6, 2)))
    return render_board(state, names=NAMES, last_play=LastPlay.from_play(play, 0))


def bear_off() -> bytes:
    """Both sides bearing off in the Crawford game; trays with 6 and 1 checkers."""
    anna = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}
    dmitry = {6: 1, 5: 2, 4: 2, 3: 3, 2: 3, 1: 3}
    state = replace(
        new_match(MatchRules(length=3)),
        phase=Phase.ROLLING,
        position=Position.from_points(anna, dmitry),
        score=(1, 2),
        crawford_game=True,
    )
    return render_board(state, names=NAMES)


def cube_offered() -> bytes:
    """Дмитрий owns a 2-cube and redoubles to 4; Anna must answer."""
    state = replace(
        new_match(MatchRules(length=9)),
        phase=Phase.DOUBLED,
        player_on_roll=1,
        cube_value=2,
        cube_owner=1,
        score=(3, 5),
    )
    return render_board(state, names=NAMES)


def cube_owned_dark() -> bytes:
    """The dark theme: Anna owns the cube at 2, Дмитрий has rolled 5-5."""
    state = replace(
        new_match(MatchRules(length=9)),
        phase=Phase.MOVING,
        player_on_roll=1,
        dice=(5, 5),
        cube_value=2,
        cube_owner=0,
        score=(3, 5),
    )
    return render_board(state, names=NAMES, theme="dark")


def long_nardy() -> bytes:
    """Long nardy after a few plays, both heads still loaded; Anna holds White."""
    state = apply(new_match(MatchRules(length=5, variant=Variant.LONG_NARDY)), OpeningRoll((5, 2)))
    for action in (
        Roll(0, (6, 5)),
        Move(0, "24/13"),
        Roll(1, (3, 3)),
        Move(1, "24/21 24/15"),
        Roll(0, (4, 2)),
    ):
        state = apply(state, action)
    before = state.position
    state = apply(state, Move(0, "24/20 13/11"))
    last = LastPlay.from_play(parse_play("24/20 13/11", before, (4, 2)), 0)
    return render_board(apply(state, Roll(1, (6, 1))), names=NAMES, last_play=last)


# The labels of three languages as a player of each would read them, written out here so the
# pictures test the drawing of each script (shaping, direction), not the wording of a catalog.
RUSSIAN = {
    "long_nardy_to": "Длинные нарды · до {length}",
    "pips": "Пипсы: {pips}",
    "played": "{name}: {play}",
}
GREEK = {"match_to": "Ματς στους {length}", "pips": "Πιπς: {pips}", "crawford": "Κρόφορντ"}
ARABIC = {
    "match_to": "مباراة حتى {length}",
    "pips": "الخطوات: {pips}",
    "doubles": "{name} يضاعف إلى {value}",
}


def cyrillic_long_nardy() -> bytes:
    """A Russian long nardy board: Дмитрий against Ольга, the last play marked."""
    state = apply(new_match(MatchRules(length=5, variant=Variant.LONG_NARDY)), OpeningRoll((6, 3)))
    before = apply(state, Roll(0, (6, 3))).position
    state = apply(apply(state, Roll(0, (6, 3))), Move(0, "24/18 18/15"))
    last = LastPlay.from_play(parse_play("24/18 18/15", before, (6, 3)), 0)
    return render_board(state, names=("Дмитрий", "Ольга"), last_play=last, labels=RUSSIAN)


def greek_crawford() -> bytes:
    """A Greek board in the Crawford game: Γιώργος against Ελένη."""
    state = replace(
        apply(new_match(MatchRules(length=7)), OpeningRoll((5, 2))),
        score=(6, 4),
        crawford_game=True,
    )
    return render_board(state, names=("Γιώργος", "Ελένη"), labels=GREEK)


def arabic_double() -> bytes:
    """An Arabic board, shaped and right to left: سارة has doubled علي to 2."""
    state = replace(new_match(MatchRules(length=5)), phase=Phase.DOUBLED, player_on_roll=1)
    return render_board(state, names=("علي", "سارة"), labels=ARABIC)


SCENES: dict[str, Callable[[], bytes]] = {
    "cyrillic_long_nardy": cyrillic_long_nardy,
    "greek_crawford": greek_crawford,
    "arabic_double": arabic_double,
    "opening": opening,
    "bar_and_hit": bar_and_hit,
    "bear_off": bear_off,
    "cube_offered": cube_offered,
    "cube_owned_dark": cube_owned_dark,
    "long_nardy": long_nardy,
}


def state_for_tests() -> MatchState:
    """A state mid-game, for tests that only need some picture."""
    return apply(new_match(MatchRules(length=5)), OpeningRoll((6, 4)))
