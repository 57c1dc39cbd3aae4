"""Checker plays as the default analysis values them (gnubg's 2-ply, the engine's "3ply", for
the plays a filter keeps and the play made): the errors gnubg's 2-ply analysis finds in a
beginner's match, weighed as gnubg weighs them; the values bgsage's own search gives."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from engine.api import CubeOwner, Level, Situation
from engine.backgammon import board_after, library_plays, rank_plays
from engine.backgammon_deep import analysis_plays, deep_plays
from engine.hints import situation_from_ids
from engine.levels import ANALYSIS_LEVEL, GNUBG_2PLY
from gammon import Position, parse_play
from gammon.mat_format import read_mat
from tests.analysis_reference import gnubg_losses

REFERENCE = Path(__file__).resolve().parent.parent / "data" / "gnubg-analysis-reference.json"

BEGINNER = "5p-beginner-intermediate-101"
EXPERT = "7p-intermediate-expert-107"

# Plays in cached matches that gnubg's 2-ply analysis marks as errors (0.04 EMG or more): the
# match, the decision's key in gnubg's analysis (game, row of the .mat file, player, kind),
# the board and Match ID before the play (as the record has them), the dice and the play.
# The beginner's, in game 1 of a 5-point match; and two of the bot's at expert, which the
# plain net it plays with (the quick analysis) calls the best plays.
MARKED_ERRORS = [
    (BEGINNER, (1, 5, 0, "checker"), "sGfJASiYV/AAMg", "MIGlAAAAAAAE", (3, 1), "13/10 8/7"),
    (BEGINNER, (1, 9, 0, "checker"), "sGfhACrYbuAAMQ", "EQGnAAAAAAAE", (1, 6), "21/15 6/5"),
    (BEGINNER, (1, 15, 0, "checker"), "bDsDABvYtpEBMA", "EQG3AAAAAAAE", (5, 6), "24/18 11/6"),
    (BEGINNER, (1, 25, 0, "checker"), "9m0GAAzYbgMBWA", "EwG3AAAAAAAE", (5, 6), "bar/19 14/9"),
    (BEGINNER, (1, 26, 0, "checker"), "7rsBAAzYbgtAMA", "EwG3AAAAAAAE", (5, 6), "19/8"),
    (BEGINNER, (1, 32, 0, "checker"), "fe8AAAxjt20AAA", "EwGlAAAAAAAE", (2, 1), "7/6 7/5"),
    (EXPERT, (2, 18, 1, "checker"), "22wEsECbOy4QAA", "QQnvAEAAAAAE", (6, 3), "15/6*"),
    (EXPERT, (3, 12, 1, "checker"), "7G6hBAjm3R0AAA", "QYnyAEAAIAAE", (4, 5), "6/1 5/1"),
]


@functools.cache
def gnubg_losses_of(name: str) -> dict[tuple[int, int, int, str], float]:
    matches = json.loads(REFERENCE.read_text(encoding="utf-8"))["matches"]
    entry = next(entry for entry in matches if entry["name"] == name)
    return dict(gnubg_losses(entry["gnubg"], read_mat(entry["mat"]).names))


def test_the_cases_are_gnubgs_marked_errors() -> None:
    losses = [gnubg_losses_of(name)[key] for name, key, *_rest in MARKED_ERRORS]
    assert min(losses) >= 0.04


@pytest.mark.parametrize(
    ("name", "key", "position_id", "match_id", "dice", "played"),
    MARKED_ERRORS,
    ids=[f"{case[0].split('-')[1]}, game {case[1][0]} row {case[1][1]}" for case in MARKED_ERRORS],
)
def test_the_default_analysis_weighs_an_error_as_gnubgs_2_ply(
    name: str,
    key: tuple[int, int, int, str],
    position_id: str,
    match_id: str,
    dice: tuple[int, int],
    played: str,
) -> None:
    """The plain net (the quick level, the default before) and one roll of look-ahead (the
    old world class) call most of these errors smaller or none; gnubg's depth weighs them as
    gnubg does: within a quarter of gnubg's figure or 0.02 EMG."""
    situation, _dice = situation_from_ids(position_id, match_id)
    result_id = parse_play(played, situation.position, dice).result.id()
    ranked, choices = analysis_plays(situation, dice, ANALYSIS_LEVEL, result_id)
    ours = ranked[0].equity - next(play for play in ranked if play.result_id == result_id).equity
    expected = gnubg_losses_of(name)[key]
    assert choices > 1
    assert abs(ours - expected) <= max(0.02, 0.25 * expected), (ours, expected)


def money(position: Position, **cube: Any) -> Situation:
    return Situation(position=position, **cube)


def bgsages_values(situation: Situation, dice: tuple[int, int]) -> dict[tuple[int, ...], float]:
    return {move.board: move.equity for move in library_plays(situation, dice, "3ply")}


@pytest.mark.parametrize(
    "situation",
    [
        situation_from_ids("9m0GAAzYbgMBWA", "EwG3AAAAAAAE")[0],  # 5-point match, 2-4
        money(Position.from_id("9m0GAAzYbgMBWA"), cube_value=2, cube_owner=CubeOwner.DECIDER),
        money(Position.from_id("9m0GAAzYbgMBWA"), jacoby=True, beavers=True),
    ],
    ids=["match", "money, own cube", "money, Jacoby and beavers"],
)
def test_each_play_searched_has_bgsages_own_value_at_that_depth(situation: Situation) -> None:
    """bgsage's ``checker_play`` at "3ply" (gnubg's 2-ply) values every play so; the search
    values the filter's few and the play made (here the worst), the same way."""
    dice = (5, 6)
    every = rank_plays(situation, dice, Level.EXPERT)
    worst = every[-1].result_id
    searched, choices = deep_plays(situation, dice, GNUBG_2PLY, worst)
    assert choices == len(every) == 5
    assert worst in {play.result_id for play in searched}
    assert len(searched) < len(every)  # the filter left some out
    expected = bgsages_values(situation, dice)
    by_id = {play.result_id: play for play in every}
    for play in searched:
        board = board_after(Position.from_id(play.result_id))
        assert by_id[play.result_id].notation == play.notation
        assert play.equity == pytest.approx(expected[board], abs=1e-6)
    assert [play.equity for play in searched] == sorted(
        (play.equity for play in searched), reverse=True
    )


def test_a_forced_roll_is_not_searched() -> None:
    # Two checkers on the bar against a board closed but for its ace point: 6-6 enters
    # nowhere, 6-1 one checker, one way.
    theirs = {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 5}
    position = Position.from_points({25: 2, 13: 5, 8: 3, 6: 5}, theirs)
    situation = money(position)
    assert deep_plays(situation, (6, 6), GNUBG_2PLY, "") == ((), 0)
    (only,), choices = deep_plays(situation, (6, 1), GNUBG_2PLY, "")
    assert choices == 1
    assert only.loss == 0.0
