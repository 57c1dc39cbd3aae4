"""Backgammon through the bgsage engine, behind the values of :mod:`engine.api`.

This module and :mod:`engine.backgammon_cube` (the cube action) are the engine adapter, the
only modules of the project that import ``bgsage`` (and its compiled core, ``bgbot_cpp``,
which ships in the same distribution): everything else speaks
:class:`~engine.api.Situation` and gets plain values back, so the engine can be replaced
without touching the bot.

bgsage sees a board as 26 integers from the mover's view: points 1..24 in the mover's
numbering, positive for the mover's checkers and negative for the opponent's; index 25 is the
mover's bar and index 0 the opponent's bar, both as positive counts (see
``bgsage.STARTING_BOARD`` and ``bgsage.flip_board``). Borne-off checkers are implicit.

The engine's legal plays are matched to :func:`gammon.legal_plays` by the position they
reach, so the notation is always ours and the set of plays is always exactly our rules'.

Analyzers are built lazily, one per depth and cube mode, and kept for the life of the process:
loading the weights takes a while, and worker processes answer many calls.

At the plain net (``"1ply"``) bgsage's list of checker plays is replaced by the same
computation made directly (:func:`plain_net_plays`), because bgsage's own call starts a thread
pool for a conversion that costs microseconds; it gives exactly bgsage's results, which
``tests/engine`` checks. The cube action is :mod:`engine.backgammon_cube`'s.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import bgbot_cpp  # type: ignore[import-not-found]
import bgsage

from engine.api import (
    CubeOwner,
    Level,
    Probabilities,
    RankedPlay,
    Situation,
)
from engine.levels import spec
from gammon import Play, Position, Variant, format_play, legal_plays
from gammon.position import BAR, CHECKERS, OFF, SLOTS

Board = list[int]

OWNER_NAME: Final = {  # the cube's owner as bgsage's Python analyzers name it
    CubeOwner.CENTRED: "centered",
    CubeOwner.DECIDER: "player",
    CubeOwner.OPPONENT: "opponent",
}
CPP_OWNER: Final = {  # the cube's owner seen from the decider, for bgbot_cpp
    CubeOwner.CENTRED: bgbot_cpp.CubeOwner.CENTERED,
    CubeOwner.DECIDER: bgbot_cpp.CubeOwner.PLAYER,
    CubeOwner.OPPONENT: bgbot_cpp.CubeOwner.OPPONENT,
}
OPPONENTS_CPP_OWNER: Final = {  # the same seen from the opponent, who rolls after a play
    CubeOwner.CENTRED: bgbot_cpp.CubeOwner.CENTERED,
    CubeOwner.DECIDER: bgbot_cpp.CubeOwner.OPPONENT,
    CubeOwner.OPPONENT: bgbot_cpp.CubeOwner.PLAYER,
}
_THREADS: Final = 2
"""Threads of one look-ahead search (bgsage uses at least two for 2-ply and deeper). Fixed
rather than "all cores", since several worker processes may search at once."""

ROLLS: Final = tuple((high, low) for high in range(1, 7) for low in range(1, high + 1))
"""The 21 distinct rolls, higher die first."""


# --- boards ---------------------------------------------------------------------------------


def to_board(position: Position) -> Board:
    """bgsage's board of ``position``, seen from the player on roll."""
    if position.variant is not Variant.BACKGAMMON:
        raise ValueError("the backgammon engine plays backgammon only")
    return _board_of(position.player, position.opponent)


def _board_of(mine: Sequence[int], theirs: Sequence[int]) -> Board:
    board = [0] * SLOTS
    for point in range(1, 25):
        board[point] = mine[point] - theirs[25 - point]
    board[BAR] = mine[BAR]
    board[OFF] = theirs[BAR]
    return board


def board_after(result: Position) -> tuple[int, ...]:
    """bgsage's post-move board of a play's ``result`` (the position it reaches, the
    opponent on roll): the mover's view, ``to_board(result.swapped())`` without building the
    swapped position. The engine's plays are matched to ours by it."""
    return tuple(_board_of(result.opponent, result.player))


def from_board(board: Sequence[int]) -> Position:
    """The position of a bgsage board, with the board's mover as the player on roll."""
    if len(board) != SLOTS:
        raise ValueError(f"a board has {SLOTS} entries, got {len(board)}")
    mine = [0] * SLOTS
    theirs = [0] * SLOTS
    for point in range(1, 25):
        count = board[point]
        if count > 0:
            mine[point] = count
        elif count < 0:
            theirs[25 - point] = -count
    mine[BAR] = board[BAR]
    theirs[BAR] = board[OFF]
    mine[OFF] = CHECKERS - sum(mine)
    theirs[OFF] = CHECKERS - sum(theirs)
    return Position(mine, theirs)


# --- the engine -----------------------------------------------------------------------------


@functools.cache
def analyzer(eval_level: str, cubeful: bool) -> Any:
    """bgsage's analyzer of one depth and cube mode, built on first use and kept."""
    return bgsage.BgBotAnalyzer(eval_level=eval_level, cubeful=cubeful, parallel_threads=_THREADS)


def net_and_bearoff(holder: Any) -> tuple[Any, Any]:
    """The plain net and the bear-off database that a part of a bgsage analyzer holds
    (private: ``_strategy_1ply``, ``_bearoff_db``), for bgbot_cpp's searches to use instead of
    loading the net's weights again. A bgsage that moves them fails here, and
    ``tests/engine/test_deep_plays.py`` with it."""
    if not all(hasattr(holder, part) for part in ("_strategy_1ply", "_bearoff_db")):
        raise RuntimeError("this bgsage keeps no plain net and bear-off database to search with")
    return holder._strategy_1ply, holder._bearoff_db


def _eval_level(level: Level) -> str:
    return spec(level).eval_level


def _cube_kwargs(situation: Situation) -> dict[str, Any]:
    """Match score and money-play options as bgsage takes them (it ignores Jacoby and beavers
    in matches; we do not pass them there at all)."""
    money = situation.is_money
    return {
        "away1": situation.away[0],
        "away2": situation.away[1],
        "is_crawford": situation.crawford,
        "jacoby": situation.jacoby and money,
        "beaver": situation.beavers and money,
    }


def probabilities_of(chances: Sequence[float]) -> Probabilities:
    """Outcome chances as bgsage lists them (win, win gammon, win backgammon, lose gammon,
    lose backgammon), tidied as bgsage reports them (a gammon no likelier than the win...)."""
    return _probabilities(bgsage.Probabilities.from_list(list(chances)))


def _probabilities(probs: Any) -> Probabilities:
    return Probabilities(
        win=float(probs.win),
        win_gammon=float(probs.gammon_win),
        win_backgammon=float(probs.backgammon_win),
        lose_gammon=float(probs.gammon_loss),
        lose_backgammon=float(probs.backgammon_loss),
    )


def _as_list(probabilities: Probabilities) -> list[float]:
    p = probabilities
    return [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon]


def _money_cubeless(probabilities: Probabilities) -> float:
    p = probabilities
    return 2.0 * p.win - 1.0 + p.win_gammon - p.lose_gammon + p.win_backgammon - p.lose_backgammon


def cubeless_equity(situation: Situation, probabilities: Probabilities) -> float:
    """The cubeless equity of outcome chances: points per cube in money play, EMG (the
    match-winning chance through the match equity table, as money equity) in a match."""
    if situation.is_money:
        return _money_cubeless(probabilities)
    away, other = situation.away
    args = (away, other, situation.cube_value, situation.crawford)
    mwc = bgbot_cpp.cubeless_mwc(_as_list(probabilities), *args)
    return float(bgbot_cpp.mwc2eq(mwc, *args))


def _move_equity(situation: Situation, move: EngineMove) -> float:
    """A move's equity for ranking: bgsage's cubeful equity with the cube on; without it the
    cubeless equity, converted through the match equity table in a match."""
    if situation.cube_enabled:
        return move.equity
    if situation.is_money:
        return move.cubeless_equity
    return cubeless_equity(situation, move.probabilities)


def post_move_value(
    situation: Situation, board: Board, eval_level: str
) -> tuple[float, Probabilities]:
    """The mover's equity and outcome chances after a move that reached ``board`` (the
    mover's view), at ``eval_level``: cubeful with the cube on, else cubeless."""
    equity, probs = _post_move(situation, board, eval_level)
    return equity, _probabilities(probs)


def _post_move(situation: Situation, board: Board, eval_level: str) -> tuple[float, Any]:
    """Equity and bgsage probabilities of a position after the mover's turn (mover's view):
    for a play bgsage did not list, or a roll that cannot be played."""
    analysis = analyzer(eval_level, situation.cube_enabled).post_move_analytics(
        board,
        OWNER_NAME[situation.cube_owner],
        situation.cube_value,
        away1=situation.away[0],
        away2=situation.away[1],
        is_crawford=situation.crawford,
        jacoby=situation.jacoby and situation.is_money,
    )
    if situation.cube_enabled:
        return float(analysis.cubeful_equity), analysis.probs
    probabilities = _probabilities(analysis.probs)
    return cubeless_equity(situation, probabilities), analysis.probs


# --- the engine's list of plays --------------------------------------------------------------


@dataclass(frozen=True)
class EngineMove:
    """One play as the engine lists it: the board it reaches (the mover's view), its equity
    (cubeful when the cube is in play, else cubeless: bgsage's ``MoveAnalysis.equity``), its
    cubeless equity and the outcome chances after it (the mover's)."""

    board: tuple[int, ...]
    equity: float
    cubeless_equity: float
    probabilities: Probabilities


def _checker_play(situation: Situation, dice: tuple[int, int], depth: str) -> list[EngineMove]:
    if depth == "1ply":
        return plain_net_plays(situation, dice)
    return library_plays(situation, dice, depth)


def library_plays(situation: Situation, dice: tuple[int, int], depth: str) -> list[EngineMove]:
    """bgsage's own ``checker_play`` at ``depth``: every play it finds for ``dice``, best
    first (a roll that cannot be played lists the board unchanged)."""
    result = analyzer(depth, situation.cube_enabled).checker_play(
        to_board(situation.position),
        dice[0],
        dice[1],
        situation.cube_value,
        OWNER_NAME[situation.cube_owner],
        **_cube_kwargs(situation),
    )
    return [
        EngineMove(
            board=tuple(move.board),
            equity=float(move.equity),
            cubeless_equity=float(move.cubeless_equity),
            probabilities=_probabilities(move.probs),
        )
        for move in result.moves
    ]


@functools.cache
def _plain_netanalyzer() -> Any:
    """The cubeless plain-net analyzer inside bgsage's cubeless analyzer object (its private
    ``_analyzer``, an ``_OnePlyAnalyzer``): its ``checker_play_analytics`` lists the plays
    with the net's chances as they are, before bgsage tidies them for display. A bgsage that
    changes this fails ``tests/engine/test_fast_paths.py``."""
    inner = analyzer("1ply", False)._analyzer
    if not callable(getattr(inner, "checker_play_analytics", None)):
        raise RuntimeError("this bgsage has no plain-net checker-play analytics")
    return inner


def plain_net_plays(situation: Situation, dice: tuple[int, int]) -> list[EngineMove]:
    """The plain net's list of plays, computed as bgsage's ``checker_play`` at ``"1ply"`` does.

    bgsage's cubeful analyzer starts a thread pool on every call just to turn each play's
    cubeless chances into a cubeful equity, a few microseconds of work per play; the pool
    made most of the cost of a decision, and luck asks for 21 of them (docs/benchmarks.md
    has the figures). Here the plays and
    their chances come from the cached cubeless analyzer (bgsage's candidates,
    ``possible_moves``, each evaluated by the plain net with the bear-off database, as in
    its cubeful path), then go through the same Janowski conversion in a loop
    (``cube_efficiency``, then ``cl2cf`` in a match or ``cl2cf_money`` for money, with the
    Jacoby rule only for money and a centred cube) and are sorted by bgsage's order: equity,
    then cubeless equity, then the board. The results are identical to
    :func:`library_plays`'s; ``tests/engine/test_fast_paths.py`` checks that.
    """
    board = to_board(situation.position)
    analytics = _plain_netanalyzer().checker_play_analytics(board, dice[0], dice[1])
    away1, away2 = situation.away
    is_match = away1 > 0 or away2 > 0
    owner = CPP_OWNER[situation.cube_owner]
    jacoby_active = situation.jacoby and not is_match and situation.cube_owner is CubeOwner.CENTRED
    moves: list[EngineMove] = []
    for entry in analytics:
        after: Board = entry["board"]
        # bgsage converts the net's chances as they are; only the reported ones are clamped
        # (gammons at most the wins, and so on: bgsage's Probabilities).
        probs: list[float] = entry["probs"]
        cubeless = float(entry["equity"])
        equity = cubeless
        if situation.cube_enabled:
            pips, opponent_pips = bgbot_cpp.pip_counts(after)
            life = bgbot_cpp.cube_efficiency(probs, bgbot_cpp.is_race(after), pips, opponent_pips)
            if is_match:
                equity = float(
                    bgbot_cpp.cl2cf(
                        probs,
                        situation.cube_value,
                        owner,
                        life,
                        away1,
                        away2,
                        situation.crawford,
                        jacoby=False,
                    )
                )
            else:
                equity = float(
                    bgbot_cpp.cl2cf_money(probs, owner, life, jacoby_active=jacoby_active)
                )
        moves.append(
            EngineMove(
                board=tuple(after),
                equity=equity,
                cubeless_equity=cubeless,
                probabilities=_probabilities(bgsage.Probabilities.from_list(probs)),
            )
        )
    moves.sort(key=lambda move: (-move.equity, -move.cubeless_equity, move.board))
    return moves


# --- checker play ---------------------------------------------------------------------------


def rank_plays(situation: Situation, dice: tuple[int, int], level: Level) -> tuple[RankedPlay, ...]:
    """Every legal play of ``dice``, best first; empty when the roll cannot be played.

    The set of plays is exactly :func:`gammon.legal_plays`'s. A play the engine did not list
    (it never happened in the tests; the rules are the same) is still ranked, by evaluating
    the position it reaches; a play only the engine lists is left out.
    """
    return rank_plays_at_depth(situation, dice, _eval_level(level))


def rank_plays_at_depth(
    situation: Situation, dice: tuple[int, int], depth: str
) -> tuple[RankedPlay, ...]:
    """:func:`rank_plays` at an engine depth (``"1ply"``, ``"2ply"``, ``"3ply"``, ...) rather
    than a playing level: for benchmarks and analysis settings."""
    position = situation.position
    plays = legal_plays(position, dice)
    if not plays:
        return ()
    by_result: dict[str, Play] = {play.result.id(): play for play in plays}
    by_board = {board_after(play.result): result_id for result_id, play in by_result.items()}
    scored: list[tuple[float, str, Probabilities]] = []
    for move in _checker_play(situation, dice, depth):
        result_id = by_board.pop(move.board, None)
        if result_id is not None:
            scored.append((_move_equity(situation, move), result_id, move.probabilities))
    for board, result_id in by_board.items():  # the plays the engine did not list
        equity, probs = _post_move(situation, list(board), depth)
        scored.append((equity, result_id, _probabilities(probs)))
    scored.sort(key=lambda item: -item[0])  # stable: the engine's order breaks ties
    best = scored[0][0]
    return tuple(
        RankedPlay(
            notation=format_play(by_result[result_id]),
            result_id=result_id,
            equity=equity,
            loss=best - equity,
            probabilities=probabilities,
        )
        for equity, result_id, probabilities in scored
    )


def best_equity(situation: Situation, dice: tuple[int, int], depth: str) -> float:
    """The equity after the best play of ``dice`` (the mover's view, after the move), or of the
    unchanged position when the roll cannot be played. Reads the engine's own list of plays
    (the same set as ours, see :func:`rank_plays`) without naming them: for luck."""
    moves = _checker_play(situation, dice, depth)
    if not moves:
        return _post_move(situation, to_board(situation.position), depth)[0]
    return max(_move_equity(situation, move) for move in moves)


# --- luck and match equity ------------------------------------------------------------------


def luck_depth(level: Level) -> str:
    """The depth of the per-roll equities of :func:`roll_luck`: one ply less than the level's,
    at least the plain net — bgsage's own convention for luck, and gnubg judges luck with its
    0-ply net by default. It keeps luck cheap: 21 look-ahead searches per roll would not be."""
    plies = int(_eval_level(level)[0])
    return f"{max(1, plies - 1)}ply"


def roll_luck(
    situation: Situation, dice: tuple[int, int], level: Level, opening: bool = False
) -> float:
    """How much better ``dice`` are for the decider than the average roll: the equity after
    the best play of ``dice`` minus the average of that over all rolls (doubles count once in
    36, other rolls twice; an ``opening`` roll cannot be a double). Decider's view, in the
    unit of the equities (per cube; EMG in matches)."""
    depth = luck_depth(level)
    high, low = max(dice), min(dice)
    total = 0.0
    weight = 0
    actual = 0.0
    for roll in ROLLS:
        if opening and roll[0] == roll[1]:
            continue
        equity = best_equity(situation, roll, depth)
        ways = 1 if roll[0] == roll[1] else 2
        total += ways * equity
        weight += ways
        if roll == (high, low):
            actual = equity
    return actual - total / weight


def match_equity(away: int, other: int, post_crawford: bool) -> float:
    """The chance to win the match at the start of a game, needing ``away`` points against
    ``other`` (Kazaross-XG2 table, bgsage's ``get_met``). ``post_crawford`` says whether the
    Crawford game has been played: at a 1-away score it picks the post-Crawford value. 1.0
    when ``away`` ≤ 0 (the match is won), 0.0 when ``other`` ≤ 0."""
    if away <= 0:
        return 1.0
    if other <= 0:
        return 0.0
    return float(bgbot_cpp.get_met(away, other, post_crawford))


def winning_chance(situation: Situation, equity: float) -> float:
    """The match-winning chance of a cubeful equity (EMG, normalised to the cube) in a match
    situation: between losing and winning a single game at the current cube value."""
    if situation.is_money:
        raise ValueError("money play has no match-winning chance")
    away, other = situation.away
    return float(bgbot_cpp.eq2mwc(equity, away, other, situation.cube_value, situation.crawford))
