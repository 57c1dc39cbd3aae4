"""``gammonbot hint`` and ``gammonbot analyse``: JSON out, or one line on stderr and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.cli import main
from gammon.flow import new_match
from gammon.mat_format import export_mat
from gammon.match import Match
from gammon.match_rules import MatchRules
from gammon.position import Position, Variant
from tests.engine.test_analysis import BLUNDER_MATCH

START = Position.start().id()


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_one_line_error(result: Result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in lines[0]


def test_a_hint_for_the_dice_in_the_match_id() -> None:
    result = run("hint", "--position-id", START, "--match-id", Match(length=7, dice=(3, 1)).id())
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["kind"] == "plays"
    assert data["dice"] == [3, 1]
    assert data["plays"][0] == {
        "notation": "8/5 6/5",
        "equity": data["plays"][0]["equity"],
        "difference": 0.0,
    }
    assert len(data["plays"]) == 3


@pytest.mark.parametrize("level", ["world-class", "worldclass", "World_Class", "beginner"])
def test_the_cube_action_when_no_dice_are_rolled(level: str) -> None:
    result = run("hint", "--position-id", START, "--match-id", "cAkAAAAAAAAA", "--level", level)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["kind"] == "cube"
    assert data["cube"]["verdict"] == "no_double"
    assert data["cube"]["action"] == "No double, take"
    assert {"no_double", "double_take", "double_pass"} <= set(data["cube"])


MONEY_CENTRED = "cAkAAAAAAAAA"  # money, cube centred, no dice yet


def cube_of(*args: str) -> dict[str, object]:
    result = run("hint", *args)
    assert result.exit_code == 0, result.output
    cube: dict[str, object] = json.loads(result.stdout)["cube"]
    return cube


def test_post_crawford_too_good_is_not_double_pass() -> None:
    """4-away against 1-away after the Crawford game: gnubg 1.07 says "Too good to double,
    pass" (no double +1.338, double/take +3.011, double/pass +1.000)."""
    cube = cube_of("--position-id", "n4MAg0M3uhBQEg", "--match-id", "cAmgAEAACAAA")
    assert (cube["verdict"], cube["action"]) == ("too_good_pass", "Too good to double, pass")
    assert (cube["double"], cube["take"]) == (False, False)


def test_jacoby_turns_a_money_too_good_into_a_cash() -> None:
    """gnubg 1.07: "Too good to double, pass"; with ``set jacoby on``: "Double, pass"."""
    position = ("--position-id", "fu8AIEDbbQcQAA", "--match-id", MONEY_CENTRED)
    assert cube_of(*position)["action"] == "Too good to double, pass"
    jacoby = cube_of(*position, "--jacoby")
    assert (jacoby["verdict"], jacoby["action"]) == ("double_pass", "Double, pass")
    assert cube_of(*position, "--beaver")["action"] == "Too good to double, pass"


def test_beavers_turn_a_money_take_into_a_beaver() -> None:
    """gnubg 1.07: "No double, take"; with ``set beavers 1``: "No double, beaver"."""
    position = ("--position-id", "jLfBwQDMncEBAw", "--match-id", MONEY_CENTRED)
    assert cube_of(*position)["action"] == "No double, take"
    beaver = cube_of(*position, "--beaver")
    assert (beaver["action"], beaver["take"], beaver["beaver"]) == ("No double, beaver", True, True)
    assert cube_of(*position, "--jacoby")["action"] == "No double, take"


def test_jacoby_and_beaver_change_nothing_in_a_match() -> None:
    position = ("--position-id", "n4MAg0M3uhBQEg", "--match-id", "cAmgAEAACAAA")
    assert cube_of(*position, "--jacoby", "--beaver") == cube_of(*position)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--position-id", "garbage", "--match-id", "cAkAAAAAAAAA"), ("Position ID",)),
        (("--position-id", START, "--match-id", "garbage"), ("Match ID",)),
        (("--position-id", START, "--match-id", Match(length=5, score=(5, 1)).id()), ("over",)),
        (("--position-id", START, "--match-id", "cAkAAAAAAAAA", "--level", "god"), ("god",)),
    ],
)
def test_bad_hint_input_is_one_line_and_exit_2(args: tuple[str, ...], words: tuple[str]) -> None:
    assert_one_line_error(run("hint", *args), *words)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=20), st.text(max_size=20))
def test_garbage_ids_never_crash(position_id: str, match_id: str) -> None:
    result = run("hint", "--position-id", position_id, "--match-id", match_id)
    if result.exit_code == 0:
        json.loads(result.stdout)
    else:
        assert_one_line_error(result)


def test_an_analysis_as_json(tmp_path: Path) -> None:
    path = tmp_path / "blunder.mat"
    path.write_text(BLUNDER_MATCH, encoding="utf-8")
    result = run("analyse", str(path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["level"] == "world_class"  # GNU Backgammon's depth unless asked otherwise
    anna, bob = data["players"]
    assert (anna["name"], bob["name"]) == ("Anna", "Bob")
    assert bob["largest_errors"][0]["played"] == "24/23 13/10"
    assert len(data["decisions"]) > 10


def test_an_analysis_of_a_file_gnubg_wrote() -> None:
    """GNU Backgammon 1.07's export of one of our matches: Bob's 6/off with 5-3 (a checker
    on 3 and four on the ace) is written "6/1 1/0", steps no legal play takes in that order:
    read as 6/off (6/3, then 3/off with the 5)."""
    path = Path(__file__).parent.parent / "data" / "gnubg-1.07-export.mat"
    result = run("analyse", str(path), "--level", "expert")  # the reading counts here
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [player["name"] for player in data["players"]] == ["Anna", "Bob"]
    assert data["unfinished_game"] is None
    bear_off = [
        entry
        for entry in data["decisions"]
        if entry["position_id"] == "d0QNEhFPBAAAAA" and entry["kind"] == "checker"
    ]
    assert [(entry["dice"], entry["played"]) for entry in bear_off] == [([5, 3], "6/off")]


def test_an_analysis_at_another_level_of_a_latin_1_file(tmp_path: Path) -> None:
    path = tmp_path / "blunder.mat"
    path.write_bytes(BLUNDER_MATCH.replace("Anna", "Ånna").encode("latin-1"))
    result = run("analyse", str(path), "--level", "advanced")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["level"], data["players"][0]["name"]) == ("advanced", "Ånna")


def _long_nardy_file(path: Path) -> None:
    rules = MatchRules(length=3, variant=Variant.LONG_NARDY)
    path.write_text(export_mat(new_match(rules), ["A", "B"]), encoding="utf-8")


@pytest.mark.parametrize(
    ("case", "words"),
    [
        ("missing", ("cannot read",)),
        ("directory", ("cannot read",)),
        ("garbage", ("not a .mat file",)),
        ("binary", ("not a .mat file",)),
        ("illegal", ("line 9",)),
        ("long nardy", ("backgammon",)),
    ],
)
def test_bad_analyse_input_is_one_line_and_exit_2(
    tmp_path: Path, case: str, words: tuple[str]
) -> None:
    path = tmp_path / "match.mat"
    if case == "directory":
        path.mkdir()
    elif case == "garbage":
        path.write_text("hello, this is no match\n" * 5)
    elif case == "binary":
        path.write_bytes(bytes(range(256)) * 4)
    elif case == "illegal":
        path.write_text(BLUNDER_MATCH.replace("8/4 6/4", "8/4 6/1"))
    elif case == "long nardy":
        _long_nardy_file(path)
    assert_one_line_error(run("analyse", str(path)), *words)


def test_an_unknown_analysis_level_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "blunder.mat"
    path.write_text(BLUNDER_MATCH, encoding="utf-8")
    assert_one_line_error(run("analyse", str(path), "--level", "godlike"), "godlike")
