"""Match analysis: a crafted blunder is found, cube decisions are judged, the JSON round trips.

The crafted match is hand-written in gnubg's .mat layout: Anna plays the engine's choice every
time (her opening 4-2, the double hit, a correct double) while Bob answers her opening with the
textbook mistake of not making his 5-point with 3-1 (24/23 13/10 instead of 8/5 6/5).
"""

from __future__ import annotations

import json
import pickle
from dataclasses import replace

import pytest

from engine.analysis import analyse_match
from engine.analysis_cube import CLOSE_CUBE, judge_answer, judge_double
from engine.analysis_summary import summarise
from engine.api import (
    AnalysedDecision,
    Chance,
    CubeAdvice,
    CubeVerdict,
    DecisionKind,
    Evaluation,
    Level,
    MatchAnalysis,
    Probabilities,
)
from engine.records import analysis_from_json, analysis_to_json
from gammon.actions import Move, OpeningRoll
from gammon.flow import replay
from gammon.mat_format import read_mat
from gammon.match_rules import MatchRules
from gammon.notation import parse_play
from gammon.position import Position, Variant

BLUNDER_MATCH = """\
; [Site "Hand written"]
; [Player 1 "Anna"]
; [Player 2 "Bob"]

 5 point match

 Game 1
 Anna : 0                        Bob : 0
  1) 42: 8/4 6/4                 31: 24/23 13/10
  2) 61: 8/2* 2/1*               52: 25/23 25/20
  3) 63: 24/15*                  44:
  4)  Doubles => 2                Takes
  5) 21: 13/11 6/5*              66:
  6) 32: 13/11 8/5
                                  Wins 2 points
"""

# The position after Anna's opening 8/4 6/4, from Bob's side: where he chose 24/23 13/10.
AFTER_OPENING_42 = parse_play("8/4 6/4", Position.start(), (4, 2)).result.id()


@pytest.fixture(scope="module")
def analysis() -> MatchAnalysis:
    record = read_mat(BLUNDER_MATCH)
    return analyse_match(record.rules, record.actions, record.names, Level.EXPERT)


def test_the_blunder_is_bobs_largest_error(analysis: MatchAnalysis) -> None:
    anna, bob = analysis.players
    assert (anna.name, bob.name) == ("Anna", "Bob")
    blunder = bob.largest_errors[0]
    assert blunder.kind is DecisionKind.CHECKER
    assert (blunder.game, blunder.move, blunder.player, blunder.dice) == (1, 1, 1, (3, 1))
    assert (blunder.played, blunder.best) == ("24/23 13/10", "8/5 6/5")
    assert blunder.loss > 0.1
    assert blunder.position_id == AFTER_OPENING_42
    assert bob.error_rate > 20
    largest_of_anna = max((error.loss for error in anna.largest_errors), default=0.0)
    assert largest_of_anna < 0.02
    assert anna.error_rate < 5


def test_every_decision_is_there_in_order(analysis: MatchAnalysis) -> None:
    rows = [
        (decision.move, decision.player, decision.kind.value, decision.played)
        for decision in analysis.decisions
        if not decision.forced or decision.kind is DecisionKind.CHECKER
    ]
    assert rows == [
        (1, 0, "checker", "8/4 6/4"),
        (1, 1, "checker", "24/23 13/10"),
        (2, 0, "checker", "8/2*/1*"),
        (2, 1, "checker", "bar/23 bar/20"),
        (3, 0, "checker", "24/15*"),
        (3, 1, "checker", ""),  # the dance
        (4, 0, "double", "double"),
        (4, 1, "take", "take"),
        (5, 0, "checker", "13/11 6/5*"),
        (5, 1, "checker", ""),
        (6, 0, "checker", "13/11 8/5"),
    ]
    entering = [decision for decision in analysis.decisions if decision.played == "bar/23 bar/20"]
    assert entering[0].forced  # the only legal play
    anna, bob = analysis.players
    assert (anna.checker_decisions, bob.checker_decisions) == (5, 1)
    assert (anna.cube_decisions, bob.cube_decisions) == (1, 1)


def test_luck_and_the_flow_of_the_match(analysis: MatchAnalysis) -> None:
    dances = [decision for decision in analysis.decisions if decision.played == ""]
    assert all(decision.luck < -0.3 for decision in dances)  # dancing is bad luck
    rolls_of_bob = [
        decision.luck
        for decision in analysis.decisions
        if decision.player == 1 and decision.kind is DecisionKind.CHECKER
    ]
    assert analysis.players[1].luck == pytest.approx(sum(rolls_of_bob))
    assert all(0.0 <= decision.win_chance <= 1.0 for decision in analysis.decisions)
    # Anna has hit twice and closed points: well ahead in a game that decides 2 points (of
    # the 5 she needs) or, with a gammon, 4; she has 35 % after losing 2, 65 % after winning 2.
    assert analysis.decisions[-1].win_chance > 0.55


# GNU Backgammon 1.07's own IDs for BLUNDER_MATCH (import mat, export match text): each move's
# Position ID and Match ID, with the dice of the decision, score, cube and whose turn it is.
GNUBG_IDS = {
    (1, "checker", "24/23 13/10"): ("mGfwATDgc/ABMA", "cImlAAAAAAAE"),  # Bob to play 31
    (1, "checker", "bar/23 bar/20"): ("MU/wATDgc+IBYA", "cImqAAAAAAAE"),  # Bob to play 52
    (0, "checker", "24/15*"): ("4HPiARExT/ABMA", "MAGvAAAAAAAE"),  # Anna to play 63
    (0, "double", "double"): ("4HPwgEgxT/AJIA", "MAGgAAAAAAAE"),  # Anna on roll, cube decision
    (1, "take", "take"): ("4HPwgEgxT/AJIA", "MBmgAAAAAAAE"),  # Anna doubles to 2
    (0, "checker", "13/11 6/5*"): ("4HPwgEgxT/AJIA", "EQGlAAAAAAAE"),  # Anna to play 21, cube 2
    (0, "checker", "13/11 8/5"): ("4HPwAGSxTuQJIA", "EYGpAAAAAAAE"),  # Anna to play 32
}


def test_the_ids_are_the_ones_gnubg_writes(analysis: MatchAnalysis) -> None:
    found = {
        (decision.player, decision.kind.value, decision.played): (
            decision.position_id,
            decision.match_id,
        )
        for decision in analysis.decisions
    }
    for key, ids in GNUBG_IDS.items():
        assert found[key] == ids, key


def test_the_ids_are_gnubgs_for_the_moment_before(analysis: MatchAnalysis) -> None:
    take = next(decision for decision in analysis.decisions if decision.kind is DecisionKind.TAKE)
    double = next(
        decision
        for decision in analysis.decisions
        if decision.kind is DecisionKind.DOUBLE and decision.played == "double"
    )
    assert take.position_id == double.position_id  # the doubler's board, as gnubg shows it
    assert take.match_id != double.match_id  # ... with the double offered
    assert take.dice is None


PASSED_MATCH = (
    BLUNDER_MATCH.split("  4)")[0]
    + """\
  4)  Doubles => 2                Drops
      Wins 1 point
"""
)

# Kazaross-XG2 (gnubg's met/Kazaross-XG2.xml, pre-Crawford table, row 4, column 5): needing 4
# points against 5.
KAZAROSS_4_AWAY_5_AWAY = 0.57732


def test_the_chances_are_match_winning_chances_in_a_match() -> None:
    record = read_mat(PASSED_MATCH)
    analysis = analyse_match(record.rules, record.actions, record.names, Level.BEGINNER)
    assert analysis.chance is Chance.MATCH
    passed = analysis.decisions[-1]
    assert (passed.kind, passed.played) == (DecisionKind.TAKE, "pass")
    # Bob passed: Anna wins the game's one point and needs 4 more, Bob still 5.
    assert passed.win_chance == pytest.approx(KAZAROSS_4_AWAY_5_AWAY, abs=1e-4)
    # The match is young: nobody's chance has strayed far from even.
    assert all(0.3 < decision.win_chance < 0.7 for decision in analysis.decisions)


def test_the_chances_are_game_winning_chances_in_money_play() -> None:
    record = read_mat(PASSED_MATCH)
    money = MatchRules(length=0)
    analysis = analyse_match(money, record.actions, record.names, Level.BEGINNER)
    assert analysis.chance is Chance.GAME
    assert analysis.decisions[-1].win_chance == 1.0  # the pass gave Anna the game


def test_an_analysis_stored_before_match_chances_reads_as_game_chances(
    analysis: MatchAnalysis,
) -> None:
    old = analysis_to_json(analysis)
    old["version"] = 1
    del old["chance"]
    read = analysis_from_json(json.loads(json.dumps(old)))
    assert read.chance is Chance.GAME
    assert read.decisions == analysis.decisions


def test_the_analysis_is_deterministic_and_reports_progress(analysis: MatchAnalysis) -> None:
    record = read_mat(BLUNDER_MATCH)
    calls: list[None] = []
    again = analyse_match(
        record.rules, record.actions, record.names, Level.EXPERT, lambda: calls.append(None)
    )
    assert again == analysis
    assert len(calls) == len(analysis.decisions)


def test_the_json_round_trips(analysis: MatchAnalysis) -> None:
    data = analysis_to_json(analysis)
    text = json.dumps(data)
    assert analysis_from_json(json.loads(text)) == analysis
    assert data["level"] == "expert"
    assert data["chance"] == "match"
    assert data["players"][1]["largest_errors"][0]["played"] == "24/23 13/10"
    assert data["decisions"][0]["dice"] == [4, 2]
    assert pickle.loads(pickle.dumps(analysis)) == analysis


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data.update(version=99),
        lambda data: data.update(chance="set"),
        lambda data: data.pop("chance"),
        lambda data: data.update(level="godlike"),
        lambda data: data["players"].pop(),
        lambda data: data["decisions"][0].update(dice=[1]),
        lambda data: data["decisions"][0].update(player=2),
        lambda data: data["decisions"][0].update(forced="no"),
        lambda data: data["decisions"][0].update(kind="resign"),
        lambda data: data["players"][0].update(luck="lots"),
        lambda data: data["players"][0].pop("name"),
        lambda data: data.update(decisions={}),
    ],
)
def test_damaged_json_is_refused(analysis: MatchAnalysis, damage: object) -> None:
    data = json.loads(json.dumps(analysis_to_json(analysis)))
    damage(data)  # type: ignore[operator]
    with pytest.raises(ValueError):  # noqa: PT011 - each damage has its own message
        analysis_from_json(data)


def test_long_nardy_is_not_analysed() -> None:
    rules = MatchRules(length=3, variant=Variant.LONG_NARDY)
    with pytest.raises(ValueError, match="long nardy"):
        analyse_match(rules, [], ("A", "B"), Level.EXPERT)


def test_an_invalid_record_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="Closest legal plays"):
        analyse_match(
            MatchRules(length=3),
            [OpeningRoll((3, 1)), Move(0, "8/5 6/1")],
            ("A", "B"),
            Level.EXPERT,
        )
    assert replay(MatchRules(length=3), [OpeningRoll((3, 1))]).dice == (3, 1)


# --- cube judgements and the summary, without the engine ---------------------------------------


def advice(nd: float, dt: float, dp: float = 1.0, beaver: bool = False) -> CubeAdvice:
    chances = Probabilities(0.6, 0.1, 0.0, 0.05, 0.0)
    return CubeAdvice(
        verdict=CubeVerdict.NO_DOUBLE,
        no_double=nd,
        double_take=dt,
        double_pass=dp,
        double=min(dt, dp) > nd,
        take=dt <= dp,
        beaver=beaver,
        evaluation=Evaluation(chances, cubeless_equity=nd, cubeful_equity=nd),
    )


def test_a_missed_double_and_a_wrong_double() -> None:
    missed = judge_double(advice(nd=0.6, dt=0.8), doubled=False)
    assert (missed.played, missed.best, missed.counted) == ("no double", "double", True)
    assert missed.loss == pytest.approx(0.2)
    early = judge_double(advice(nd=0.1, dt=-0.2), doubled=True)
    assert (early.best, early.counted) == ("no double", True)
    assert early.loss == pytest.approx(0.3)
    too_good = judge_double(advice(nd=1.4, dt=1.6), doubled=True)  # cashing a gammonish game
    assert too_good.loss == pytest.approx(0.4)


def test_only_close_no_doubles_count() -> None:
    assert not judge_double(advice(nd=0.1, dt=-0.2), doubled=False).counted
    close = judge_double(advice(nd=0.5, dt=0.5 - CLOSE_CUBE / 2), doubled=False)
    assert close.counted
    assert close.loss == 0.0


def test_takes_passes_and_beavers_from_the_takers_view() -> None:
    wrong_pass = judge_answer(advice(nd=0.3, dt=0.5), "pass", beavers=False)
    assert (wrong_pass.best, wrong_pass.counted) == ("take", True)
    assert wrong_pass.loss == pytest.approx(0.5)  # -1.0 instead of -0.5
    wrong_take = judge_answer(advice(nd=0.9, dt=1.3), "take", beavers=False)
    assert wrong_take.best == "pass"
    assert wrong_take.loss == pytest.approx(0.3)
    # A beaver is worth twice the take to the taker: +0.4 against the take's +0.2.
    beaver = advice(nd=-0.1, dt=-0.2, beaver=True)
    assert judge_answer(beaver, "beaver", beavers=True).loss == 0.0
    assert judge_answer(beaver, "take", beavers=True).loss == pytest.approx(0.2)


def decision(
    player: int, loss: float, *, kind: DecisionKind, forced: bool = False
) -> AnalysedDecision:
    return AnalysedDecision(
        game=1,
        move=1,
        player=player,
        kind=kind,
        position_id="4HPwATDgc/ABMA",
        match_id="cAkAAAAAAAAA",
        dice=None,
        played="x",
        best="y",
        loss=loss,
        luck=0.0,
        forced=forced,
        win_chance=0.5,
    )


def test_the_summary_counts_unforced_decisions_only() -> None:
    checker, cube = DecisionKind.CHECKER, DecisionKind.DOUBLE
    decisions = [
        decision(0, 0.02, kind=checker),
        decision(0, 0.0, kind=checker, forced=True),
        decision(0, 0.3, kind=cube),
        decision(0, 0.1, kind=checker),
        decision(0, 0.05, kind=checker),
        decision(1, 0.7, kind=checker),
    ]
    summary = summarise("Anna", 0, decisions, luck=0.25)
    assert (summary.checker_decisions, summary.cube_decisions) == (3, 1)
    assert summary.checker_error == pytest.approx(0.17)
    assert summary.cube_error == pytest.approx(0.3)
    assert summary.error_rate == pytest.approx(500 * 0.47 / 4)
    assert [error.loss for error in summary.largest_errors] == [0.3, 0.1, 0.05]
    assert summary.luck == 0.25
    empty = summarise("Nobody", 1, [replace(decisions[-1], player=0)], luck=0.0)
    assert (empty.error_rate, empty.largest_errors) == (0.0, ())
