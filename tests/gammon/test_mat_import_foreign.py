""".mat files as GNU Backgammon, eXtreme Gammon and other servers write them.

The fixtures are written by hand in the shapes those programs produce (gnubg's ``ExportMatchMat``
layout: ``%3d) %-27s`` then the right cell, one die's step at a time with ``25`` for the bar and
``0`` for off, "Drops" and its "Wins" on one line; XG's header tags, ``bar/20``, ``(2)``,
``Cannot Move``, ``???`` and "and the match"; a money session with a beaver). Random matches
are also written out in gnubg's layout by :func:`gnubg_text` and must read back unchanged.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon.actions import Action, Beaver, CannotMove, Double, Drop, Move, OpeningRoll, Roll, Take
from gammon.fair_dice import FairDice
from gammon.flow import MatchState, Phase, advance, apply, new_match, replay
from gammon.mat_format import MatFormatError, import_mat, read_mat
from gammon.match_rules import MatchRules
from gammon.notation import parse_play
from gammon.position import BAR, OFF
from tests.gammon.test_mat_format import essentials

GNUBG_MATCH = """\
; [Site "Hand written"]
; [Event "Fixture"]
; [EventDate "2026.01.05"]

 3 point match

 Game 1
 Anna : 0                        Bob : 0
  1) 31: 8/5 6/5                 64: 24/18 13/9
  2) 62: 13/7* 13/11             65:
  3) 43: 11/7 8/5                52: 25/23 13/8
  4)  Doubles => 2                Takes
  5) 66: 24/18 24/18 13/7 13/7   31: 8/5 6/5
  6) 21: 13/11 6/5                Doubles => 4
  7)  Drops                       Wins 2 points

 Game 2
 Anna : 0                        Bob : 2
  1)                             52: 13/8 13/11
  2) 33: 8/5 8/5 6/3 6/3         61: 13/7 8/7
  3) 44: 24/20 24/20 13/9 13/9
      Wins 1 point

 Game 3
 Anna : 1                        Bob : 2
  1)                             42: 8/4 6/4
  2)  Doubles => 2                Takes
  3) 63: 24/18 13/10             21: 13/11 6/5
                                  Wins 2 points
"""

_XG_LINES = [
    '; [Site "eXtreme Gammon"]',
    '; [Match ID "8812"]',
    '; [Player 1 "Carla"]',
    '; [Player 2 "Dmitri"]',
    '; [Player 1 Elo "1500.00/0"]',
    '; [Player 2 Elo "1500.00/0"]',
    '; [EventDate "2026.02.01"]',
    '; [EventTime "20.15"]',
    '; [Variation "Backgammon"]',
    '; [Unrated "Off"]',
    '; [Crawford "On"]',
    '; [CubeLimit "1024"]',
    "",
    "5 point match",
    "",
    " Game 1",
    " Carla : 0                          Dmitri : 0",
    "  1) 31: 8/5 6/5                     64: 24/18 13/9",
    "  2) 62: 13/7* 13/11                 65: Cannot Move",
    "  3) 43: 11/7 8/5                    52: bar/23 13/8",
    "  4) 66: 24/18(2) 13/7(2)             Doubles => 2",
    "  5)  Drops",
    "                                     Wins 1 point",
    "",
    " Game 2",
    " Carla : 0                          Dmitri : 1",
    "  1)                                 31: 8/5 6/5",
    "  2)  Doubles => 2                    Takes",
    "  3) 64: 24/18 13/9                  62: 13/7* 13/11",
    "  4) 65: Cannot Move                 43: 11/7 8/5",
    "  5) 52: bar/23 13/8                 44: 24/20(2) 13/9(2)",
    "  6) 41: ???",
    "                                     Wins 4 points and the match",
    "",
]
XG_MATCH = "\ufeff" + "\r\n".join(_XG_LINES)

MONEY_SESSION = """\
; [Site "Another server"]
; [Jacoby "On"]
; [Beaver "On"]

 0 point match

 Game 1
 Eve : 0                          Finn : 0
  1) 52: 13/11 13/8                Doubles => 2
  2)  Beavers => 4                 Takes
  3)                              31: 8/5 6/5
  4)  Doubles => 8                 Passes
      Wins 4 points

 Game 2
 Eve : 4                          Finn : 0
  1)                              43: 24/20 13/10
  2) 65: 24/13
                                  Wins 1 point
"""


def test_gnubgs_layout_replays_to_the_stated_score() -> None:
    record = read_mat(GNUBG_MATCH)
    assert record.names == ("Anna", "Bob")
    assert record.rules == MatchRules(length=3)
    state = replay(record.rules, record.actions)
    assert state.phase is Phase.FINISHED
    assert state.score == (1, 4)
    assert [(game.winner, game.points, game.reason.value) for game in state.games] == [
        (1, 2, "drop"),
        (0, 1, "resign"),
        (1, 2, "resign"),
    ]
    assert [game.crawford for game in state.games] == [False, True, False]
    # The one-step-at-a-time plays are recorded in canonical notation.
    moves = [action.play for action in record.actions if isinstance(action, Move)]
    assert "24/18(2) 13/7(2)" in moves
    assert "bar/23 13/8" in moves
    assert "8/5(2) 6/3(2)" in moves
    dance = record.actions.index(Roll(1, (6, 5)))
    assert record.actions[dance + 1] == CannotMove(1)


def test_import_mat_gives_the_same_rules_and_actions() -> None:
    rules, actions = import_mat(GNUBG_MATCH)
    record = read_mat(GNUBG_MATCH)
    assert (rules, tuple(actions)) == (record.rules, record.actions)


def test_extreme_gammons_shapes_replay_to_the_stated_score() -> None:
    record = read_mat(XG_MATCH)
    assert record.names == ("Carla", "Dmitri")
    assert record.rules == MatchRules(length=5)
    state = replay(record.rules, record.actions)
    assert state.phase is Phase.FINISHED
    assert state.score == (0, 5)
    assert [(game.winner, game.points) for game in state.games] == [(1, 1), (1, 4)]
    assert record.actions.count(CannotMove(0)) + record.actions.count(CannotMove(1)) == 2


def test_a_money_session_with_jacoby_and_a_beaver() -> None:
    record = read_mat(MONEY_SESSION)
    assert record.names == ("Eve", "Finn")
    assert record.rules == MatchRules(length=0, jacoby=True, beavers=True)
    assert Beaver(0) in record.actions
    assert Take(1) not in record.actions  # the beaver needs no answer in our rules
    assert Drop(1) in record.actions  # "Passes"
    state = replay(record.rules, record.actions)
    assert state.score == (4, 1)
    assert [game.cube_value for game in state.games] == [4, 1]


def test_names_fall_back_to_the_player_tags() -> None:
    text = '; [Player 1 "Ida"]\n; [Player 2 "Jon"]\n 1 point match\n Game 1\n  1) 31: 8/5 6/5\n'
    record = read_mat(text)
    assert record.names == ("Ida", "Jon")
    assert replay(record.rules, record.actions).player_on_roll == 1


def test_a_long_left_play_leaves_one_space_before_the_right_cell() -> None:
    text = (
        " 1 point match\n Game 1\n A : 0                        B : 0\n"
        "  1) 31: 8/5 6/5                 44: 13/9 13/9 6/2 6/2\n"
        "  2) 66: 24/18 24/18 13/7 13/7 52: 13/8 13/11\n"
    )
    state = replay(*import_mat(text))
    assert state.player_on_roll == 0
    assert state.phase is Phase.ROLLING


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (GNUBG_MATCH.replace('"Fixture"]', '"Fixture"]\n; [Crawford "Off"]'), "Crawford"),
        (GNUBG_MATCH.replace('"Fixture"]', '"Fixture"]\n; [Variation "NackGammon"]'), "variation"),
        (GNUBG_MATCH.replace(" Bob : 2\n  1) ", " Bob : 1\n  1) "), "starts at 0-1"),
        (GNUBG_MATCH.replace("65:\n", "65: 24/13\n"), "line 10"),
        (
            GNUBG_MATCH.replace("  7)  Drops                       Wins 2 points", "").replace(
                " Bob : 2\n", " Bob : 0\n"
            ),
            "no result",
        ),
        (GNUBG_MATCH.replace("Game 2\n", "Game 2\n; Set Pos=x\n"), "set up by hand"),
        (GNUBG_MATCH.replace("65:\n", "65: Illegal play (x)\n"), "illegal plays"),
        (MONEY_SESSION.replace("Beavers => 4", "Raccoons => 8"), "raccoons"),
        (MONEY_SESSION.replace(" Takes\n", " Drops\n"), "dropping a beaver"),
        (GNUBG_MATCH.replace("Wins 2 points\n\n", "Wins 2 points\n  8) 11: 6/5\n"), "ended"),
        (" 3 point match\n Game 1\n A : 0 B\n", "score line"),
        (" 3 point match\n  1) 31: 8/5 6/5\n", "before the first"),
        ("; only a comment\n", "point match"),
    ],
)
def test_what_cannot_be_replayed_is_a_clear_format_error(text: str, message: str) -> None:
    with pytest.raises(MatFormatError, match=message):
        read_mat(text)


# --- random matches in gnubg's layout ------------------------------------------------------------


def random_match(rng: random.Random, length: int) -> MatchState:
    """Random legal play with doubles, takes and drops (no resignations: gnubg's layout of
    those depends on details that a reader cannot recover anyway)."""
    dice = FairDice(rng.randbytes(32), f"seed-{rng.random()}")
    state = new_match(MatchRules(length=length))
    while state.phase is not Phase.FINISHED:
        player = state.turn
        action: Action
        if state.phase is Phase.OPENING:
            action = OpeningRoll(dice.roll(state.dice_events))
        elif state.phase is Phase.ROLLING:
            assert player is not None
            may_double = state.double_refusal(player) is None
            if may_double and rng.random() < 0.08:
                action = Double(player)
            else:
                action = Roll(player, dice.roll(state.dice_events))
        elif state.phase is Phase.MOVING:
            assert player is not None
            action = Move(player, str(rng.choice(state.legal_plays())))
        else:
            assert player is not None
            action = Take(player) if rng.random() < 0.7 else Drop(player)
        state, _recorded = advance(state, action)
    return state


def _point(point: int) -> str:
    return "25" if point == BAR else "0" if point == OFF else str(point)


def gnubg_text(state: MatchState, names: tuple[str, str]) -> str:
    """The match as gnubg's ExportMatchMat lays it out: every record alternates between the
    columns, the left one as ``%3d) %-27s `` and the right one ending the line."""
    out = [f" {state.rules.length} point match\n\n"]
    current = new_match(state.rules)
    column = 0
    cube = 1
    pending: tuple[int, int] | None = None
    for action in state.actions:
        before, current = current, apply(current, action)
        if before.phase is Phase.OPENING and current.phase is not Phase.OPENING:
            column, cube = 0, 1
            out.append(f" Game {before.game_number}\n")
            left = f"{names[0]} : {before.score[0]}"
            out.append(f" {left:<31}{names[1]} : {before.score[1]}\n")
        if isinstance(action, OpeningRoll | Roll):
            pending = current.dice
            continue
        if isinstance(action, Move | CannotMove):
            assert pending is not None
            assert before.dice is not None
            text = f"{pending[0]}{pending[1]}: "
            if isinstance(action, Move):
                play = parse_play(action.play, before.position, before.dice)
                steps = [f"{_point(s.start)}/{_point(s.end)}{'*' * s.hit}" for s in play.steps]
                text += " ".join(steps) + (" " if len(steps) < 4 else "")
            player = before.player_on_roll
        elif isinstance(action, Double):
            cube *= 2
            text, player = f" Doubles => {cube}", action.player
        elif isinstance(action, Take):
            text, player = " Takes", action.player
        else:
            assert isinstance(action, Drop)
            gap = "\n      " if column & 1 else " " * 23
            points = cube // 2
            text, player = f" Drops{gap}Wins {points} point{'s' * (points > 1)}", action.player
        if column == 0 and player == 1:
            out.append("  1)                             ")
            column = 1
        if column & 1:
            out.append(text + "\n")
        else:
            out.append(f"{(column >> 1) + 1:3d}) {text:<27} ")
        if isinstance(action, Drop):
            out.append("\n" if column & 1 else "\n\n")
        elif len(current.games) > len(before.games):
            points = current.games[-1].points
            lead = " " * 34 if column & 1 else "\n      "
            out.append(f"{lead}Wins {points} point{'s' * (points > 1)}\n\n")
        column += 1
    return "".join(out)


def test_random_matches_in_gnubgs_layout_read_back() -> None:
    rng = random.Random(20260105)
    for length in (1, 3, 5, 7, 7, 9):
        state = random_match(rng, length)
        text = gnubg_text(state, ("Gnu One", "Gnu Two"))
        assert "/0" in text
        assert "25/" in text
        record = read_mat(text)
        assert record.names == ("Gnu One", "Gnu Two")
        assert essentials(replay(record.rules, record.actions)) == essentials(state)


# --- nothing but MatFormatError escapes ----------------------------------------------------------


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_garbage_is_a_format_error_or_nothing(text: str) -> None:
    with contextlib.suppress(MatFormatError):
        read_mat(text)


_ALPHABET = " \n:/*()=>0123456789abdoprstwADGPW?;[]\"'-"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from([GNUBG_MATCH, XG_MATCH, MONEY_SESSION]),
    st.lists(
        st.tuples(st.integers(0, 2000), st.integers(0, 3), st.text(_ALPHABET, max_size=6)),
        min_size=1,
        max_size=4,
    ),
)
def test_mutated_files_are_a_format_error_or_read(
    text: str, edits: list[tuple[int, int, str]]
) -> None:
    for position, removed, inserted in edits:
        at = position % (len(text) + 1)
        text = text[:at] + inserted + text[at + removed :]
    try:
        record = read_mat(text)
    except MatFormatError:
        return
    replay(record.rules, record.actions)  # what reads must replay


def test_games_after_the_end_of_the_match_are_left_out_as_gnubg_does() -> None:
    extra = GNUBG_MATCH + "\n Game 4\n Anna : 1                        Bob : 4\n  1) 31: 8/5 6/5\n"
    assert read_mat(extra) == read_mat(GNUBG_MATCH)


def test_a_very_long_line_is_refused_quickly() -> None:
    text = " 3 point match\n Game 1\n" + "a:" * 200_000 + "\n"
    with pytest.raises(MatFormatError, match="longer than"):
        read_mat(text)
