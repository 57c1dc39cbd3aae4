"""Checker plays judged with look-ahead for a match analysis, the way GNU Backgammon's
analysis does it: every legal play ranked by the plain net, the few worth a closer look
evaluated deeper, and the play that was made always among them.

bgsage's own ``checker_play`` at ``"3ply"`` (gnubg's 2-ply) turns every legal play into a
cube-aware look-ahead value: about a second per decision with dozens of plays, a minute for a
5-point match. An analysis needs two equities at one depth, the best play's and the played
play's. The best is searched for among the plays that pass the move filters
(:class:`~engine.levels.MoveFilter`, gnubg's idea: a cheap ranking first, the deep search
for the plays near its top); the played play is searched whether it passed or not. A play
the filters dropped is taken to be no better than the ones they kept, as gnubg takes it.

Each searched play is valued as bgsage values its candidates at that depth (the opponent's
cube-aware look-ahead tree from the position after the play,
``cubeful_probs_and_equity_nply``, with the plain net and the bear-off database of bgsage's
analyzer), so it has exactly the equity bgsage's ``checker_play`` gives it;
``tests/engine/test_deep_plays.py`` checks that. Without a cube (cubeless play) the value is
bgsage's cubeless look-ahead, through :func:`engine.backgammon.post_move_value`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Final

import bgbot_cpp  # type: ignore[import-not-found]

from engine.api import Level, Probabilities, RankedPlay, Situation
from engine.backgammon import (
    OPPONENTS_CPP_OWNER,
    analyzer,
    board_after,
    net_and_bearoff,
    post_move_value,
    probabilities_of,
    rank_plays,
    rank_plays_at_depth,
    to_board,
)
from engine.levels import ANALYSIS_SEARCHES, DeepSearch, MoveFilter
from gammon import Position

_PLAIN_NET: Final = "1ply"


def analysis_plays(
    situation: Situation, dice: tuple[int, int], level: Level, played_id: str
) -> tuple[tuple[RankedPlay, ...], int]:
    """The plays an analysis at ``level`` values for a roll of ``dice`` on which the play
    reaching ``played_id`` was made, best first, and how many legal plays the roll has (one:
    a forced play). All legal plays at the level's depth, or those of its
    :class:`~engine.levels.DeepSearch`."""
    search = ANALYSIS_SEARCHES.get(level)
    if search is None:
        ranked = rank_plays(situation, dice, level)
        return ranked, len(ranked)
    return deep_plays(situation, dice, search, played_id)


def deep_plays(
    situation: Situation, dice: tuple[int, int], search: DeepSearch, played_id: str
) -> tuple[tuple[RankedPlay, ...], int]:
    """The plays of ``dice`` that ``search`` keeps, and the play reaching ``played_id`` (a
    Position ID of a play's result) whether kept or not, valued at the search's depth, best
    first; and how many legal plays the roll has. A forced roll is its one play, unsearched."""
    every = rank_plays_at_depth(situation, dice, _PLAIN_NET)
    if len(every) <= 1:
        return every, len(every)
    kept = list(every)
    for stage in search.filters:
        if stage.depth != _PLAIN_NET:
            kept = _ranked(situation, kept, stage.depth)
        kept = _kept(kept, stage)
    if all(play.result_id != played_id for play in kept):
        kept += [play for play in every if play.result_id == played_id]
    return tuple(_ranked(situation, kept, search.depth)), len(every)


def _kept(ranked: Sequence[RankedPlay], stage: MoveFilter) -> list[RankedPlay]:
    """The plays of ``ranked`` (best first) that pass ``stage``."""
    best = ranked[0].equity
    return [play for play in ranked if best - play.equity < stage.window][: 1 + stage.extra]


def _ranked(situation: Situation, plays: Sequence[RankedPlay], depth: str) -> list[RankedPlay]:
    """``plays`` valued again at ``depth``, best first (stable: ties keep their order)."""
    valued = [(_value(situation, play.result_id, depth), play) for play in plays]
    valued.sort(key=lambda item: -item[0][0])
    best = valued[0][0][0] if valued else 0.0
    return [
        RankedPlay(
            notation=play.notation,
            result_id=play.result_id,
            equity=equity,
            loss=best - equity,
            probabilities=probabilities,
        )
        for (equity, probabilities), play in valued
    ]


@functools.cache
def _look_ahead(depth: str) -> tuple[Any, Any]:
    """The plain net and bear-off database of bgsage's cubeless look-ahead analyzer inside
    its cubeful one at ``depth`` (private: ``_analyzer._inner``), which its cube-aware search
    of a candidate uses."""
    cubeful = getattr(analyzer(depth, True), "_analyzer", None)
    return net_and_bearoff(getattr(cubeful, "_inner", None))


def _value(situation: Situation, result_id: str, depth: str) -> tuple[float, Probabilities]:
    """The mover's equity and chances after the play reaching ``result_id``, at ``depth``."""
    board = list(board_after(Position.from_id(result_id)))
    if not situation.cube_enabled:
        return post_move_value(situation, board, depth)
    net, bearoff = _look_ahead(depth)
    away, other = situation.away
    money = situation.is_money
    found: dict[str, Any] = bgbot_cpp.cubeful_probs_and_equity_nply(
        bgbot_cpp.flip_board(board),
        OPPONENTS_CPP_OWNER[situation.cube_owner],
        net,
        int(depth[0]),
        n_threads=1,
        cube_value=situation.cube_value,
        away1=other,
        away2=away,
        is_crawford=situation.crawford,
        jacoby=situation.jacoby and money,
        beaver=situation.beavers and money,
        bearoff_db=bearoff,
        root_board=to_board(situation.position),
    )
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = found["probs"]
    mine = (1.0 - win, lose_gammon, lose_backgammon, win_gammon, win_backgammon)
    return -float(found["equity"]), probabilities_of(mine)
