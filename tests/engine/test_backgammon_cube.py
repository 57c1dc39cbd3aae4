"""The engine's cube action against GNU Backgammon's answers (gnubg 1.07, 2-ply hint; each
position says what gnubg printed), at the expert's and the world class's level, for hints and
for the bot's own doubles."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.api import CubeVerdict, Decision, Level, Situation
from engine.backgammon_cube import cube_advice, cube_equities
from engine.decide import decide
from engine.hints import action_name, situation_from_ids
from gammon import Position
from gammon.flow import Phase, new_match
from gammon.match_rules import MatchRules

LEVELS = (Level.EXPERT, Level.WORLD_CLASS)

# 5-point match, the player on roll 4-away against 1-away after the Crawford game. gnubg:
# no double +1.338, double/take +3.011, double/pass +1.000: "Too good to double, pass".
POST_CRAWFORD_TOO_GOOD = ("n4MAg0M3uhBQEg", "cAmgAEAACAAA")


@pytest.mark.parametrize("level", LEVELS)
def test_post_crawford_the_trailer_too_good_plays_on(level: Level) -> None:
    situation, dice = situation_from_ids(*POST_CRAWFORD_TOO_GOOD)
    assert (dice, situation.away, situation.crawford) == (None, (4, 1), False)
    advice = cube_advice(situation, level)
    assert advice.verdict is CubeVerdict.TOO_GOOD_PASS
    assert (advice.double, advice.take) == (False, False)
    assert advice.no_double > advice.double_pass < advice.double_take
    assert action_name(advice, redouble=False) == "Too good to double, pass"


@pytest.mark.parametrize("level", LEVELS)
def test_post_crawford_the_bot_plays_on_for_the_gammon(level: Level) -> None:
    """The same position in a match: the bot, trailing, rolls instead of cashing a point."""
    situation, _ = situation_from_ids(*POST_CRAWFORD_TOO_GOOD)
    state = replace(
        new_match(MatchRules(length=5)),
        phase=Phase.ROLLING,
        position=situation.position,
        score=(1, 4),
        crawford_used=True,
    )
    assert Situation.of(state, 0).away == (4, 1)
    assert decide(state, 0, level, seed=0) == Decision("roll")


# 2-away against 4-away, a race of 73.4 % without gammons. gnubg: no double +0.683,
# double/take +0.254, double/pass +1.000: "No double, take". After a double the 4-away taker
# redoubles to 4 at once (any win of the doubler at 2 ends the match anyway), so a take is a
# one-game match at 73.4 %.
AUTOMATIC_REDOUBLE = "/zsIAgB/nRMAAA"


def test_after_a_double_the_takers_free_redouble_counts() -> None:
    situation = Situation(Position.from_id(AUTOMATIC_REDOUBLE), away=(2, 4))
    chances = [0.734, 0.0, 0.0, 0.0, 0.0]  # gnubg's 2-ply chances
    assert cube_equities(situation, chances).double_take == pytest.approx(0.254, abs=0.005)


# 7-point match, 3-away (cube 2, his) against 7-away: all his checkers back, three in her home
# board, hers nearly all off; a gammon or backgammon is all but certain. gnubg 1.07's 2-ply
# analysis of the match (tests/data/gnubg-analysis-reference.json, 7p-intermediate-
# intermediate-105, game 4 row 24) normalised to the cube: no double -2.139, double/take
# -5.989. A redouble to 4 loses the match with the gammon; the taker keeps the cube, for a
# redouble of hers to 8 would let him pass it and lose only 4 points.
GAMMON_LOSS_REDOUBLE = ("NwAAwLjOEWAAAA", "AQHgAEAAAAAE")


def test_the_taker_keeps_the_cube_when_her_gammons_win_the_match() -> None:
    situation, _ = situation_from_ids(*GAMMON_LOSS_REDOUBLE)
    assert (situation.away, situation.cube_value) == ((3, 7), 2)
    advice = cube_advice(situation, Level.EXPERT)
    assert advice.no_double == pytest.approx(-2.139, abs=0.05)
    assert advice.double_take == pytest.approx(-5.989, abs=0.1)
    assert not advice.double


@pytest.mark.parametrize("level", LEVELS)
def test_a_double_the_taker_redoubles_for_free_is_no_double(level: Level) -> None:
    situation = Situation(Position.from_id(AUTOMATIC_REDOUBLE), away=(2, 4))
    advice = cube_advice(situation, level)
    assert advice.verdict is CubeVerdict.NO_DOUBLE
    assert advice.double_take < advice.no_double


@pytest.mark.parametrize("level", LEVELS)
def test_a_sure_win_without_gammons_is_doubled_and_passed(level: Level) -> None:
    """One checker left, on the ace point, against a side that has borne one off: the win
    is sure and no gammon is left. gnubg: no double = double/pass = +1.000, "Double, pass"."""
    advice = cube_advice(Situation(Position.from_id("31MHAIAAAAAAAA")), level)
    assert advice.verdict is CubeVerdict.DOUBLE_PASS
    assert (advice.double, advice.take) == (True, False)


# --- Jacoby and beavers (money) ----------------------------------------------------------------

# gnubg: without Jacoby no double +1.292, double/take +2.535: "Too good to double, pass"; with
# Jacoby no double +0.997, double/take +2.511: "Double, pass".
GAMMONISH = "fu8AIEDbbQcQAA"
# gnubg: no double +0.088, double/take -0.201: "No double, take"; with beavers "No double,
# beaver".
SLIGHT_EDGE = "jLfBwQDMncEBAw"


@pytest.mark.parametrize("level", LEVELS)
def test_the_jacoby_rule_turns_too_good_into_a_cash(level: Level) -> None:
    position = Position.from_id(GAMMONISH)
    assert cube_advice(Situation(position), level).verdict is CubeVerdict.TOO_GOOD_PASS
    jacoby = cube_advice(Situation(position, jacoby=True), level)
    assert (jacoby.verdict, jacoby.double) == (CubeVerdict.DOUBLE_PASS, True)


@pytest.mark.parametrize("level", LEVELS)
def test_beavers_turn_a_take_into_a_beaver(level: Level) -> None:
    position = Position.from_id(SLIGHT_EDGE)
    plain = cube_advice(Situation(position), level)
    assert (plain.verdict, plain.take, plain.beaver) == (CubeVerdict.NO_DOUBLE, True, False)
    beavers = cube_advice(Situation(position, beavers=True), level)
    assert (beavers.verdict, beavers.take, beavers.beaver) == (CubeVerdict.NO_DOUBLE, True, True)
    assert action_name(beavers, redouble=False) == "No double, beaver"


def test_jacoby_and_beavers_are_money_options_only() -> None:
    """In a match neither counts (gnubg ignores both there): the IDs of a match with the
    options asked for give the match's own action."""
    match_id = POST_CRAWFORD_TOO_GOOD[1]
    with_options, _ = situation_from_ids(
        POST_CRAWFORD_TOO_GOOD[0], match_id, jacoby=True, beavers=True
    )
    without, _ = situation_from_ids(*POST_CRAWFORD_TOO_GOOD)
    assert with_options == without
