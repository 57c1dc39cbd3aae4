"""The analysis level: ``/analysis [match] [level]`` in the chats and ``gammonbot analyse
--level`` on the command line: by default GNU Backgammon's 2-ply, which the engine really
searches at, and a quick one on request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bot.cli import main
from bot.core.computer.advice import _analysis_request
from bot.core.registry import find
from engine import analysis_walk
from engine.api import Level
from engine.levels import (
    ANALYSIS_LEVEL,
    ANALYSIS_SEARCHES,
    QUICK_ANALYSIS_LEVEL,
    analysis_level,
    spec,
)
from tests.engine.test_analysis import BLUNDER_MATCH


@pytest.mark.parametrize(
    ("argument", "expected"),
    [
        ("", (None, None)),
        ("12", (12, None)),
        ("#12", (12, None)),
        ("world_class", (None, Level.WORLD_CLASS)),
        ("12 world_class", (12, Level.WORLD_CLASS)),
        ("world-class 12", (12, Level.WORLD_CLASS)),
        ("12 WorldClass", (12, Level.WORLD_CLASS)),
        ("12 expert", (12, Level.EXPERT)),
        ("12 beginner", None),  # not an analysis level
        ("12 13", None),
        ("deep", None),
    ],
)
def test_the_analysis_command_reads_a_match_and_a_level(
    argument: str, expected: tuple[int | None, Level | None] | None
) -> None:
    assert _analysis_request(argument) == expected


def test_the_platforms_offer_the_level_as_a_choice() -> None:
    command = find("analysis")
    assert command is not None
    level = next(option for option in command.options if option.name == "level")
    assert level.choices == ("expert", "world_class")
    assert command.argument({"match": 12, "level": "world_class"}) == "12 world_class"
    assert command.argument({"level": "world_class"}) == "world_class"


def test_the_default_level_searches_as_deep_as_gnubgs_analysis() -> None:
    """gnubg analyses at 2-ply by default, two rolls of look-ahead: the engine's "3ply"."""
    default = ANALYSIS_SEARCHES[ANALYSIS_LEVEL]
    assert ANALYSIS_LEVEL is Level.WORLD_CLASS
    assert default is not None
    assert default.depth == "3ply"
    assert ANALYSIS_SEARCHES[QUICK_ANALYSIS_LEVEL] is None
    assert spec(QUICK_ANALYSIS_LEVEL).eval_level == "1ply"
    assert analysis_level("") is ANALYSIS_LEVEL  # queued when a match ends: no level named
    assert analysis_level("expert") is QUICK_ANALYSIS_LEVEL


@pytest.mark.parametrize(
    ("option", "level"), [((), "world_class"), (("--level", "expert"), "expert")]
)
def test_the_command_line_analyses_at_the_level_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, option: tuple[str, ...], level: str
) -> None:
    """Every play is ranked, every cube judged at the level asked for (the default without
    ``--level``), and the JSON names it."""
    asked: list[Level] = []
    analysis_plays, cube_advice = analysis_walk.analysis_plays, analysis_walk.cube_advice

    def ranking(situation: Any, dice: Any, chosen: Level, played: str) -> Any:
        asked.append(chosen)
        return analysis_plays(situation, dice, chosen, played)

    def advising(situation: Any, chosen: Level) -> Any:
        asked.append(chosen)
        return cube_advice(situation, chosen)

    monkeypatch.setattr(analysis_walk, "analysis_plays", ranking)
    monkeypatch.setattr(analysis_walk, "cube_advice", advising)
    path = tmp_path / "match.mat"
    path.write_text(BLUNDER_MATCH, encoding="utf-8")
    result = CliRunner().invoke(main, ["analyse", str(path), *option])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["level"] == level
    assert asked
    assert set(asked) == {Level(level)}
