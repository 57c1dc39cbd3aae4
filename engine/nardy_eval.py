"""A static evaluation of long nardy positions: chances and equity for the side on roll.

There is no neural net for long nardy, so the player rests on a hand-made evaluation. Every
positional term is measured in *pips*: how many extra pips of dice a side will need, on
average, because of it. Each side's pip count plus its penalties is its **effective pip
count**; the race between the two effective counts gives the chances through a normal
approximation, and the chances give an equity in points (oin 1, mars 2), so the same number
chooses plays and answers resignations.

The terms, per side (a side's checkers in its own numbering, 24 the head, 1..6 home):

``checker``
    Each checker still on the board costs this many pips on top of its pips: a checker needs
    a die of its own to bear off, so fifteen checkers on the ace point are worth far more than
    15 pips. This is what makes bearing off better than moving inside the home.
``head``
    Each checker on the head. Only one checker may leave the head per turn, so a crowded head
    is a queue that turns into lost tempo (and unplayable rolls) once the rest of the army is
    advanced: take one checker from the head every turn.
``stuck``
    A checker that has opposing checkers on ``k`` of the six points in front of it cannot move
    with a roll whose two dice both hit those points: chance ``(k / 6)²``. The penalty is
    ``stuck × (k / 6)²`` per checker outside its home. This rewards holding points directly
    in front of the opponent's checkers.
``block``
    Consecutive points held by the opponent (a block) in front of a side's checkers, counted
    for the checkers up to twelve points behind it: ``block × BLOCK_SHAPE[length]`` per
    checker. The shape grows quickly, since a checker can jump a short block with one die but
    not a long one; a six-point block (legal only while one of the blocked side's checkers is
    already past it) is a wall that traps every checker behind it.
``lost``
    The pips of each die value the side could not play at all with any checker now (every
    destination held by the opponent), times the chance the roll contains it; times ``lost``
    because such a jam usually lasts for several turns.
``stack``
    Each checker beyond three on one point between the head and the home: big stacks are
    inflexible (few different landing points, few builders for blocks).
``spread``
    A bonus (subtracted) per point held outside the home other than the head: more points
    held means more ways to play each die and more material for blocks.
``deep``
    Checkers on the ace and deuce points before the bear-off: dice played there are mostly
    wasted pips, and the home fills from the bottom without blocking anything.

Chances, from the side on roll (half a roll of 8⅙ pips ahead in the race):

* win: ``Φ((E_them − E_us + 4.08) / σ)`` with ``σ² = 2.26 × (E_us + E_them)``, the variance
  of a race of that many pips (a roll is 8.17 ± 4.30 pips, and the number of rolls a race
  takes varies by ``variance / mean`` per pip);
* mars (a loser who bore off nothing pays double): the same race between one side's full
  effective count and the other's count to the *first* checker off (pips to bring every
  checker home plus the lowest home point, plus the blocking and head terms).

Equity = ``2·win − 1 + mars_win − mars_loss`` (mars terms only when the match plays mars).
The weights were tuned by self-play matches between variants (see :mod:`engine.arena`).

>>> from gammon import Position, Variant
>>> start = Position.start(Variant.LONG_NARDY)
>>> chances = estimate(start.player, start.opponent)
>>> 0.5 < chances.win < 0.6 and max(chances.mars_win, chances.mars_loss) < 0.01
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from gammon.position import Position

Side = tuple[int, ...]

HEAD: Final = 24
ROLL_PIPS: Final = 49 / 6
"""The mean pips of one roll (doubles count four times)."""
ON_ROLL: Final = ROLL_PIPS / 2
"""The side on roll is half a roll ahead in the race."""
RACE_VARIANCE: Final = 2.26
"""Variance of a race's length per pip still to travel (in pips²): roll variance / mean."""
MIN_SIGMA: Final = 3.0
BLOCK_SHAPE: Final = (0.0, 0.0, 1.0, 3.0, 6.0, 10.0, 20.0)
"""The ``block`` term's growth with the block's length (index = consecutive points)."""
BLOCK_REACH: Final = 12
"""How far behind a block (in points) checkers count as facing it."""
# The chance that a roll contains a given die value, weighted by how often it is played:
# ten non-double rolls (played once) and the double (played four times), of 36.
_DIE_USE: Final = 14 / 36
_POINTS: Final = sum(1 << point for point in range(1, 25))
_OUTSIDE: Final = sum(1 << point for point in range(7, 25))
_LOW_TWELVE: Final = sum(1 << point for point in range(1, 13))
_HOME: Final = sum(1 << point for point in range(1, 7))
_REACH: Final = (1 << BLOCK_REACH) - 1


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, each in pips per unit (see the module docstring)."""

    checker: float = 5.0
    head: float = 12.0
    stuck: float = 4.0
    block: float = 0.5
    lost: float = 8.0
    stack: float = 1.0
    spread: float = 0.5
    deep: float = 5.0


DEFAULT_WEIGHTS: Final = Weights()


@dataclass(frozen=True)
class Chances:
    """Outcome chances for the side on roll, each 0..1, and the equity in points.

    ``mars_win`` is the chance to win with a mars (included in ``win``), ``mars_loss`` the
    chance to lose with one. ``margin`` is the effective race lead in pips (on-roll bonus
    included); it orders positions the chances round to certainty.
    """

    win: float
    mars_win: float
    mars_loss: float
    equity: float
    margin: float


def estimate(
    us: Side, them: Side, *, mars: bool = True, weights: Weights = DEFAULT_WEIGHTS
) -> Chances:
    """The chances of ``us``, on roll, against ``them`` (each side in its own numbering)."""
    if us[0] == 15 or them[0] == 15:
        return _finished(us, them, mars)
    our_mask = _occupied(us)
    their_mask = _occupied(them)
    ours = _effective(us, _turned(their_mask), our_mask, weights)
    theirs = _effective(them, _turned(our_mask), their_mask, weights)
    return _chances(ours, theirs, mars)


def equity(us: Side, them: Side, *, mars: bool = True, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The equity of ``us`` on roll, in points (−2..2), for ordering positions.

    A vanishing share of the race margin is added so that positions whose chances round to
    certainty still order by how far ahead they are (at most 0.0004 points).
    """
    if us[0] == 15 or them[0] == 15:
        return _finished(us, them, mars).equity
    our_mask = _occupied(us)
    their_mask = _occupied(them)
    ours = _effective(us, _turned(their_mask), our_mask, weights)
    theirs = _effective(them, _turned(our_mask), their_mask, weights)
    return _equity(ours, theirs, mars)


def worst_reply(
    us: Side,
    replies: Iterable[Side],
    *,
    mars: bool = True,
    weights: Weights = DEFAULT_WEIGHTS,
) -> float:
    """``min(equity(us, reply) for reply in replies)``: our equity, on roll, after the
    opponent's reply that is best for them (``replies``: their side after each legal play;
    ``inf`` when there is none). Our own terms depend only on which points the opponent
    holds, so they are computed once per pattern of held points."""
    our_mask = _occupied(us)
    facing_them = _turned(our_mask)
    ours_by_mask: dict[int, tuple[float, float]] = {}
    worst = math.inf
    for board in replies:
        if board[0] == 15:
            value = _finished(us, board, mars).equity
        else:
            mask = _occupied(board)
            ours = ours_by_mask.get(mask)
            if ours is None:
                ours = ours_by_mask[mask] = _effective(us, _turned(mask), our_mask, weights)
            value = _equity(ours, _effective(board, facing_them, mask, weights), mars)
        if value < worst:
            worst = value
    return worst


def position_chances(
    position: Position, *, mars: bool = True, weights: Weights = DEFAULT_WEIGHTS
) -> Chances:
    """:func:`estimate` for a :class:`Position` (its side on roll)."""
    return estimate(position.player, position.opponent, mars=mars, weights=weights)


def _chances(ours: tuple[float, float], theirs: tuple[float, float], mars: bool) -> Chances:
    """Chances from both sides' (effective pips, effective pips to the first checker off)."""
    win, mars_win, mars_loss, margin = _outcome(ours, theirs, mars)
    return Chances(win, mars_win, mars_loss, 2 * win - 1 + mars_win - mars_loss, margin)


def _equity(ours: tuple[float, float], theirs: tuple[float, float], mars: bool) -> float:
    win, mars_win, mars_loss, margin = _outcome(ours, theirs, mars)
    return 2 * win - 1 + mars_win - mars_loss + 1e-6 * margin


def _outcome(
    ours: tuple[float, float], theirs: tuple[float, float], mars: bool
) -> tuple[float, float, float, float]:
    """(win, mars win, mars loss, margin): see the module docstring."""
    our_pips, our_first = ours
    their_pips, their_first = theirs
    margin = their_pips - our_pips + ON_ROLL
    win = _phi(margin / _sigma(our_pips + their_pips))
    mars_win = 0.0
    mars_loss = 0.0
    if mars:
        if their_first > 0:
            lead = their_first - our_pips + ON_ROLL
            mars_win = min(win, _phi(lead / _sigma(our_pips + their_first)))
        if our_first > 0:
            lead = our_first - their_pips - ON_ROLL
            mars_loss = min(1 - win, _phi(lead / _sigma(their_pips + our_first)))
    return win, mars_win, mars_loss, margin


def _finished(us: Side, them: Side, mars: bool) -> Chances:
    if us[0] == 15:
        double = mars and them[0] == 0
        return Chances(1.0, 1.0 if double else 0.0, 0.0, 2.0 if double else 1.0, 0.0)
    double = mars and us[0] == 0
    return Chances(0.0, 0.0, 1.0 if double else 0.0, -2.0 if double else -1.0, 0.0)


def _occupied(side: Side) -> int:
    """The side's occupied points as bits (bit ``p`` for point ``p``)."""
    mask = 0
    bit = 1
    for count in side:
        if count:
            mask |= bit
        bit <<= 1
    return mask & _POINTS


def _turned(mask: int) -> int:
    """An occupancy mask in the other side's numbering (point ``q`` ↔ ``q ± 12``)."""
    return ((mask & _LOW_TWELVE) << 12) | ((mask >> 12) & _LOW_TWELVE)


def _effective(side: Side, blocked: int, own: int, weights: Weights) -> tuple[float, float]:
    """(effective pips to bear everything off, effective pips to bear the first checker off;
    0 once one is off). ``blocked``: the opponent's points, as bits in this side's numbering;
    ``own``: the side's points."""
    pips = side[1] + 2 * side[2] + 3 * side[3] + 4 * side[4] + 5 * side[5] + 6 * side[6]
    home = own & _HOME
    lowest_home = (home & -home).bit_length() - 1 if home else 1
    outside = own & _OUTSIDE
    if not outside:  # bearing off: nothing can block or jam any more
        effective = pips + (15 - side[0]) * weights.checker
        return effective, 0.0 if side[0] else lowest_home
    entry = 0  # pips to bring every checker home
    travelling = 0  # checkers outside the home
    stack = 0
    spread = 0
    stuck = 0.0
    table = _stuck_table(weights.stuck)
    while outside:
        point = outside.bit_length() - 1
        outside ^= 1 << point
        count = side[point]
        entry += (point - 6) * count
        travelling += count
        stuck += count * table[(blocked >> (point - 6)) & 0x3F]
        if point != HEAD:
            spread += 1
            if count > 3:
                stack += count - 3
    pips += entry + 6 * travelling
    hindrance = (
        side[HEAD] * weights.head
        + stuck
        + _block_penalty(side, blocked, own) * weights.block
        + _lost_pips(own, blocked) * weights.lost
    )
    effective = (
        pips
        + (15 - side[0]) * weights.checker
        + hindrance
        + stack * weights.stack
        - spread * weights.spread
        + (side[1] + 0.5 * side[2]) * weights.deep
    )
    if side[0]:
        return effective, 0.0
    return effective, entry + lowest_home + hindrance


@lru_cache(maxsize=8)
def _stuck_table(weight: float) -> tuple[float, ...]:
    """Penalty per checker for each pattern of held points among the six in front of it."""
    return tuple(weight * (window.bit_count() / 6) ** 2 for window in range(64))


def _block_penalty(side: Side, blocked: int, own: int) -> float:
    """Σ over the opponent's blocks of BLOCK_SHAPE[length] × the checkers behind within reach."""
    total = 0.0
    for top, shape in _blocks(blocked):
        if (own >> top) & _REACH:
            total += shape * sum(side[top : top + BLOCK_REACH])
    return total


@lru_cache(maxsize=4096)
def _blocks(blocked: int) -> tuple[tuple[int, float], ...]:
    """The blocks (two or more held points in a row) among ``blocked``: for each, the first
    point behind it and its :data:`BLOCK_SHAPE` value."""
    found = []
    rest = blocked
    while rest:
        low = (rest & -rest).bit_length() - 1
        run = rest >> low
        length = (run ^ (run + 1)).bit_length() - 1  # the run of held points from ``low``
        top = low + length
        rest &= -(1 << top)
        if length >= 2:
            found.append((top, BLOCK_SHAPE[min(length, 6)]))
    return tuple(found)


def _lost_pips(own: int, blocked: int) -> float:
    """Expected pips per roll the side cannot play (before the bear-off): die values no
    checker can move."""
    open_points = _POINTS & ~blocked
    lost = 0.0
    for die in range(1, 7):
        if not (own >> die) & open_points:
            lost += die * _DIE_USE
    return lost


def _sigma(pips: float) -> float:
    return max(MIN_SIGMA, math.sqrt(RACE_VARIANCE * max(pips, 0.0)))


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2))
