"""When a game is won for sure: a race won whatever the dice (WBGF § 4.3 iii).

WBGF § 4.3 iii (seed 001): whose clock runs out loses the match, "unless he would have won it
for sure". This module proves the game part of that, conservatively: the position is a race
with no contact (every checker of the player is past every checker of the opponent, nobody on
the bar) in which the player, playing each roll as well as it can be played, bears off their
last checker before the opponent can, whatever the player's dice, against the opponent's best
dice and plays. (The player would have won for sure: a way to win exists for every roll.)

Counted in rolls: the player needs at most :func:`most_rolls` rolls, the opponent at least
:func:`fewest_rolls`. The player wins for sure when first on roll and ``most <= fewest``, or
second and ``most < fewest``. Both are exact (a search over every roll and every play) for
small positions and safe bounds otherwise: every die in a race without contact can be played,
and each either moves a checker its full number of pips or bears a checker off (at least one
pip), so a roll without a bear-off moves at least 3 pips (2-1), however the checkers are played;
a roll moves at most 24 pips (6-6) and bears off at most four checkers. A bound can only make a
sure win look unsure, never the other way.

>>> most_rolls((13, 2) + (0,) * 24), fewest_rolls((13, 2) + (0,) * 24)
(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from gammon.position import BAR, OFF

Side = tuple[int, ...]
_SEARCH_LIMIT: Final = 300  # distinct positions one exact search may visit
_ROLLS: Final = tuple((a, b) for a in range(1, 7) for b in range(a, 7))


def no_contact(mine: Side, theirs: Side) -> bool:
    """Every checker of ``mine`` is past every checker of ``theirs`` (each side counted from
    its own point of view; a checker on the bar is in contact)."""
    return _highest(mine) + _highest(theirs) <= 24


def wins_race_for_sure(mine: Side, theirs: Side, first: bool) -> bool:
    """``mine``, playing well, bears off before ``theirs`` whatever the dice; ``first``:
    ``mine`` rolls next. False whenever there is contact."""
    if not no_contact(mine, theirs) or not any(theirs[1:]):
        return False
    fewest = fewest_rolls(theirs)
    if _fewest_bound(mine) > fewest:  # not even the best dice would do
        return False
    most = most_rolls(mine)
    return most <= fewest if first else most < fewest


def most_rolls(side: Side) -> int:
    """At most this many rolls bear ``side`` off in a race, whatever the dice, each roll played
    as well as it can be (the bound beyond the search holds however they are played)."""
    pips, checkers = _pips(side), 15 - side[OFF]
    bound = checkers + (pips - checkers) // 3
    exact = _searched(side, max)
    return bound if exact is None else exact


def fewest_rolls(side: Side) -> int:
    """At least this many rolls are needed to bear ``side`` off in a race."""
    exact = _searched(side, min)
    return _fewest_bound(side) if exact is None else exact


def _fewest_bound(side: Side) -> int:
    pips, checkers = _pips(side), 15 - side[OFF]
    return max(-(-pips // 24), -(-checkers // 4))


class _TooBigError(Exception):
    pass


def _searched(side: Side, dice_pick: Callable[..., int]) -> int | None:
    """The exact count, or ``None`` when the search would visit too many positions (a
    memo per call, so the answer never depends on what was asked before)."""
    memo: dict[Side, int] = {}
    try:
        return _search(_points(side), memo, dice_pick)
    except _TooBigError:
        return None


def _search(points: Side, memo: dict[Side, int], dice_pick: Callable[..., int]) -> int:
    """Rolls to bear off ``points`` (counts on points 1..24): the best play of each roll,
    ``dice_pick`` (max: the worst dice, min: the best) over the rolls."""
    if not any(points):
        return 0
    known = memo.get(points)
    if known is not None:
        return known
    if len(memo) >= _SEARCH_LIMIT:
        raise _TooBigError
    result = 1 + dice_pick(
        min(_search(after, memo, dice_pick) for after in _plays(points, dice)) for dice in _ROLLS
    )
    memo[points] = result
    return result


def _plays(points: Side, dice: tuple[int, int]) -> set[Side]:
    """Every position a play of ``dice`` can leave (each die moved in turn, in either order)."""
    orders = [(dice[0],) * 4] if dice[0] == dice[1] else [dice, (dice[1], dice[0])]
    results: set[Side] = set()
    for order in orders:
        layer = {points}
        for die in order:
            layer = {after for now in layer for after in _moves(now, die)} or layer
        results |= layer
    return results


def _moves(points: Side, die: int) -> set[Side]:
    """One die played every legal way in a race (no contact, so no point is closed)."""
    home = not any(points[6:])
    highest = max((point for point in range(1, 25) if points[point - 1]), default=0)
    found: set[Side] = set()
    for point in range(1, 25):
        if not points[point - 1]:
            continue
        target = point - die
        if target < 1 and not (home and (target == 0 or point == highest)):
            continue
        changed = list(points)
        changed[point - 1] -= 1
        if target >= 1:
            changed[target - 1] += 1
        found.add(tuple(changed))
    return found


def _points(side: Side) -> Side:
    return tuple(side[1:BAR])


def _highest(side: Side) -> int:
    return max((point for point in range(1, BAR + 1) if side[point]), default=0)


def _pips(side: Side) -> int:
    return sum(point * side[point] for point in range(1, BAR + 1))


def match_won_for_sure(
    mine: Side, theirs: Side, first: bool, points: int, score: int, length: int
) -> bool:
    """The player would win the match for sure: a match (not money play) in which winning
    this game by ``points`` (a single game at the cube, the least a win scores) reaches
    ``length`` from ``score``, and the game is a race the player wins for sure
    (:func:`wins_race_for_sure`). The opponent may still double or redouble: that only
    raises what the player wins."""
    return length > 0 and score + points >= length and wins_race_for_sure(mine, theirs, first)
