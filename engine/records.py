"""The engine's results as JSON: a match analysis (stored by the bot, printed by the command
line) and a hint.

The JSON is plain: enums by value, dice as two-number lists, equities as the floats the engine
gave (no rounding, so a stored analysis reads back equal). ``version`` lets a later layout be
told apart; :func:`analysis_from_json` refuses anything it does not recognise with
``ValueError`` rather than building a half-valid analysis. Version 2 added ``chance`` (what
the decisions' ``win_chance`` measures); a version 1 analysis charted the chance to win the
game, and still reads as such.
"""

from __future__ import annotations

from typing import Any, Final

from engine.api import (
    AnalysedDecision,
    Chance,
    CubeHint,
    DecisionKind,
    Hint,
    HintPlay,
    Level,
    MatchAnalysis,
    PlayerAnalysis,
)

VERSION: Final = 2
_GAME_CHANCES: Final = 1  # the last version whose chances were always the game's

_DECISION_FIELDS: Final = (
    "game",
    "move",
    "player",
    "kind",
    "position_id",
    "match_id",
    "dice",
    "played",
    "best",
    "loss",
    "luck",
    "forced",
    "win_chance",
)


def analysis_to_json(analysis: MatchAnalysis) -> dict[str, Any]:
    return {
        "version": VERSION,
        "level": analysis.level.value,
        "chance": analysis.chance.value,
        "players": [_player_to_json(player) for player in analysis.players],
        "decisions": [_decision_to_json(decision) for decision in analysis.decisions],
    }


def analysis_from_json(data: Any) -> MatchAnalysis:
    """The inverse of :func:`analysis_to_json`; ``ValueError`` for anything else."""
    record = _object(data, "analysis")
    version = record.get("version")
    if version not in (_GAME_CHANCES, VERSION):
        raise ValueError(f"unknown analysis version {version!r}")
    chance = (
        Chance.GAME if version == _GAME_CHANCES else Chance(_text(record.get("chance"), "chance"))
    )
    players = _list(record.get("players"), "players")
    if len(players) != 2:
        raise ValueError("an analysis has two players")
    return MatchAnalysis(
        level=Level(_text(record.get("level"), "level")),
        players=(_player_from_json(players[0]), _player_from_json(players[1])),
        decisions=tuple(
            _decision_from_json(item) for item in _list(record.get("decisions"), "decisions")
        ),
        chance=chance,
    )


def hint_to_json(hint: Hint) -> dict[str, Any]:
    return {
        "kind": hint.kind,
        "dice": list(hint.dice) if hint.dice is not None else None,
        "plays": [_play_to_json(play) for play in hint.plays],
        "cube": _cube_to_json(hint.cube) if hint.cube is not None else None,
    }


# --- pieces ---------------------------------------------------------------------------------


def _player_to_json(player: PlayerAnalysis) -> dict[str, Any]:
    return {
        "name": player.name,
        "checker_decisions": player.checker_decisions,
        "checker_error": player.checker_error,
        "cube_decisions": player.cube_decisions,
        "cube_error": player.cube_error,
        "error_rate": player.error_rate,
        "luck": player.luck,
        "largest_errors": [_decision_to_json(decision) for decision in player.largest_errors],
    }


def _player_from_json(data: Any) -> PlayerAnalysis:
    record = _object(data, "player")
    return PlayerAnalysis(
        name=_text(record.get("name"), "name"),
        checker_decisions=_integer(record.get("checker_decisions"), "checker_decisions"),
        checker_error=_number(record.get("checker_error"), "checker_error"),
        cube_decisions=_integer(record.get("cube_decisions"), "cube_decisions"),
        cube_error=_number(record.get("cube_error"), "cube_error"),
        error_rate=_number(record.get("error_rate"), "error_rate"),
        luck=_number(record.get("luck"), "luck"),
        largest_errors=tuple(
            _decision_from_json(item)
            for item in _list(record.get("largest_errors"), "largest_errors")
        ),
    )


def _decision_to_json(decision: AnalysedDecision) -> dict[str, Any]:
    data = {name: getattr(decision, name) for name in _DECISION_FIELDS}
    data["kind"] = decision.kind.value
    data["dice"] = list(decision.dice) if decision.dice is not None else None
    return data


def _decision_from_json(data: Any) -> AnalysedDecision:
    record = _object(data, "decision")
    dice = record.get("dice")
    if dice is not None:
        values = _list(dice, "dice")
        if len(values) != 2:
            raise ValueError(f"dice are two numbers: {dice!r}")
        dice = (_integer(values[0], "die"), _integer(values[1], "die"))
    player = _integer(record.get("player"), "player")
    if player not in (0, 1):
        raise ValueError(f"player is 0 or 1: {player!r}")
    return AnalysedDecision(
        game=_integer(record.get("game"), "game"),
        move=_integer(record.get("move"), "move"),
        player=player,
        kind=DecisionKind(_text(record.get("kind"), "kind")),
        position_id=_text(record.get("position_id"), "position_id"),
        match_id=_text(record.get("match_id"), "match_id"),
        dice=dice,
        played=_text(record.get("played"), "played"),
        best=_text(record.get("best"), "best"),
        loss=_number(record.get("loss"), "loss"),
        luck=_number(record.get("luck"), "luck"),
        forced=_flag(record.get("forced"), "forced"),
        win_chance=_number(record.get("win_chance"), "win_chance"),
    )


def _play_to_json(play: HintPlay) -> dict[str, Any]:
    return {"notation": play.notation, "equity": play.equity, "difference": play.difference}


def _cube_to_json(cube: CubeHint) -> dict[str, Any]:
    return {
        "verdict": cube.verdict.value,
        "action": cube.action,
        "no_double": cube.no_double,
        "double_take": cube.double_take,
        "double_pass": cube.double_pass,
        "double": cube.double,
        "take": cube.take,
        "beaver": cube.beaver,
    }


# --- checked reading ------------------------------------------------------------------------


def _object(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{what}: expected an object, got {type(value).__name__}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValueError(f"{what}: expected a list, got {type(value).__name__}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what}: expected text, got {value!r}")
    return value


def _integer(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{what}: expected a whole number, got {value!r}")
    return value


def _number(value: Any, what: str) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ValueError(f"{what}: expected a number, got {value!r}")
    return float(value)


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what}: expected true or false, got {value!r}")
    return value
