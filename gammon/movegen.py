"""Every legal play for a roll: the rules of checker movement.

The generator works on a mutable list of the mover's counts and undoes each step after
exploring it; only complete plays become values. Rules honoured: enter from the bar before
anything else; a point held by two or more opposing checkers is closed; a single opposing
checker is hit; both dice (all four of a double) must be played when possible, otherwise as
many as possible, and the larger die when only one of the two can be played; bearing off only
with every checker home, by the exact number or from the highest occupied point.

>>> from gammon.position import Position
>>> len(legal_plays(Position.start(), (3, 1)))
16
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from gammon import nardy_movegen
from gammon.play import Play
from gammon.position import BAR, OFF, Position, Variant

# A step while generating: (start, end, die, hit).
_RawStep = tuple[int, int, int, bool]
# A finished play while generating: (mover counts, hit points as a bit mask) -> steps.
_Found = dict[tuple[tuple[int, ...], int], tuple[_RawStep, ...]]


def checked_dice(dice: Sequence[int]) -> tuple[int, int]:
    """Validate a roll and return it as ``(higher, lower)``."""
    try:
        first, second = dice
    except (TypeError, ValueError):
        raise ValueError(f"a roll is two dice, got {dice!r}") from None
    for die in (first, second):
        if not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6:
            raise ValueError(f"a die shows 1 to 6, got {dice!r}")
    return (first, second) if first >= second else (second, first)


def legal_plays(position: Position, dice: Sequence[int]) -> tuple[Play, ...]:
    """Every distinct complete play (distinct by resulting position) for ``dice``.

    Empty when the roll cannot be played at all. Each play's ``result`` has the opponent on
    roll. The order is stable: by the order the generator first reached each result. Recent
    answers are cached, since a turn asks for the same plays several times.
    """
    high, low = checked_dice(dice)
    return _cached_plays(position, high, low)


def generate_plays(position: Position, dice: Sequence[int]) -> tuple[Play, ...]:
    """:func:`legal_plays` without the cache (for measuring the generator itself)."""
    high, low = checked_dice(dice)
    return _to_plays(position, (high, low), _generate(position, high, low))


# A bot with 200 matches going asks for a match's plays again a request or two later (the roll
# finds them, the move is checked against them), after the other matches' requests have brought
# new entries of their own: a much smaller cache evicted entries before they were asked for
# again. 2,048 entries of plays and their positions are about 23 MB (docs/benchmarks.md).
_KEPT_ROLLS = 2048


@lru_cache(maxsize=_KEPT_ROLLS)
def _cached_plays(position: Position, high: int, low: int) -> tuple[Play, ...]:
    return _to_plays(position, (high, low), _generate(position, high, low))


def _generate(position: Position, high: int, low: int) -> _Found:
    if position.variant is Variant.LONG_NARDY:
        return nardy_movegen.generate(position, high, low)
    board = list(position.player)
    # Opposing checkers on each of the mover's points: index p -> opponent's point 25 - p.
    facing = position.opponent[::-1]
    if high == low:
        return _generate_double(board, facing, high)
    return _generate_two(board, facing, high, low)


def _steps_for(
    board: list[int], facing: tuple[int, ...], die: int, top: int
) -> list[tuple[int, int]]:
    """Single-checker moves ``(start, end)`` for ``die`` from points no higher than ``top``."""
    if board[BAR]:
        end = BAR - die
        return [(BAR, end)] if facing[end] < 2 else []
    steps: list[tuple[int, int]] = []
    home = not any(board[7:BAR])
    highest = 0
    if home:
        for point in range(6, 0, -1):
            if board[point]:
                highest = point
                break
    for point in range(top if top < BAR else 24, 0, -1):
        if board[point]:
            end = point - die
            if end > 0:
                if facing[end] < 2:
                    steps.append((point, end))
            elif home and (end == 0 or point == highest):
                steps.append((point, OFF))
    return steps


def step_end(board: Sequence[int], facing: Sequence[int], start: int, die: int) -> int | str:
    """Where one checker from ``start`` lands with ``die``, or why it may not move.

    The reason codes are ``no_checker``, ``bar_first``, ``point_closed``, ``not_all_home`` and
    ``higher_checker`` (bearing off with a larger number while a checker stands higher).
    """
    if not board[start]:
        return "no_checker"
    if board[BAR] and start != BAR:
        return "bar_first"
    end = start - die
    if end > 0:
        return end if facing[end] < 2 else "point_closed"
    if any(board[7:]):
        return "not_all_home"
    if end < 0 and any(board[start + 1 : 7]):
        return "higher_checker"
    return OFF


def with_hits(side: tuple[int, ...], mask: int) -> tuple[int, ...]:
    """``side`` after the blots on the mover's points set in ``mask`` were hit."""
    if not mask:
        return side
    hit_side = list(side)
    for point in range(1, 25):
        if (mask >> point) & 1:
            hit_side[25 - point] = 0
            hit_side[BAR] += 1
    return tuple(hit_side)


def _generate_two(board: list[int], facing: tuple[int, ...], high: int, low: int) -> _Found:
    both: _Found = {}
    single: dict[int, _Found] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        for start, end in _steps_for(board, facing, first, BAR):
            board[start] -= 1
            board[end] += 1
            hit1 = end != OFF and facing[end] == 1
            mask1 = (1 << end) if hit1 else 0
            step1 = (start, end, first, hit1)
            followups = _steps_for(board, facing, second, BAR)
            if not followups:
                key = (tuple(board), mask1)
                if key not in single[first]:
                    single[first][key] = (step1,)
            for start2, end2 in followups:
                board[start2] -= 1
                board[end2] += 1
                hit2 = end2 != OFF and facing[end2] == 1 and not (mask1 >> end2) & 1
                key = (tuple(board), mask1 | (1 << end2) if hit2 else mask1)
                if key not in both:
                    both[key] = (step1, (start2, end2, second, hit2))
                board[start2] += 1
                board[end2] -= 1
            board[start] += 1
            board[end] -= 1
    if both:
        return both
    return single[high] or single[low]


def _generate_double(board: list[int], facing: tuple[int, ...], die: int) -> _Found:
    """Plays of a double, each found once: steps go from the highest start downwards.

    Any legal order of same-sized steps can be rearranged so that starts never increase and
    stay legal, and the multiset of starts fixes the result, so no play is found twice.
    """
    by_depth: list[_Found] = [{}, {}, {}, {}, {}]
    path: list[_RawStep] = []

    def explore(depth: int, top: int, mask: int) -> None:
        steps = _steps_for(board, facing, die, top) if depth < 4 else []
        if not steps:
            by_depth[depth][(tuple(board), mask)] = tuple(path)
            return
        for start, end in steps:
            board[start] -= 1
            board[end] += 1
            hit = end != OFF and facing[end] == 1 and not (mask >> end) & 1
            path.append((start, end, die, hit))
            explore(depth + 1, start, mask | (1 << end) if hit else mask)
            path.pop()
            board[start] += 1
            board[end] -= 1

    explore(0, BAR, 0)
    for found in reversed(by_depth[1:]):
        if found:
            return found
    return {}


def _to_plays(position: Position, dice: tuple[int, int], found: _Found) -> tuple[Play, ...]:
    opponent = position.opponent
    variant = position.variant
    trusted = Position._trusted
    return tuple(
        Play(
            position,
            dice,
            raw_steps,
            trusted(with_hits(opponent, mask) if mask else opponent, mover, variant),
        )
        for (mover, mask), raw_steps in found.items()
    )
