"""Reading ``.mat`` text within limits, and knowing where a file ends inside a game."""

from __future__ import annotations

import pytest

from gammon.actions import Move, OpeningRoll, Roll
from gammon.flow import apply, new_match
from gammon.mat_format import MatFormatError, MatLimitError, MatLimits, export_mat, read_mat
from gammon.match_rules import MatchRules

MATCH = """\
 3 point match

 Game 1
 Anna : 0                         Bob : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Drops
                                  Wins 1 point

 Game 2
 Anna : 0                         Bob : 1
  1)                             42: 8/4 6/4
  2) 64: 24/18 13/9
"""
UNREADABLE = "  3) this is no play\n"


def test_the_games_limit_is_met_before_the_lines_after_it_are_read() -> None:
    """The unreadable line comes after the second "Game" line: with one game allowed, the
    reading stops at that "Game" line and never meets it."""
    with pytest.raises(MatLimitError, match="more than 1 games") as refused:
        read_mat(MATCH + UNREADABLE, MatLimits(games=1))
    assert (refused.value.what, refused.value.limit) == ("games", 1)
    with pytest.raises(MatFormatError, match="line 13"):
        read_mat(MATCH + UNREADABLE, MatLimits(games=2))


def test_the_decisions_limit_counts_the_cells() -> None:
    """Five entries by hand: Anna's 31, Bob's double, Anna's drop, Bob's 42, Anna's 64."""
    with pytest.raises(MatLimitError, match="more than 4 decisions"):
        read_mat(MATCH, MatLimits(decisions=4))
    assert read_mat(MATCH, MatLimits(games=2, decisions=5)).unfinished_game == 2


def test_a_limit_error_is_a_format_error() -> None:
    """Callers that catch every reading error keep catching this one."""
    with pytest.raises(MatFormatError):
        read_mat(MATCH, MatLimits(decisions=1))


@pytest.mark.parametrize(
    ("text", "unfinished"),
    [
        (MATCH, 2),  # cut after Anna's first play of game 2
        (MATCH[: MATCH.index(" Game 2")], None),  # cut between the games
        (
            MATCH[: MATCH.index(" Anna : 0                         Bob : 1")],
            2,
        ),  # only the "Game 2" line of it
        (MATCH[: MATCH.index("  2)  Drops")], 1),  # cut while a double waits
    ],
)
def test_a_game_the_text_ends_in_is_named(text: str, unfinished: int | None) -> None:
    assert read_mat(text).unfinished_game == unfinished


def test_a_running_match_exported_mid_game_has_that_game_unfinished() -> None:
    state = apply(new_match(MatchRules(length=5)), OpeningRoll((3, 1)))
    assert read_mat(export_mat(state, ["A", "B"])).unfinished_game == 1
    state = apply(apply(state, Move(0, "8/5 6/5")), Roll(1, (6, 6)))
    assert read_mat(export_mat(state, ["A", "B"])).unfinished_game == 1
