"""Match states as plain JSON-ready dicts, for snapshots that load without a replay.

The event log (the actions) stays the truth: :func:`state_from_dict` restores exactly what
:func:`state_to_dict` wrote, and :func:`gammon.flow.replay` of the same actions gives the same
state, which the storage tests check.

A dict may leave the actions out (``with_actions=False``): a snapshot stored next to the event
log need not repeat it, and without it the dict no longer grows with every action. Both forms
share :data:`FORMAT`; a dict without ``"actions"`` loads as a state with no history
(``actions == ()``), one with them (every snapshot written before) loads as it always did.
"""

from __future__ import annotations

from typing import Any

from gammon.actions import WinKind, action_from_dict, action_to_dict
from gammon.flow import GameEnd, GameResult, MatchState, Phase, ResignationOffer
from gammon.match_rules import MatchRules
from gammon.position import Position

FORMAT = 1


def state_to_dict(state: MatchState, *, with_actions: bool = True) -> dict[str, Any]:
    """The state as a JSON-ready dict; ``with_actions=False`` leaves out the history, whose
    size grows with the match, for a caller that keeps the actions elsewhere."""
    offer = state.resignation
    data: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.rules.to_dict(),
        "phase": state.phase.value,
        "position": state.position.id(),
        "player_on_roll": state.player_on_roll,
        "dice": list(state.dice) if state.dice else None,
        "cube_value": state.cube_value,
        "cube_owner": state.cube_owner,
        "cube_turned": state.cube_turned,
        "automatic_doubles": state.automatic_doubles,
        "score": list(state.score),
        "game_number": state.game_number,
        "crawford_game": state.crawford_game,
        "crawford_used": state.crawford_used,
        "resignation": (
            None
            if offer is None
            else {"player": offer.player, "level": int(offer.level), "resume": offer.resume.value}
        ),
        "games": [_game_to_dict(game) for game in state.games],
        "dice_events": state.dice_events,
        "game_starter": state.game_starter,
        "white": state.white,
        "last_roll": state.last_roll,
    }
    if with_actions:
        data["actions"] = [action_to_dict(action) for action in state.actions]
    return data


def state_from_dict(data: dict[str, Any]) -> MatchState:
    """The state ``data`` holds; with no history when it was written without the actions."""
    if data.get("format") != FORMAT:
        raise ValueError(f"unknown snapshot format {data.get('format')!r}")
    rules = MatchRules.from_dict(data["rules"])
    offer = data["resignation"]
    return MatchState(
        rules=rules,
        phase=Phase(data["phase"]),
        position=Position.from_id(data["position"], rules.variant),
        player_on_roll=data["player_on_roll"],
        dice=(data["dice"][0], data["dice"][1]) if data["dice"] else None,
        cube_value=data["cube_value"],
        cube_owner=data["cube_owner"],
        cube_turned=data["cube_turned"],
        automatic_doubles=data["automatic_doubles"],
        score=(data["score"][0], data["score"][1]),
        game_number=data["game_number"],
        crawford_game=data["crawford_game"],
        crawford_used=data["crawford_used"],
        resignation=(
            None
            if offer is None
            else ResignationOffer(offer["player"], WinKind(offer["level"]), Phase(offer["resume"]))
        ),
        games=tuple(_game_from_dict(game) for game in data["games"]),
        actions=tuple(action_from_dict(action) for action in data.get("actions", ())),
        dice_events=data["dice_events"],
        game_starter=data["game_starter"],
        white=data["white"],
        last_roll=data["last_roll"],
    )


def _game_to_dict(game: GameResult) -> dict[str, Any]:
    return {
        "number": game.number,
        "winner": game.winner,
        "points": game.points,
        "kind": None if game.kind is None else int(game.kind),
        "reason": game.reason,
        "cube_value": game.cube_value,
        "score_after": list(game.score_after),
        "crawford": game.crawford,
    }


def _game_from_dict(data: dict[str, Any]) -> GameResult:
    return GameResult(
        number=data["number"],
        winner=data["winner"],
        points=data["points"],
        kind=None if data["kind"] is None else WinKind(data["kind"]),
        reason=GameEnd(data["reason"]),
        cube_value=data["cube_value"],
        score_after=(data["score_after"][0], data["score_after"][1]),
        crawford=data["crawford"],
    )
