"""The plays tree of the tap-to-play board (gammon.step_tree).

Against GNU Backgammon: every position of ``tests/data/gnubg-plays-2000.jsonl`` is walked
through its tree with this file's own board and the single-step rule of
``tests/gammon/test_notation_steps.py`` (not the engine's), and the complete nodes must be
exactly gnubg's legal results. The small cases are worked out by hand.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import Position, Variant, legal_plays, parse_play
from gammon.step_tree import StepTree, step_tree
from tests.gammon.test_long_nardy import self_play
from tests.gammon.test_notation_steps import _single_steps
from tests.gammon.test_position import positions
from tests.oracle import OracleCase, oracle_cases

P = Position.from_points


def child(tree: StepTree, node: int, start: int, end: int) -> int | None:
    """The node after stepping from ``start`` to ``end``, or None when there is no such edge."""
    return next(
        (edge.child for edge in tree.nodes[node].edges if (edge.start, edge.end) == (start, end)),
        None,
    )


def walk(tree: StepTree, *moves: tuple[int, int]) -> int | None:
    node: int | None = 0
    for start, end in moves:
        if node is None:
            return None
        node = child(tree, node, start, end)
    return node


def moves_from(tree: StepTree, node: int) -> list[tuple[int, int, bool]]:
    return [(edge.start, edge.end, edge.hit) for edge in tree.nodes[node].edges]


def play_at(tree: StepTree, *moves: tuple[int, int]) -> str | None:
    node = walk(tree, *moves)
    assert node is not None, moves
    play = tree.nodes[node].play
    return None if play is None else str(play)


# --- against GNU Backgammon -------------------------------------------------------------------


def _walk_with_own_rules(case: OracleCase, tree: StepTree) -> set[str]:
    """Follow every edge with this file's board and single-step rule; return the Position IDs
    of the complete nodes. Each node must be one board however it is reached."""
    position = Position.from_id(case.position_id)
    high, low = case.dice
    dice: tuple[int, ...] = (high,) * 4 if high == low else (high, low)
    boards: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
        0: (position.player, position.opponent)
    }
    todo: list[tuple[int, tuple[int, ...]]] = [(0, dice)]
    seen = set()
    complete: set[str] = set()
    depths: set[int] = set()
    while todo:
        node, left = todo.pop()
        if (node, left) in seen:
            continue
        seen.add((node, left))
        mover, other = boards[node]
        play = tree.nodes[node].play
        if play is not None:
            complete.add(Position(other, mover).id())
            depths.add(len(dice) - len(left))
            assert play.result.id() == Position(other, mover).id()
        for edge in tree.nodes[node].edges:
            used = [
                die
                for die in set(left)
                if (edge.start, edge.end) in _single_steps(list(mover), list(other), die)
            ]
            assert used, (case.index, node, edge, left)
            moved, hit_side = list(mover), list(other)
            moved[edge.start] -= 1
            moved[edge.end] += 1
            hit = edge.end > 0 and other[25 - edge.end] == 1
            assert edge.hit == hit, (case.index, node, edge)
            if hit:
                hit_side[25 - edge.end] -= 1
                hit_side[25] += 1
            after = (tuple(moved), tuple(hit_side))
            assert boards.setdefault(edge.child, after) == after, (case.index, edge)
            for die in used:
                rest = list(left)
                rest.remove(die)
                todo.append((edge.child, tuple(rest)))
    assert len(depths) <= 1, (case.index, depths)  # every complete play uses as many dice
    return complete


def _reaches_a_play(tree: StepTree) -> list[bool]:
    reaches = [False] * len(tree.nodes)
    changed = True
    while changed:
        changed = False
        for index, node in enumerate(tree.nodes):
            ok = node.play is not None or any(reaches[edge.child] for edge in node.edges)
            if ok and not reaches[index]:
                reaches[index] = changed = True
    return reaches


def test_the_complete_nodes_are_exactly_gnubgs_legal_results() -> None:
    for case in oracle_cases():
        tree = step_tree(Position.from_id(case.position_id), case.dice)
        assert _walk_with_own_rules(case, tree) == case.result_ids, case.index
        if case.result_ids:
            assert all(_reaches_a_play(tree)), case.index
        else:
            assert tree.as_json() == {"nodes": [{"edges": [], "play": None}]}


def test_edges_are_ordered_from_the_highest_start_then_the_highest_end() -> None:
    for case in oracle_cases()[:300]:
        for node in step_tree(Position.from_id(case.position_id), case.dice).nodes:
            keys = [(-edge.start, -edge.end) for edge in node.edges]
            assert keys == sorted(keys)
            assert len(set(keys)) == len(keys)


# --- worked by hand ---------------------------------------------------------------------------


def test_opening_three_one_makes_the_five_point_in_either_order() -> None:
    tree = step_tree(Position.start(), (3, 1))
    assert moves_from(tree, 0) == [
        (24, 23, False),
        (24, 21, False),
        (13, 10, False),
        (8, 7, False),
        (8, 5, False),
        (6, 5, False),
        (6, 3, False),
    ]  # 13/12 lands on the opponent's five checkers
    assert walk(tree, (8, 5), (6, 5)) == walk(tree, (6, 5), (8, 5))
    assert play_at(tree, (8, 5), (6, 5)) == "8/5 6/5"
    assert play_at(tree, (8, 5)) is None


def test_a_blot_is_hit_on_the_way_and_the_other_route_passes_it() -> None:
    # The opponent's blot on their 15 is my 10; their other fourteen hold my 1.
    tree = step_tree(P({13: 2, 6: 13}, {15: 1, 24: 14}), (5, 3))
    assert moves_from(tree, 0) == [(13, 10, True), (13, 8, False), (6, 3, False)]
    hit = walk(tree, (13, 10))
    assert hit is not None
    assert moves_from(tree, hit) == [(13, 8, False), (10, 5, False)]
    assert play_at(tree, (13, 10), (10, 5)) == "13/10*/5"
    assert play_at(tree, (13, 8), (8, 5)) == "13/8/5"
    assert walk(tree, (13, 10), (10, 5)) != walk(tree, (13, 8), (8, 5))
    assert walk(tree, (13, 10), (13, 8)) == walk(tree, (13, 8), (13, 10))


def test_thirteen_to_five_both_ways_when_ten_and_eight_are_open() -> None:
    tree = step_tree(P({13: 2, 6: 13}, {24: 15}), (5, 3))
    both = walk(tree, (13, 10), (10, 5))
    assert both is not None
    assert both == walk(tree, (13, 8), (8, 5))
    assert play_at(tree, (13, 8), (8, 5)) == "13/5"


@pytest.mark.parametrize(
    ("closed_by", "open_route", "closed_first"),
    [(15, ((13, 8), (8, 5)), (13, 10)), (17, ((13, 10), (10, 5)), (13, 8))],
)
def test_thirteen_to_five_only_through_the_open_point(
    closed_by: int, open_route: tuple[tuple[int, int], ...], closed_first: tuple[int, int]
) -> None:
    # Two opposing checkers on their 15 close my 10; on their 17, my 8.
    tree = step_tree(P({13: 2, 6: 13}, {closed_by: 2, 24: 13}), (5, 3))
    assert play_at(tree, *open_route) == "13/5"
    assert walk(tree, closed_first) is None


def test_a_checker_on_the_bar_enters_before_anything_else() -> None:
    # The opponent holds my 19 (their 6); my 24 (their 1) is empty, so only the 1 enters.
    tree = step_tree(P({25: 1, 13: 5, 6: 9}, {6: 5, 13: 10}), (6, 1))
    assert moves_from(tree, 0) == [(25, 24, False)]
    entered = walk(tree, (25, 24))
    assert entered is not None
    assert moves_from(tree, entered) == [(24, 18, False), (13, 7, False)]  # not home: no 6/off


def test_bearing_off_with_a_larger_die_only_from_the_highest_point() -> None:
    # 6-5 with checkers on 4 and 2: the 2 may not go off first (the 4 stands higher); the 4
    # goes off with either die, then the 2 with the other, and both ways are one node.
    tree = step_tree(P({4: 1, 2: 1}, {24: 15}), (6, 5))
    assert moves_from(tree, 0) == [(4, 0, False)]
    assert moves_from(tree, 1) == [(2, 0, False)]
    assert play_at(tree, (4, 0), (2, 0)) == "4/off 2/off"
    assert len(tree.nodes) == 3


def test_only_the_larger_die_when_just_one_can_be_played() -> None:
    # The opponent holds my 2 (their 23): 13/7 leaves 7/2 for the five, 13/8 leaves 8/2 for
    # the six, and the checkers on my 1 cannot move. So 13/7 alone is the play.
    tree = step_tree(P({13: 1, 1: 14}, {23: 2, 1: 13}), (6, 5))
    assert moves_from(tree, 0) == [(13, 7, False)]
    assert play_at(tree, (13, 7)) == "13/7"


def test_a_double_bears_off_two_checkers_in_any_order() -> None:
    tree = step_tree(P({6: 2}, {24: 15}), (3, 3))
    # Boards: start, {6, 3}, {3, 3}, {3}, none, {6}: six nodes.
    assert len(tree.nodes) == 6
    ends = {walk(tree, (6, 3), (6, 3), (3, 0), (3, 0)), walk(tree, (6, 3), (3, 0), (6, 3), (3, 0))}
    assert len(ends) == 1
    assert play_at(tree, (6, 3), (3, 0), (6, 3), (3, 0)) == "6/off(2)"
    assert play_at(tree, (6, 3), (3, 0), (6, 3)) is None


def test_one_checker_moving_all_four_of_a_double() -> None:
    tree = step_tree(P({8: 1}, {24: 15}), (2, 2))
    assert [moves_from(tree, node) for node in range(len(tree.nodes))] == [
        [(8, 6, False)],
        [(6, 4, False)],
        [(4, 2, False)],
        [(2, 0, False)],
        [],
    ]
    assert str(tree.nodes[4].play) == "8/off"


def test_long_nardy_one_checker_leaves_the_head() -> None:
    tree = step_tree(Position.start(Variant.LONG_NARDY), (6, 5))
    assert moves_from(tree, 0) == [(24, 19, False), (24, 18, False)]
    assert moves_from(tree, 1) == [(19, 13, False)]
    assert walk(tree, (24, 19), (19, 13)) == walk(tree, (24, 18), (18, 13))
    assert play_at(tree, (24, 18), (18, 13)) == "24/13"


def test_long_nardy_first_six_six_takes_two_from_the_head_and_stops() -> None:
    # 18/12 is the opponent's head, so the other two sixes are lost.
    tree = step_tree(Position.start(Variant.LONG_NARDY), (6, 6))
    assert moves_from(tree, 0) == [(24, 18, False)]
    assert moves_from(tree, 1) == [(24, 18, False)]
    assert play_at(tree, (24, 18), (24, 18)) == "24/18(2)"
    assert len(tree.nodes) == 3


def test_long_nardy_a_later_six_six_takes_only_one_from_the_head() -> None:
    # Second turn: fourteen on the head, one on 18; the opponent's head (my 12) is closed.
    tree = step_tree(P({24: 14, 18: 1}, {24: 14, 18: 1}, Variant.LONG_NARDY), (6, 6))
    assert moves_from(tree, 0) == [(24, 18, False)]
    assert moves_from(tree, 1) == []
    assert play_at(tree, (24, 18)) == "24/18"


# --- properties -------------------------------------------------------------------------------

_DICE = st.tuples(st.integers(1, 6), st.integers(1, 6))
_NARDY = self_play(3, 400)


def _check_every_play_walks_and_reads_back(position: Position, dice: tuple[int, int]) -> None:
    tree = step_tree(position, dice)
    for play in legal_plays(position, dice):
        node = 0
        for step in play.steps:
            edge = next(e for e in tree.nodes[node].edges if (e.start, e.end) == step[:2])
            assert edge.hit == step.hit
            node = edge.child
        assert tree.nodes[node].play == play
    for complete in tree.nodes:
        if complete.play is not None:
            assert parse_play(str(complete.play), position, dice).result == complete.play.result


@given(positions(), _DICE)
def test_every_legal_play_is_a_path_of_its_own_steps(
    position: Position, dice: tuple[int, int]
) -> None:
    _check_every_play_walks_and_reads_back(position, dice)


@given(st.sampled_from(_NARDY))
def test_every_long_nardy_play_is_a_path_of_its_own_steps(
    case: tuple[Position, tuple[int, int]],
) -> None:
    _check_every_play_walks_and_reads_back(*case)
