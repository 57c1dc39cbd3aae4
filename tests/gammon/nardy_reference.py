"""A deliberately plain long-nardy move generator, written from the rule text for cross-checks.

It tries every order of every die on every checker, with no pruning and no shared code with
the engine, and applies the rules in the most literal way it can.
"""

from __future__ import annotations

from itertools import permutations


def their_point(point: int) -> int:
    return point + 12 if point <= 12 else point - 12


def has_forbidden_block(mine: list[int], theirs: list[int]) -> bool:
    held = {their_point(point) for point in range(1, 25) if mine[point]}
    for low in range(1, 20):
        if all(point in held for point in range(low, low + 6)):
            ahead = theirs[0] > 0 or any(theirs[point] for point in range(1, low))
            if not ahead:
                return True
    return False


def reference_results(mine: tuple[int, ...], theirs: tuple[int, ...], dice: tuple[int, int]):
    """Set of the mover's resulting 26-count tuples."""
    first_turn = mine[24] == 15
    white_opened_fives = list(theirs) == [0] * 4 + [1] + [0] * 19 + [14, 0]
    if first_turn and dice[0] == dice[1] and dice[0] in (3, 4, 6):
        head_allowance = 1 if (dice[0] == 4 and white_opened_fives) else 2
    else:
        head_allowance = 1
    dice_list = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    finals: dict[int, set[tuple[int, ...]]] = {}
    orders = set(permutations(dice_list))

    def walk(
        board: list[int], remaining: tuple[int, ...], used: list[int], head_moves: int
    ) -> None:
        moved_any = False
        if remaining:
            die = remaining[0]
            for point in range(1, 25):
                if not board[point]:
                    continue
                if point == 24 and head_moves >= head_allowance:
                    continue
                end = point - die
                if end >= 1:
                    if theirs[their_point(end)]:
                        continue
                else:
                    if any(board[p] for p in range(7, 25)):
                        continue
                    if end < 0 and any(board[p] for p in range(point + 1, 7)):
                        continue
                    end = 0
                after = list(board)
                after[point] -= 1
                after[end] += 1
                if has_forbidden_block(after, list(theirs)):
                    continue
                moved_any = True
                walk(after, remaining[1:], [*used, die], head_moves + (point == 24))
        if not moved_any:
            finals.setdefault(len(used), set()).add(tuple(board))
            if len(used) == 1 and dice[0] != dice[1]:
                finals.setdefault(-used[0], set()).add(tuple(board))

    for order in orders:
        walk(list(mine), order, [], 0)
    most = max(key for key in finals)
    if most == 1 and dice[0] != dice[1]:
        larger = finals.get(-max(dice))
        return larger if larger else finals[-min(dice)]
    return finals[most] if most > 0 else set()
