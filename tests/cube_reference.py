"""GNU Backgammon's cube analyses as the reference for ours: score contexts, the cached file and
how a cube action is judged in gnubg's own equities.

``tests/data/gnubg-cube-reference.jsonl`` holds one line per position and context: the
context (cube, score, options), the Position ID and gnubg's cube analysis at 0-ply and 2-ply
(``benchmarks/cube_reference.py`` made it by running gnubg; nothing in it comes from our
engine but the choice of positions). A cube action is judged as the equity it gives away
against gnubg's best, in gnubg's equities (normalised to the cube, EMG in a match): the
doubler's part (double or not, the taker answering as gnubg's equities say) and the taker's
part (take, pass or beaver) each, the larger counting. More than :data:`CLEAR` is a clear
disagreement; less is a close call that depth or rollouts could turn either way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from engine.api import CubeOwner, Situation
from gammon import Position

DATA: Final = Path(__file__).parent / "data" / "gnubg-cube-reference.jsonl"
CLEAR: Final = 0.02
"""Equity given away beyond which a cube action clearly disagrees with gnubg's."""

TAKE: Final = "take"
PASS: Final = "pass"
BEAVER: Final = "beaver"

_NOT_AVAILABLE: Final = frozenset({13, 14, 15})
"""gnubg's decision codes for a cube the player on roll may not turn: a dead cube (no double,
no redouble) and a cube that is not theirs or not in play (Crawford)."""

_OWNERS: Final = {"centred": CubeOwner.CENTRED, "decider": CubeOwner.DECIDER}
_OWNERS["opponent"] = CubeOwner.OPPONENT


@dataclass(frozen=True)
class CubeContext:
    """A score and cube state, seen from the player on roll (the one who may double)."""

    name: str
    away: tuple[int, int] = (0, 0)
    crawford: bool = False
    cube: int = 1
    owner: str = "centred"
    jacoby: bool = False
    beavers: bool = False

    @property
    def is_money(self) -> bool:
        return self.away == (0, 0)

    def situation(self, position: Position) -> Situation:
        return Situation(
            position=position,
            cube_value=self.cube,
            cube_owner=_OWNERS[self.owner],
            away=self.away,
            crawford=self.crawford,
            jacoby=self.jacoby,
            beavers=self.beavers,
        )

    def request(self, position_id: str, plies: tuple[int, ...]) -> dict[str, Any]:
        """The request for ``tests/gnubg_cube_script.py``."""
        return {
            "position_id": position_id,
            "away": list(self.away),
            "crawford": self.crawford,
            "cube": self.cube,
            "owner": self.owner,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "plies": list(plies),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "away": list(self.away),
            "crawford": self.crawford,
            "cube": self.cube,
            "owner": self.owner,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CubeContext:
        return cls(
            name=data["name"],
            away=(data["away"][0], data["away"][1]),
            crawford=data["crawford"],
            cube=data["cube"],
            owner=data["owner"],
            jacoby=data["jacoby"],
            beavers=data["beavers"],
        )


CONTEXTS: Final = (
    CubeContext("money"),
    CubeContext("money, Jacoby", jacoby=True),
    CubeContext("money, beavers", beavers=True),
    CubeContext("money, Jacoby and beavers", jacoby=True, beavers=True),
    CubeContext("money, redouble", cube=2, owner="decider"),
    CubeContext("2a-2a", away=(2, 2)),
    CubeContext("3a-5a", away=(3, 5)),
    CubeContext("5a-3a", away=(5, 3)),
    CubeContext("4a-2a", away=(4, 2)),
    CubeContext("2a-4a", away=(2, 4)),
    CubeContext("7a-7a", away=(7, 7)),
    CubeContext("5a-5a, redouble", away=(5, 5), cube=2, owner="decider"),
    CubeContext("7a-3a, redouble", away=(7, 3), cube=2, owner="decider"),
    CubeContext("2a-1a post-Crawford", away=(2, 1)),
    CubeContext("3a-1a post-Crawford", away=(3, 1)),
    CubeContext("4a-1a post-Crawford", away=(4, 1)),
    CubeContext("6a-1a post-Crawford", away=(6, 1)),
    CubeContext("1a-4a post-Crawford, leader on roll", away=(1, 4)),
    CubeContext("1a-3a Crawford", away=(1, 3), crawford=True),
    CubeContext("3a-1a Crawford", away=(3, 1), crawford=True),
)
"""The score contexts of the reference, each with positions of its own."""


@dataclass(frozen=True)
class GnubgCube:
    """gnubg's cube analysis at one depth: its cubeless chances (win, win gammon, win
    backgammon, lose gammon, lose backgammon), the three equities, its decision code and
    words."""

    probabilities: tuple[float, float, float, float, float]
    no_double: float
    double_take: float
    double_pass: float
    decision: int
    text: str

    @property
    def available(self) -> bool:
        """Whether the player on roll may double (gnubg's view of the cube)."""
        return self.decision not in _NOT_AVAILABLE

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GnubgCube:
        chances = data["probabilities"]
        return cls(
            probabilities=(chances[0], chances[1], chances[2], chances[3], chances[4]),
            no_double=data["no_double"],
            double_take=data["double_take"],
            double_pass=data["double_pass"],
            decision=data["decision"],
            text=data["text"],
        )


@dataclass(frozen=True)
class ReferenceCase:
    """One line of the reference file."""

    context: CubeContext
    stratum: str  # "any" (a position as it came) or "close" (a close decision by gnubg's test)
    position_id: str
    source: str
    by_ply: dict[int, GnubgCube]

    @property
    def best(self) -> GnubgCube:
        """gnubg's deepest analysis: the reference."""
        return self.by_ply[max(self.by_ply)]

    def situation(self) -> Situation:
        return self.context.situation(Position.from_id(self.position_id))


def case_from_json(line: str) -> ReferenceCase:
    data = json.loads(line)
    return ReferenceCase(
        context=CubeContext.from_json(data["context"]),
        stratum=data["stratum"],
        position_id=data["position_id"],
        source=data["source"],
        by_ply={int(ply): GnubgCube.from_json(cube) for ply, cube in data["gnubg"].items()},
    )


def case_to_json(
    context: CubeContext, stratum: str, position_id: str, source: str, by_ply: dict[str, Any]
) -> str:
    return json.dumps(
        {
            "context": context.to_json(),
            "stratum": stratum,
            "position_id": position_id,
            "source": source,
            "gnubg": by_ply,
        },
        sort_keys=True,
    )


@cache
def reference_cases() -> tuple[ReferenceCase, ...]:
    with DATA.open(encoding="utf-8") as lines:
        return tuple(case_from_json(line) for line in lines if line.strip())


# --- judging an action in gnubg's equities ---------------------------------------------------


def answer_equities(cube: GnubgCube, beavers: bool) -> dict[str, float]:
    """What each answer to a double leaves the doubler, in gnubg's equities: a beaver keeps
    the take's cube ownership at twice the value."""
    answers = {TAKE: cube.double_take, PASS: cube.double_pass}
    if beavers:
        answers[BEAVER] = 2 * cube.double_take
    return answers


def action_loss(cube: GnubgCube, *, double: bool, answer: str, beavers: bool) -> float:
    """The equity a cube action gives away by gnubg's equities: the larger of the doubler's
    loss (doubling or not, the double answered as gnubg's equities say) and the taker's loss
    (the answer against gnubg's best answer). Where gnubg's cube is not available only a
    double is judged, as a full error."""
    answers = answer_equities(cube, beavers)
    doubled = min(answers.values())
    taker_loss = answers[answer] - doubled
    if not cube.available:
        return 1.0 if double else 0.0
    best = max(cube.no_double, doubled)
    doubler_loss = best - (doubled if double else cube.no_double)
    return max(doubler_loss, taker_loss)


def gnubg_action(cube: GnubgCube, beavers: bool) -> tuple[bool, str]:
    """gnubg's own action at one depth, from its equities: whether to double and the answer."""
    answers = answer_equities(cube, beavers)
    answer = min(answers, key=lambda name: answers[name])
    return cube.available and answers[answer] >= cube.no_double, answer
