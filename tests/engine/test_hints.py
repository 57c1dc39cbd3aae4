"""Hints from gnubg's IDs: the best plays for the dice, or the cube action in gnubg's words."""

from __future__ import annotations

import json
import pickle

import pytest

from engine.api import (
    CubeAdvice,
    CubeOwner,
    CubeVerdict,
    Evaluation,
    Level,
    Probabilities,
    Situation,
)
from engine.hints import Hint, action_name, hint, situation_from_ids
from engine.records import hint_to_json
from gammon.match import GameState, Match
from gammon.position import Position

START = Position.start().id()


def match_id(**fields: object) -> str:
    return Match(**fields).id()  # type: ignore[arg-type]


def test_a_position_with_dice_is_the_mover_and_the_roll() -> None:
    ids = match_id(length=7, score=(2, 4), player_on_roll=1, turn=1, dice=(3, 1))
    situation, dice = situation_from_ids(START, ids)
    assert dice == (3, 1)
    assert situation == Situation(position=Position.start(), away=(3, 5))


def test_the_cube_is_seen_from_the_player_on_roll() -> None:
    ids = match_id(length=5, score=(3, 1), cube_value=2, cube_owner=0, player_on_roll=1, turn=1)
    situation, dice = situation_from_ids(START, ids)
    assert dice is None
    assert (situation.cube_value, situation.cube_owner) == (2, CubeOwner.OPPONENT)
    assert situation.away == (4, 2)
    mine = match_id(length=5, cube_value=2, cube_owner=1, player_on_roll=1, turn=1)
    assert situation_from_ids(START, mine)[0].cube_owner is CubeOwner.DECIDER


def test_a_double_offered_is_still_the_doublers_situation() -> None:
    """gnubg's Position ID shows the doubler's board while the taker is on turn."""
    ids = match_id(length=7, player_on_roll=0, turn=1, double_offered=True)
    situation, dice = situation_from_ids(START, ids)
    assert dice is None
    assert situation.cube_value == 1  # the cube as it was before the double
    assert situation.away == (7, 7)


def test_money_play_and_the_crawford_game() -> None:
    money, _dice = situation_from_ids(START, "cAkAAAAAAAAA")
    assert money.is_money
    assert not money.jacoby
    assert not money.beavers
    rules, _dice = situation_from_ids(START, "cAkAAAAAAAAA", jacoby=True, beavers=True)
    assert rules.jacoby
    assert rules.beavers
    crawford = match_id(length=5, score=(4, 2), crawford=True)
    assert situation_from_ids(START, crawford)[0].crawford


@pytest.mark.parametrize(
    ("position_id", "ids", "message"),
    [
        ("nonsense", "cAkAAAAAAAAA", "Position ID"),
        (START, "nonsense", "Match ID"),
        (START, match_id(game_state=GameState.OVER), "no game"),
        (START, match_id(length=5, double_offered=True, turn=1, dice=(3, 1)), "double"),
        (START, match_id(length=31), "1 to 25"),
        (START, match_id(length=5, score=(5, 2)), "over"),
        (Position.from_points({}, {6: 15}).id(), "cAkAAAAAAAAA", "borne off"),
    ],
)
def test_ids_that_make_no_position_to_play_are_refused(
    position_id: str, ids: str, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        situation_from_ids(position_id, ids)


def test_the_best_plays_of_an_opening_three_one() -> None:
    result = hint(Situation(position=Position.start()), (3, 1), Level.EXPERT)
    assert result.kind == "plays"
    assert result.cube is None
    assert len(result.plays) == 3
    assert result.plays[0].notation == "8/5 6/5"
    assert result.plays[0].difference == 0.0
    assert all(later.difference < 0 for later in result.plays[1:])
    equities = [play.equity for play in result.plays]
    assert equities == sorted(equities, reverse=True)
    assert hint(Situation(position=Position.start()), (1, 3), Level.EXPERT, count=1).plays == (
        result.plays[0],
    )


def test_a_roll_that_cannot_be_played_has_no_plays() -> None:
    closed = Position.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    result = hint(Situation(position=closed), (6, 6), Level.EXPERT)
    assert result.plays == ()


def test_the_cube_action_has_gnubgs_name_and_three_equities() -> None:
    result = hint(Situation(position=Position.start()), None, Level.EXPERT)
    assert result.kind == "cube"
    assert result.cube is not None
    assert result.cube.verdict is CubeVerdict.NO_DOUBLE
    assert result.cube.action == "No double, take"
    assert result.cube.double_pass == pytest.approx(1.0)
    assert result.cube.double_take < result.cube.no_double < result.cube.double_pass


def advice(verdict: CubeVerdict, *, take: bool = True, beaver: bool = False) -> CubeAdvice:
    chances = Probabilities(0.5, 0.1, 0.0, 0.1, 0.0)
    return CubeAdvice(
        verdict=verdict,
        no_double=0.0,
        double_take=0.0,
        double_pass=1.0,
        double=False,
        take=take,
        beaver=beaver,
        evaluation=Evaluation(chances, 0.0, 0.0),
    )


@pytest.mark.parametrize(
    ("verdict", "take", "beaver", "redouble", "name"),
    [
        (CubeVerdict.NO_DOUBLE, True, False, False, "No double, take"),
        (CubeVerdict.NO_DOUBLE, True, True, False, "No double, beaver"),
        (CubeVerdict.DOUBLE_TAKE, True, False, False, "Double, take"),
        (CubeVerdict.DOUBLE_PASS, False, False, False, "Double, pass"),
        (CubeVerdict.TOO_GOOD_PASS, False, False, False, "Too good to double, pass"),
        (CubeVerdict.TOO_GOOD_TAKE, True, False, False, "Too good to double, take"),
        (CubeVerdict.DOUBLE_BEAVER, True, True, False, "Double, beaver"),
        (CubeVerdict.DOUBLE_TAKE, True, False, True, "Redouble, take"),
        (CubeVerdict.NO_DOUBLE, True, False, True, "No redouble, take"),
        (CubeVerdict.TOO_GOOD_PASS, False, False, True, "Too good to redouble, pass"),
        (CubeVerdict.TOO_GOOD_TAKE, True, False, True, "Too good to redouble, take"),
        (CubeVerdict.NO_CUBE, True, False, False, "Cube not available"),
    ],
)
def test_action_names_are_gnubgs(
    verdict: CubeVerdict, take: bool, beaver: bool, redouble: bool, name: str
) -> None:
    assert action_name(advice(verdict, take=take, beaver=beaver), redouble=redouble) == name


def test_the_hint_json_shapes() -> None:
    plays = hint_to_json(hint(Situation(position=Position.start()), (6, 5), Level.EXPERT))
    assert json.loads(json.dumps(plays)) == plays
    assert set(plays) == {"kind", "dice", "plays", "cube"}
    assert (plays["kind"], plays["dice"], plays["cube"]) == ("plays", [6, 5], None)
    assert plays["plays"][0]["notation"] == "24/13"
    assert set(plays["plays"][0]) == {"notation", "equity", "difference"}
    cube = hint_to_json(hint(Situation(position=Position.start()), None, Level.EXPERT))
    assert (cube["kind"], cube["dice"], cube["plays"]) == ("cube", None, [])
    assert set(cube["cube"]) == {
        "verdict",
        "action",
        "no_double",
        "double_take",
        "double_pass",
        "double",
        "take",
        "beaver",
    }
    assert cube["cube"]["verdict"] == "no_double"


def test_a_hint_is_plain_and_picklable() -> None:
    result = hint(Situation(position=Position.start()), (4, 2), Level.EXPERT)
    assert isinstance(result, Hint)
    assert pickle.loads(pickle.dumps(result)) == result
    with pytest.raises(ValueError, match="at least one"):
        hint(Situation(position=Position.start()), (4, 2), Level.EXPERT, count=0)
    with pytest.raises(ValueError, match="die"):
        hint(Situation(position=Position.start()), (7, 2), Level.EXPERT)
