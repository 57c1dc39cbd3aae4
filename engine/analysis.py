"""The analysis of a recorded backgammon match: every decision judged by the engine.

The record is replayed with :mod:`gammon.flow`, and at every point where a player chose,
the engine's view is asked for once (:mod:`engine.analysis_walk`):

* each checker play: all legal plays ranked (:func:`engine.backgammon.rank_plays`); the play
  made is found among them by the position it reached, so notation never has to match;
* each roll: its luck (:func:`engine.backgammon.roll_luck`), the opening roll as one;
* each turn on which the player on roll could double: the cube advice, and whether rolling
  on or doubling gave equity away (:mod:`engine.analysis_cube`);
* each answer to a double (take, pass, beaver), from the same advice;
* after each decision, player 0's chance to win: in a match the match-winning chance (the
  cubeful equity through the Kazaross-XG2 match equity table, as the engine converts it),
  in money play the cubeless chance to win the game.

Which decisions count for the error rate is GNU Backgammon's definition (its ``analysis.c``):
every checker play the dice leave a choice of (a roll with one legal play, or none, is forced,
even where the choices all come to the same equity); every double, take and pass; a no double
only where it was close (:data:`engine.analysis_cube.CLOSE_CUBE`). There is no cube decision
where the player may not double (the Crawford game, a dead cube, the opponent's cube).

Resignations, their answers and forfeits are not decisions. Everything is deterministic: the
engine evaluates without noise and the decisions are visited in the order of the record.
Per player the figures are summed up by :mod:`engine.analysis_summary`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from engine.analysis_summary import summarise
from engine.analysis_walk import Walk
from engine.api import Chance, Level, MatchAnalysis
from gammon.actions import Action
from gammon.flow import apply, new_match
from gammon.match_rules import MatchRules
from gammon.position import Variant


def analyse_match(
    rules: MatchRules,
    actions: Iterable[Action],
    names: tuple[str, str],
    level: Level,
    progress: Callable[[], None] | None = None,
) -> MatchAnalysis:
    """Analyse a backgammon match (or money session) given by its rules and actions;
    ``names`` are players 0 and 1. ``progress`` is called once per analysed decision, so a
    caller can report, yield or measure; ``actions`` is read once, in order, so an iterator
    that counts what it hands out shows progress too. Raises ``ValueError`` for long nardy
    and for a record that does not replay."""
    if rules.variant is not Variant.BACKGAMMON:
        raise ValueError("only backgammon can be analysed; long nardy has no engine analysis")
    walk = Walk(level, rules, progress)
    state = new_match(rules)
    for action in actions:
        after = apply(state, action)  # an invalid record stops here, before the engine
        # Without its history: nothing here reads it, and appending to it at every step
        # would make a long session quadratic.
        after = replace(after, actions=())
        walk.step(state, action, after)
        state = after
    players = (
        summarise(names[0], 0, walk.decisions, walk.luck[0]),
        summarise(names[1], 1, walk.decisions, walk.luck[1]),
    )
    return MatchAnalysis(
        level=level,
        players=players,
        decisions=tuple(walk.decisions),
        chance=Chance.GAME if rules.is_money else Chance.MATCH,
    )
