"""``gammonbot hint`` (and ``render``) refuse Match IDs that describe no moment of a match, or
one whose decision is no play and no cube action: one line saying what, exit 2. The IDs are
put together by hand from gnubg's documented bit layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from tests.bot.test_engine_cli import assert_one_line_error, run
from tests.gammon.match_ids_by_hand import CENTRED, gnubg_match_id

START = "4HPwATDgc/ABMA"


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        # a resignation on offer: the answer is accept or reject, not a cube action
        ({"length": 7, "resigned": 1, "turn": 1}, ("resignation",)),
        ({"length": 7, "resigned": 3, "turn": 1, "die1": 4, "die2": 2}, ("resignation",)),
        # the Crawford game with the cube turned, or a double offered in it
        (
            {"length": 5, "score0": 4, "score1": 2, "crawford": 1, "cube_log": 1, "cube_owner": 1},
            ("Crawford", "turned"),
        ),
        (
            {"length": 5, "score0": 2, "score1": 4, "crawford": 1, "doubled": 1, "turn": 1},
            ("Crawford", "double"),
        ),
        # a Crawford game nobody is one point away for, and one in money play
        ({"length": 7, "score0": 3, "score1": 1, "crawford": 1}, ("Crawford", "3-1")),
        ({"crawford": 1}, ("money", "Crawford")),
        # the player to act is not the player on roll, and nothing waits for an answer
        ({"length": 7, "turn": 1, "die1": 3, "die2": 1}, ("player 1 is to act",)),
        ({"length": 7, "on_roll": 1, "turn": 0}, ("player 1 is on roll",)),
        # a double: with dice rolled, answered by the doubler, or without owning the cube
        ({"length": 7, "doubled": 1, "turn": 1, "die1": 3, "die2": 1}, ("dice", "double")),
        ({"length": 7, "doubled": 1, "turn": 0}, ("answer",)),
        (
            {"length": 7, "cube_log": 1, "cube_owner": 1, "doubled": 1, "turn": 1},
            ("player 1 owns the cube",),
        ),
        # a cube owned at 1, or centred above 1 in a match
        ({"length": 7, "cube_owner": 1}, ("owns the cube at 1",)),
        ({"length": 7, "cube_log": 1, "cube_owner": CENTRED}, ("centred at 2",)),
        # a game played at a score that has ended the match
        ({"length": 5, "score0": 5, "score1": 3}, ("over",)),
        ({"length": 5, "score0": 2, "score1": 7}, ("over",)),
    ],
)
def test_a_hint_for_an_impossible_moment_is_refused(
    fields: dict[str, int], words: tuple[str, ...]
) -> None:
    match_id = gnubg_match_id(**fields)
    assert_one_line_error(run("hint", "--position-id", START, "--match-id", match_id), *words)


@pytest.mark.parametrize(
    ("fields", "kind"),
    [
        ({"length": 5, "score0": 4, "score1": 2, "crawford": 1}, "cube"),  # Crawford, cube at 1
        ({"length": 5, "score0": 4, "score1": 4, "die1": 3, "die2": 1}, "plays"),
        ({"length": 7, "cube_log": 1, "cube_owner": 0}, "cube"),  # the owner may redouble
        ({"length": 7, "doubled": 1, "turn": 1}, "cube"),  # player 1 answers 0's double
        ({"cube_log": 1, "cube_owner": CENTRED}, "cube"),  # money: an automatic double
    ],
)
def test_the_nearby_possible_moments_get_hints(fields: dict[str, int], kind: str) -> None:
    result = run("hint", "--position-id", START, "--match-id", gnubg_match_id(**fields))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["kind"] == kind


def test_the_render_command_refuses_an_impossible_match_id_too(tmp_path: Path) -> None:
    crawford_doubled = gnubg_match_id(
        length=5, score0=4, score1=2, crawford=1, cube_log=1, cube_owner=1
    )
    target = tmp_path / "board.png"
    result = CliRunner().invoke(
        main,
        ["render", "--position-id", START, "--match-id", crawford_doubled, "-o", str(target)],
    )
    assert result.exit_code == 2
    assert "Crawford" in result.output
    assert not target.exists()
