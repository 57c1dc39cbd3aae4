"""Every legal play of long nardy.

Differences from backgammon: one opposing checker closes a point and nothing is hit; only one
checker leaves the head (point 24) per turn, two on a player's first turn with 6-6, 4-4 or 3-3
(but one when Black answers White's opening 5-5 with 4-4); and no single checker move may leave
a block of six consecutive points unless an opposing checker is already past it. Both dice
(all four of a double) must be played when possible, else as many as possible, and the larger
die when only one of the two can be played; bearing off works as in backgammon.

>>> from gammon.movegen import legal_plays
>>> from gammon.position import Position
>>> start = Position.start("long_nardy")
>>> sorted(str(play) for play in legal_plays(start, (3, 3)))
['24/18(2)', '24/21 24/15']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from gammon.position import OFF, Position, Variant, mirror_point

HEAD: Final = 24
# The opponent's number for each of the player's points, as a bit of an occupancy mask.
_BIT: Final = tuple(
    0 if point in (0, 25) else 1 << mirror_point(point, Variant.LONG_NARDY) for point in range(26)
)
# Bits 1..12 of an occupancy mask; turning a mask by twelve switches between the numberings.
_LOW_TWELVE: Final = 0b1_1111_1111_1110
# The player's points 7..24, in the player's own numbering.
_OUTSIDE_HOME: Final = sum(1 << point for point in range(7, 25))
_FIRST_TURN_DOUBLES: Final = frozenset({3, 4, 6})
# White's side after opening 5-5 (24/4), in White's numbering.
_AFTER_WHITE_FIVES: Final = tuple(
    14 if slot == HEAD else 1 if slot == 4 else 0 for slot in range(26)
)

_RawStep = tuple[int, int, int, bool]
_Found = dict[tuple[tuple[int, ...], int], tuple[_RawStep, ...]]
# Legal single steps for a die from the current board, starts up to a limit:
# (start, end, occupancy after).
_Steps = Callable[[int, int, int], list[tuple[int, int, int]]]


def head_limit(position: Position, high: int, low: int) -> int:
    """How many checkers may leave the head with this roll."""
    first_turn = position.player[HEAD] == 15
    if not (first_turn and high == low and high in _FIRST_TURN_DOUBLES):
        return 1
    if high == 4 and position.opponent == _AFTER_WHITE_FIVES:
        return 1
    return 2


def occupancy(board: list[int] | tuple[int, ...]) -> int:
    """The player's occupied points as bits in the opponent's numbering."""
    mask = 0
    for point in range(1, 25):
        if board[point]:
            mask |= _BIT[point]
    return mask


def lowest_opponent_point(opponent: tuple[int, ...]) -> int:
    """The opponent's most advanced checker (their numbering); 0 once one is borne off."""
    if opponent[OFF]:
        return 0
    return next(point for point in range(1, 25) if opponent[point])


def block_allowed(mask: int, opponent_lowest: int) -> bool:
    """False when six consecutive points (along the opponent's route) are held by the player
    and no opposing checker is past them."""
    pairs = mask & (mask >> 1)
    run = pairs & (pairs >> 2) & (pairs >> 4)
    if not run:
        return True
    block_low = (run & -run).bit_length() - 1
    return opponent_lowest < block_low


def step_end(
    board: list[int] | tuple[int, ...],
    facing: tuple[int, ...],
    start: int,
    die: int,
    head_left: int,
    opponent_lowest: int,
) -> int | str:
    """Where one checker from ``start`` lands with ``die``, or the reason it may not move.

    ``head_left`` is how many more checkers may leave the head this turn. Reason codes:
    ``no_checker``, ``head_rule``, ``point_closed``, ``six_block``, ``not_all_home``,
    ``higher_checker``.
    """
    if not board[start]:
        return "no_checker"
    if start == HEAD and head_left <= 0:
        return "head_rule"
    end = start - die
    if end > 0:
        if facing[end]:
            return "point_closed"
        if not board[end]:
            mask = occupancy(board) | _BIT[end]
            if board[start] == 1:
                mask &= ~_BIT[start]
            if not block_allowed(mask, opponent_lowest):
                return "six_block"
        return end
    if any(board[7:25]):
        return "not_all_home"
    if end < 0 and any(board[start + 1 : 7]):
        return "higher_checker"
    return OFF


def generate(position: Position, high: int, low: int) -> _Found:
    """Distinct complete plays keyed by the mover's resulting counts (no hits: mask 0)."""
    board = list(position.player)
    facing = position.facing()
    opponent_lowest = lowest_opponent_point(position.opponent)
    head_start = board[HEAD]
    limit = head_limit(position, high, low)

    blocked: list[bool] = [False]

    def steps(die: int, mask: int, top: int = HEAD) -> list[tuple[int, int, int]]:
        """Legal (start, end, occupancy after) for one die from points up to ``top``."""
        found: list[tuple[int, int, int]] = []
        own = ((mask & _LOW_TWELVE) << 12) | ((mask >> 12) & _LOW_TWELVE)
        home = not own & _OUTSIDE_HOME
        highest = own.bit_length() - 1
        head_open = head_start - board[HEAD] < limit
        remaining = own & ((2 << top) - 1)
        while remaining:
            point = remaining.bit_length() - 1
            remaining ^= 1 << point
            if point == HEAD and not head_open:
                continue
            end = point - die
            if end > 0:
                if facing[end]:
                    continue
                after = mask & ~_BIT[point] if board[point] == 1 else mask
                if not board[end]:
                    after |= _BIT[end]
                    pairs = after & (after >> 1)
                    run = pairs & (pairs >> 2) & (pairs >> 4)  # six held in a row
                    if run and opponent_lowest >= (run & -run).bit_length() - 1:
                        blocked[0] = True
                        continue
                found.append((point, end, after))
            elif home and (end == 0 or point == highest):
                found.append((point, OFF, mask & ~_BIT[point] if board[point] == 1 else mask))
        return found

    start_mask = occupancy(board)
    if high != low:
        return _two_dice(board, steps, start_mask, high, low)
    found = _double_descending(board, steps, start_mask, high)
    if blocked[0]:
        # The six-block rule refused a step, and it is the one rule under which the order of
        # equal steps matters: search every order instead.
        found = _double_any_order(board, steps, start_mask, high)
    return found


def _two_dice(board: list[int], steps: _Steps, mask: int, high: int, low: int) -> _Found:
    both: _Found = {}
    single: dict[int, _Found] = {high: {}, low: {}}
    for first, second in ((high, low), (low, high)):
        for start, end, after in steps(first, mask, HEAD):
            board[start] -= 1
            board[end] += 1
            step1 = (start, end, first, False)
            followups = steps(second, after, HEAD)
            if not followups:
                key = (tuple(board), 0)
                if key not in single[first]:
                    single[first][key] = (step1,)
            for start2, end2, _after2 in followups:
                board[start2] -= 1
                board[end2] += 1
                key = (tuple(board), 0)
                if key not in both:
                    both[key] = (step1, (start2, end2, second, False))
                board[start2] += 1
                board[end2] -= 1
            board[start] += 1
            board[end] -= 1
    if both:
        return both
    return single[high] or single[low]


def _double_descending(board: list[int], steps: _Steps, mask: int, die: int) -> _Found:
    """Each play once, its steps taken from the highest start down (as in backgammon).

    Without the six-block rule the order of equal steps never changes what is legal, so this
    finds every play.
    """
    by_depth: list[_Found] = [{}, {}, {}, {}, {}]
    path: list[_RawStep] = []

    def explore(depth: int, top: int, current_mask: int) -> None:
        moves = steps(die, current_mask, top) if depth < 4 else []
        if not moves:
            by_depth[depth][(tuple(board), 0)] = tuple(path)
            return
        for start, end, after in moves:
            board[start] -= 1
            board[end] += 1
            path.append((start, end, die, False))
            explore(depth + 1, start, after)
            path.pop()
            board[start] += 1
            board[end] -= 1

    explore(0, HEAD, mask)
    return _deepest(by_depth)


def _double_any_order(board: list[int], steps: _Steps, mask: int, die: int) -> _Found:
    """Every order of the steps (each board expanded once), for when a block makes order matter."""
    by_depth: list[_Found] = [{}, {}, {}, {}, {}]
    seen: set[tuple[int, ...]] = set()
    path: list[_RawStep] = []

    def explore(depth: int, current_mask: int) -> None:
        here = tuple(board)
        if here in seen:
            return
        seen.add(here)
        moves = steps(die, current_mask, HEAD) if depth < 4 else []
        if not moves:
            by_depth[depth][(here, 0)] = tuple(path)
            return
        for start, end, after in moves:
            board[start] -= 1
            board[end] += 1
            path.append((start, end, die, False))
            explore(depth + 1, after)
            path.pop()
            board[start] += 1
            board[end] -= 1

    explore(0, mask)
    return _deepest(by_depth)


def _deepest(by_depth: list[_Found]) -> _Found:
    """The plays that use the most steps."""
    for found in reversed(by_depth[1:]):
        if found:
            return found
    return {}
