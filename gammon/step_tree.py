"""The plays tree of the tap-to-play board: a roll's legal plays, one die's step at a time.

Node 0 is the position before any step; an edge moves one checker by one die (``start`` 25 is
the bar, ``end`` 0 is off, ``hit`` when it sends a lone opposing checker to the bar). Only
steps that lead on to a complete legal play are kept, and a node whose ``play`` is set is one:
the legal play (of :func:`gammon.movegen.legal_plays`) with that resulting position. Paths that
reach the same board with the same dice left share a node, so the tree is a small DAG.

>>> from gammon.position import Position
>>> tree = step_tree(Position.start(), (3, 1))
>>> [edge[:2] for edge in tree.nodes[0].edges]
[(24, 23), (24, 21), (13, 10), (8, 7), (8, 5), (6, 5), (6, 3)]
>>> def after(node, start, end):
...     return next(edge.child for edge in tree.nodes[node].edges if edge[:2] == (start, end))
>>> after(after(0, 8, 5), 6, 5) == after(after(0, 6, 5), 8, 5)
True
>>> tree.as_json()["nodes"][after(0, 8, 5)]
{'edges': [[24, 23, 0, 5], [8, 7, 0, 15], [6, 5, 0, 19], [5, 4, 0, 16]], 'play': None}
>>> tree.as_json()["nodes"][19]
{'edges': [], 'play': '8/5 6/5'}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from gammon.movegen import checked_dice, legal_plays, with_hits
from gammon.notation import format_play
from gammon.play import Play
from gammon.play_parser import StepRule, after_step, stepper
from gammon.position import BAR, Position

# The boards reached after some steps: (mover counts, hit mask, every multiset of dice left,
# each a tuple from the highest die). Ways there that left different dice share the node.
_Key = tuple[tuple[int, ...], int, frozenset[tuple[int, ...]]]
# One checker's step: (start, end, whether it hit).
_Step = tuple[int, int, bool]


class Edge(NamedTuple):
    """One checker moved by one die, and the index of the node it leads to."""

    start: int
    end: int
    hit: bool
    child: int


class StepNode(NamedTuple):
    """The steps on from a board, highest start first; ``play`` when the play is complete."""

    edges: tuple[Edge, ...]
    play: Play | None


class StepTree(NamedTuple):
    """Every way to play a roll step by step; ``nodes[0]`` is the start."""

    nodes: tuple[StepNode, ...]

    def as_json(self) -> dict[str, list[dict[str, object]]]:
        """``{"nodes": [{"edges": [[from, to, hit 0/1, child], ...], "play": text | None}]}``."""
        return {
            "nodes": [
                {
                    "edges": [[e.start, e.end, int(e.hit), e.child] for e in node.edges],
                    "play": format_play(node.play) if node.play else None,
                }
                for node in self.nodes
            ]
        }


def step_tree(position: Position, dice: Sequence[int]) -> StepTree:
    """The plays tree of ``position`` (seen from the side on roll) for ``dice``.

    A roll that cannot be played gives a single node with no edges and no play.
    """
    roll = checked_dice(dice)
    plays = legal_plays(position, roll)
    if not plays:
        return StepTree((StepNode((), None),))
    complete = {(play.result.opponent, play.result.player): play for play in plays}
    all_dice = roll * 2 if roll[0] == roll[1] else roll
    unused = len(all_dice) - len(plays[0].steps)
    explorer = _Explorer(position, stepper(position, roll), complete, unused)
    root: _Key = (position.player, 0, frozenset({all_dice}))
    explorer.viable(root)
    return explorer.numbered(root)


class _Explorer:
    """Depth-first search of single steps, memoised per node, keeping what reaches a play."""

    def __init__(
        self,
        position: Position,
        step: StepRule,
        complete: dict[tuple[tuple[int, ...], tuple[int, ...]], Play],
        unused: int,
    ) -> None:
        self._opponent = position.opponent
        self._facing = position.facing()
        self._step = step
        self._complete = complete
        self._last_left = unused  # dice left over when a play is complete
        self._moves: dict[_Key, list[tuple[_Step, _Key]]] = {}  # the viable nodes' steps
        self._dead: set[_Key] = set()

    def play_at(self, key: _Key) -> Play | None:
        board, mask, lefts = key
        if len(next(iter(lefts))) != self._last_left:
            return None
        return self._complete.get((board, with_hits(self._opponent, mask)))

    def viable(self, key: _Key) -> bool:
        """Whether a complete legal play is reached from ``key`` (remembering its steps)."""
        if key in self._moves:
            return True
        if key in self._dead:
            return False
        ordered = sorted(self._steps(key).items(), key=lambda item: (-item[0][0], -item[0][1]))
        moves = [(step, child) for step, child in ordered if self.viable(child)]
        if moves or self.play_at(key) is not None:
            self._moves[key] = moves
            return True
        self._dead.add(key)
        return False

    def _steps(self, key: _Key) -> dict[_Step, _Key]:
        """Every single step from the board with any die left, and the node after it."""
        board, mask, lefts = key
        if len(next(iter(lefts))) == self._last_left:
            return {}
        boards: dict[_Step, tuple[tuple[int, ...], int]] = {}
        rests: dict[_Step, set[tuple[int, ...]]] = {}
        for left in lefts:
            for index, die in enumerate(left):
                if die in left[:index]:
                    continue
                rest = left[:index] + left[index + 1 :]
                for start in range(BAR, 0, -1):
                    end = self._step(board, start, die) if board[start] else "no_checker"
                    if isinstance(end, str):
                        continue
                    moved, hits = after_step(board, mask, self._facing, start, end)
                    step = (start, end, hits != mask)
                    boards[step] = (moved, hits)
                    rests.setdefault(step, set()).add(rest)
        return {step: (*boards[step], frozenset(rests[step])) for step in boards}

    def numbered(self, root: _Key) -> StepTree:
        """The viable nodes numbered in depth-first order from ``root``."""
        index: dict[_Key, int] = {}
        order: list[_Key] = []

        def visit(key: _Key) -> None:
            index[key] = len(order)
            order.append(key)
            for _step, child in self._moves[key]:
                if child not in index:
                    visit(child)

        visit(root)
        return StepTree(
            tuple(
                StepNode(
                    tuple(Edge(*step, index[child]) for step, child in self._moves[key]),
                    self.play_at(key),
                )
                for key in order
            )
        )
