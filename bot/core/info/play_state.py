"""The board page's state of a match (``/m/<slug>/play``): one JSON-ready dict per version, the
same for every viewer, from which the page draws the board, the clocks and its controls.

What a viewer may do is not in it: the page knows its own seat (from its signed key) and offers
the controls of the seat that must act; the server checks every action again through the core.
The plays tree (:mod:`gammon.step_tree`) is there while the player on roll plays their dice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gammon.flow import MatchState, Phase
from gammon.step_tree import step_tree
from rendering.view import BoardView
from storage import MatchInfo, MatchStatus


def play_state(
    info: MatchInfo, state: MatchState, names: tuple[str, str], now: datetime
) -> dict[str, Any]:
    """The state the board page shows of ``info`` at its version (see the contract in
    ``docs/board-page.md``); ``now`` dates the running clock's time left."""
    view = BoardView.from_state(state)
    phase = state.phase
    turn = state.turn
    return {
        "match": info.id,
        "version": info.version,
        "variant": state.variant.value,
        "names": list(names),
        "light": view.light,
        "length": state.rules.length,
        "score": list(state.score),
        "crawford": state.crawford_game,
        "sides": [list(view.sides[0]), list(view.sides[1])],
        "phase": phase.value,
        "turn": turn,
        "on_roll": view.on_roll,
        "dice": None if view.dice is None else list(view.dice),
        "opening_dice": None if view.opening_dice is None else list(view.opening_dice),
        "cube": {
            "value": state.cube_value,
            "owner": state.cube_owner,
            "visible": view.cube_visible,
            "offered": phase is Phase.DOUBLED,
        },
        "can_double": phase is Phase.ROLLING
        and turn is not None
        and state.double_refusal(turn) is None,
        "beavers": phase is Phase.DOUBLED and state.rules.beavers,
        "resignation": _resignation(state),
        "pips": list(view.pips()),
        "clock": clock_json(info, now),
        "winner": state.winner,
        "finished": phase is Phase.FINISHED or info.status is not MatchStatus.ACTIVE,
        "plays": _plays(state),
    }


def _resignation(state: MatchState) -> dict[str, int] | None:
    offer = state.resignation
    if state.phase is not Phase.RESIGNING or offer is None:
        return None
    return {"by": offer.player, "level": int(offer.level)}


def clock_json(info: MatchInfo, now: datetime) -> dict[str, Any] | None:
    """The match clock as the page shows it, its running period's time left as of ``now``."""
    setting, clock = info.rules.clock, info.clock
    if setting is None or clock is None:
        return None
    left = None
    if clock.running is not None and clock.deadline is not None:
        left = max(0, int((clock.deadline - now).total_seconds() * 1000))
    return {
        "reserve_ms": list(clock.reserves),
        "delay_ms": setting.delay * 1000,
        "running": clock.running,
        "left_ms": left,
    }


def _plays(state: MatchState) -> dict[str, Any] | None:
    if state.phase is not Phase.MOVING or state.dice is None:
        return None
    return step_tree(state.position, state.dice).as_json()
