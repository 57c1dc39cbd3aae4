"""``gammonbot analyse`` has an end: files over its limits of games and decisions are refused
while they are read (before any replay or engine work), and a file that ends inside a game
says so instead of passing the cut silently."""

from __future__ import annotations

import json
from pathlib import Path

from tests.bot.long_sessions import one_move_session
from tests.bot.test_engine_cli import assert_one_line_error, run
from tests.engine.test_analysis import BLUNDER_MATCH

REPORTED_SESSION_GAMES = 41_078  # the money session that ran for ten minutes without an answer

# Game 2 of a 5-point match, cut after Anna's first play: Bob opened 5-2, Anna replied 6-4.
SECOND_GAME_CUT = """
 Game 2
 Anna : 2                         Bob : 0
  1)                             52: 13/11 13/8
  2) 64: 24/18 13/9
"""


def test_a_long_money_session_is_refused_at_the_games_limit(tmp_path: Path) -> None:
    """Its last game is no .mat text at all: the refusal names the limit, so the reading
    stopped at game 101, long before the end of the file."""
    path = tmp_path / "session.mat"
    text = one_move_session(REPORTED_SESSION_GAMES)
    path.write_text(text + " Game 41079\n this line is no .mat text\n", encoding="utf-8")
    assert_one_line_error(run("analyse", str(path)), "more than 100 games", "--max-games")


def test_the_games_limit_can_be_raised(tmp_path: Path) -> None:
    path = tmp_path / "session.mat"
    path.write_text(one_move_session(3), encoding="utf-8")
    assert_one_line_error(
        run("analyse", str(path), "--max-games", "2"), "more than 2 games", "--max-games"
    )
    result = run("analyse", str(path), "--max-games", "3")
    assert result.exit_code == 0, result.output
    games = {decision["game"] for decision in json.loads(result.stdout)["decisions"]}
    assert games == {1, 2, 3}


def test_the_decisions_limit_counts_every_roll_and_cube_action(tmp_path: Path) -> None:
    """The blunder match has eleven entries: ten plays or dances, a double and a take, in
    six rows (counted by hand: 2 + 2 + 2 + 2 + 2 + 1)."""
    path = tmp_path / "blunder.mat"
    path.write_text(BLUNDER_MATCH, encoding="utf-8")
    assert_one_line_error(
        run("analyse", str(path), "--max-decisions", "10"),
        "more than 10 decisions",
        "--max-decisions",
    )
    assert run("analyse", str(path), "--max-decisions", "11").exit_code == 0


def test_the_limits_and_their_defaults_are_in_the_help() -> None:
    result = run("analyse", "--help")
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "--max-games INTEGER RANGE" in text
    assert "--max-decisions INTEGER RANGE" in text
    assert "[default: 100; x>=1]" in text
    assert "[default: 10000; x>=1]" in text
    assert "interrupted" in text


def test_a_complete_match_has_no_unfinished_game_and_stderr_stays_empty(tmp_path: Path) -> None:
    """Piped (not a terminal): no progress bar, no warning."""
    path = tmp_path / "blunder.mat"
    path.write_text(BLUNDER_MATCH, encoding="utf-8")
    result = run("analyse", str(path))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["unfinished_game"] is None
    assert result.stderr == ""


def test_a_file_that_ends_inside_a_game_says_which(tmp_path: Path) -> None:
    path = tmp_path / "cut.mat"
    path.write_text(BLUNDER_MATCH + SECOND_GAME_CUT, encoding="utf-8")
    result = run("analyse", str(path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    second_game = [decision for decision in data["decisions"] if decision["game"] == 2]
    assert data["unfinished_game"] == {
        "game": 2,
        "decisions": len(second_game),
        "analysed_up_to_the_end_of_the_file": True,
    }
    last = data["decisions"][-1]  # analysed up to the last line of the file
    assert (last["game"], last["player"], last["kind"], last["played"]) == (
        2,
        0,
        "checker",
        "24/18 13/9",
    )
    warning = result.stderr.splitlines()
    assert len(warning) == 1, result.stderr
    assert "game 2 is unfinished" in warning[0]
    assert "cut.mat" in warning[0]
