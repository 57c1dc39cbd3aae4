"""How an analysis reads: every listed error with the Position ID and Match ID of its moment,
the errors numbered as the picture's markers are, and nothing that rounds to zero."""

from __future__ import annotations

import re

from bot.core.computer.analysis_view import analysis_picture, analysis_text, listed_errors
from bot.core.text.i18n import speech
from engine.api import (
    AnalysedDecision,
    Chance,
    DecisionKind,
    Level,
    MatchAnalysis,
    PlayerAnalysis,
)
from rendering import ChartError

ENGLISH = speech("en")

# Bob's 3-1 after Anna's opening 4-2 in a 5-point match at 0-0: the IDs GNU Backgammon 1.07
# writes for that moment (the dice 3-1 in the Match ID).
BLUNDER = AnalysedDecision(
    game=1,
    move=1,
    player=1,
    kind=DecisionKind.CHECKER,
    position_id="mGfwATDgc/ABMA",
    match_id="cImlAAAAAAAE",
    dice=(3, 1),
    played="24/23 13/10",
    best="8/5 6/5",
    loss=0.226,
    luck=0.01,
    forced=False,
    win_chance=0.48,
)
# Anna's double in the same game, answered by a take: gnubg's IDs before and after the offer.
DOUBLE = AnalysedDecision(
    game=1,
    move=4,
    player=0,
    kind=DecisionKind.DOUBLE,
    position_id="4HPwgEgxT/AJIA",
    match_id="MAGgAAAAAAAE",
    dice=None,
    played="no double",
    best="double",
    loss=0.037,
    luck=0.0,
    forced=False,
    win_chance=0.55,
)
TINY = AnalysedDecision(  # an error that prints as 0.000: not worth a line
    game=1,
    move=5,
    player=0,
    kind=DecisionKind.CHECKER,
    position_id="4HPwgEgxT/AJIA",
    match_id="EQGlAAAAAAAE",
    dice=(2, 1),
    played="13/11 6/5*",
    best="13/11 6/5*",
    loss=0.0003,
    luck=0.0,
    forced=False,
    win_chance=0.52,
)
SECOND_GAME = AnalysedDecision(
    game=2,
    move=2,
    player=1,
    kind=DecisionKind.CHECKER,
    position_id="4HPwATDgc/ABMA",
    match_id="cIkkAAAAAAAE",
    dice=(6, 4),
    played="24/14",
    best="24/18 13/9",
    loss=0.05,
    luck=0.0,
    forced=False,
    win_chance=0.4,
)


def player(
    name: str, errors: tuple[AnalysedDecision, ...], *, cubes: int, luck: float
) -> PlayerAnalysis:
    checker = sum(error.loss for error in errors if error.kind is DecisionKind.CHECKER)
    cube = sum(error.loss for error in errors if error.kind is not DecisionKind.CHECKER)
    return PlayerAnalysis(
        name=name,
        checker_decisions=10,
        checker_error=checker,
        cube_decisions=cubes,
        cube_error=cube,
        error_rate=12.34,
        luck=luck,
        largest_errors=errors,
    )


ANALYSIS = MatchAnalysis(
    level=Level.EXPERT,
    players=(
        player("Anna", (DOUBLE, TINY), cubes=1, luck=0.0002),
        player("Bob", (BLUNDER, SECOND_GAME), cubes=0, luck=-0.3456),
    ),
    decisions=(BLUNDER, DOUBLE, TINY, SECOND_GAME),
    chance=Chance.MATCH,
)


def test_every_listed_error_has_both_ids_and_a_number() -> None:
    text = analysis_text(ENGLISH, 7, ANALYSIS)
    assert text.splitlines() == [
        "Analysis of match 7 (level expert):",
        "Anna: error rate 12.3 (PR) · checker play without error in 10 decisions"
        " · cube −0.037 in 1 decision",
        "  1. game 1, move 4, cube: no double, best double (−0.037), "
        "Position ID 4HPwgEgxT/AJIA, Match ID MAGgAAAAAAAE",
        "Bob: error rate 12.3 (PR) · checker play −0.276 in 10 decisions · luck −0.346",
        "  2. game 1, move 1, 3-1: played 24/23 13/10, best 8/5 6/5 (−0.226), "
        "Position ID mGfwATDgc/ABMA, Match ID cImlAAAAAAAE",
        "  3. game 2, move 2, 6-4: played 24/14, best 24/18 13/9 (−0.050), "
        "Position ID 4HPwATDgc/ABMA, Match ID cIkkAAAAAAAE",
        "Error rate: the average equity lost per decision × 500; lower is better.",
    ]


def test_nothing_that_rounds_to_zero_is_printed() -> None:
    text = analysis_text(ENGLISH, 7, ANALYSIS)
    assert "0.000" not in text
    assert "decisions: 0" not in text
    assert "cube" not in text.splitlines()[3]  # Bob had no cube decision
    assert "luck" not in text.splitlines()[1]  # Anna's luck was +0.0002
    idle = PlayerAnalysis("Carl", 0, 0.0, 0, 0.0, 0.0, 0.0, ())
    quiet = MatchAnalysis(Level.EXPERT, (idle, idle), ())
    assert analysis_text(ENGLISH, 8, quiet).splitlines()[1] == "Carl: no decision to judge"


def test_the_markers_carry_the_numbers_of_the_list() -> None:
    drawing = analysis_picture(ENGLISH, 7, ANALYSIS)
    chances, starts, errors, names, labels = drawing.args
    assert chances == [0.48, 0.55, 0.52, 0.4]
    assert starts == [0, 3]
    assert errors == [
        ChartError(1, 0, 0.037, 1),  # decision 1 (the double) is error 1 of the text
        ChartError(0, 1, 0.226, 2),
        ChartError(3, 1, 0.05, 3),
    ]
    text = analysis_text(ENGLISH, 7, ANALYSIS)
    for error in errors:
        decision = ANALYSIS.decisions[error.index]
        line = re.search(rf"^  {error.number}\. (.*)$", text, re.MULTILINE)
        assert line is not None
        assert f"Match ID {decision.match_id}" in line[1]
        assert f"game {decision.game}, move {decision.move}," in line[1]
    assert names == ("Anna", "Bob")
    assert labels.y_axis == "Anna's chance to win the match"


def test_money_play_and_old_analyses_chart_the_game() -> None:
    money = MatchAnalysis(ANALYSIS.level, ANALYSIS.players, ANALYSIS.decisions, Chance.GAME)
    labels = analysis_picture(ENGLISH, 7, money).args[4]
    assert labels.y_axis == "Anna's chance to win the game"


def test_the_numbering_runs_across_both_players() -> None:
    numbered = listed_errors(ANALYSIS)
    assert [[error.number for error in errors] for errors in numbered] == [[1], [2, 3]]


def test_the_analysis_reads_in_german() -> None:
    text = analysis_text(speech("de"), 7, ANALYSIS)
    assert "Positions-ID mGfwATDgc/ABMA" in text
    assert "Match-ID cImlAAAAAAAE" in text
    assert "0,226" in text
