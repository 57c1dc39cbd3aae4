"""What the bot asks of the engine, as functions a worker process runs.

The caller imports only this module and :mod:`engine.api`; the engine library itself is
imported inside the functions, in the worker, so the bot's own process never loads it (nor
its weights). Arguments and results are plain values that pickle: a match state without its
history, actions as dictionaries, analyses as JSON-ready dictionaries.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.api import Decision, Hint, Level, Situation
from gammon.flow import MatchState


def portable(state: MatchState) -> MatchState:
    """The state without its history (which may hold parsed plays that do not pickle)."""
    return replace(state, actions=())


def decide(state: MatchState, seat: int, level: Level, seed: int) -> Decision:
    """What the bot does now in ``state`` (see :func:`engine.decide.decide`)."""
    from engine.decide import decide as choose

    return choose(state, seat, level, seed)


def hint(situation: Situation, dice: tuple[int, int] | None, level: Level) -> Hint:
    """The best plays for ``dice``, or the cube action before a roll."""
    from engine.hints import hint as advise

    return advise(situation, dice, level)


def analyse(
    rules: dict[str, Any], actions: list[dict[str, Any]], names: tuple[str, str], level: Level
) -> dict[str, Any]:
    """The analysis of a recorded match, as the JSON that is stored."""
    from engine.analysis import analyse_match
    from engine.records import analysis_to_json
    from gammon.actions import action_from_dict
    from gammon.match_rules import MatchRules

    analysis = analyse_match(
        MatchRules.from_dict(rules), [action_from_dict(action) for action in actions], names, level
    )
    return analysis_to_json(analysis)


def warm_up() -> None:
    """Load the engine and its weights now, before the first player waits for them."""
    from engine.decide import decide as choose
    from gammon.actions import OpeningRoll
    from gammon.flow import apply, new_match
    from gammon.match_rules import MatchRules

    state = apply(new_match(MatchRules(length=1)), OpeningRoll((3, 1)))
    choose(state, state.player_on_roll, Level.EXPERT, 0)
