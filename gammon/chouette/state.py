"""One chouette game's state: the box against the team on one board, one cube per member.

The board is an ordinary money game (:class:`gammon.flow.MatchState`, board player 0 the box,
1 the team) whose own cube is switched off; every cube lives here, one per member.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Final

from gammon import flow
from gammon.actions import WinKind
from gammon.chouette.actions import ChouetteAction
from gammon.chouette.errors import ChouetteError
from gammon.chouette.table import ChouetteTable, Side
from gammon.flow import MatchState, Phase
from gammon.match_rules import MatchRules

BOARD_RULES: Final = MatchRules(length=0, cube=False)
"""The board's rules: a money game without its own cube (the chouette keeps the cubes)."""


class Consultation(enum.StrEnum):
    """Who may advise the captain on checker play (the captain always decides)."""

    CAPTAIN = "captain"  # the captain alone: nobody advises
    TEAM = "team"  # every member still in the game
    TURNED = "turned"  # only members still in the game whose cube has been turned


@dataclass(frozen=True)
class ChouetteRules:
    """The options of a chouette: consultation, the Jacoby rule (a cube never turned scores a
    gammon or backgammon as a single game) and beavers."""

    consultation: Consultation = Consultation.TEAM
    jacoby: bool = False
    beavers: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "consultation", Consultation(self.consultation))
        if not isinstance(self.jacoby, bool) or not isinstance(self.beavers, bool):
            raise ValueError("jacoby and beavers are true or false")

    def to_dict(self) -> dict[str, Any]:
        return {
            "consultation": self.consultation.value,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChouetteRules:
        unknown = set(data) - {"consultation", "jacoby", "beavers"}
        if unknown:
            raise ValueError(f"unknown chouette rules: {sorted(unknown)}")
        return cls(**data)


class CubeOwner(enum.StrEnum):
    CENTRE = "centre"
    BOX = "box"
    MEMBER = "member"


@dataclass(frozen=True)
class MemberCube:
    """One member's cube against the box.

    ``offered_by`` is the side whose double waits for an answer; ``dropped_by`` the side that
    refused a double, which ended this cube's game at ``value`` (the value before that double):
    ``team`` means the member dropped and pays, ``box`` that the box dropped and pays.
    """

    member: str
    value: int = 1
    owner: CubeOwner = CubeOwner.CENTRE
    turned: bool = False
    offered_by: Side | None = None
    dropped_by: Side | None = None

    @property
    def live(self) -> bool:
        """Still in this game (nobody dropped a double on it)."""
        return self.dropped_by is None


@dataclass(frozen=True)
class BoardResult:
    """How the board game ended: who bore off first, and single, gammon or backgammon."""

    winner: Side
    kind: WinKind


@dataclass(frozen=True)
class ChouetteGame:
    """Everything about one game at one moment. ``cubes`` follow ``table.team`` (captain
    first). ``box_doubled_at`` is the board's dice count when the box last doubled, so the box
    doubles at most once a turn."""

    table: ChouetteTable
    rules: ChouetteRules
    board: MatchState
    cubes: tuple[MemberCube, ...]
    result: BoardResult | None = None
    box_doubled_at: int | None = None
    actions: tuple[ChouetteAction, ...] = ()

    def cube(self, member: str) -> MemberCube:
        for cube in self.cubes:
            if cube.member == member:
                return cube
        raise ChouetteError("not_in_team", f"{member} is not in the team this game")

    @property
    def live_members(self) -> tuple[str, ...]:
        return tuple(cube.member for cube in self.cubes if cube.live)

    @property
    def acting_captain(self) -> str | None:
        """Who plays the team's checkers: the captain, or when the captain's cube is out of
        the game, the first member in line still in it."""
        live = self.live_members
        return live[0] if live else None

    @property
    def pending(self) -> tuple[MemberCube, ...]:
        """The cubes whose double waits for an answer."""
        return tuple(cube for cube in self.cubes if cube.offered_by is not None)

    @property
    def finished(self) -> bool:
        """The board game ended, or no member is left in the game."""
        return self.result is not None or not self.live_members

    @property
    def side_on_turn(self) -> Side | None:
        """The side to roll or move on the board (``None`` before the opening roll)."""
        if self.finished or self.board.phase not in (Phase.ROLLING, Phase.MOVING):
            return None
        return Side.BOX if self.board.player_on_roll == 0 else Side.TEAM

    @property
    def side_to_act(self) -> Side | None:
        """The side the game waits for: the one that must answer a double (the team while
        the box's doubles wait, the box while members' doubles wait), else the side to roll
        or move; ``None`` before the opening roll and once the game is over. (Doubles of
        both sides never wait at once: a double is made at the start of one's own turn, and
        nobody rolls while one waits.)"""
        if self.finished:
            return None
        offered = {cube.offered_by for cube in self.pending}
        if Side.BOX in offered:
            return Side.TEAM
        if Side.TEAM in offered:
            return Side.BOX
        return self.side_on_turn

    @property
    def rotation_winner(self) -> Side | None:
        """Who won the box's game against the (original) captain, once that is decided: the
        captain's cube decides the rotation, whatever happened on the other cubes."""
        captain = self.cubes[0]
        if captain.dropped_by is not None:
            return Side.BOX if captain.dropped_by is Side.TEAM else Side.TEAM
        return self.result.winner if self.result is not None else None


def new_game(table: ChouetteTable, rules: ChouetteRules | None = None) -> ChouetteGame:
    """A game waiting for the opening roll, every member's cube in the centre at 1."""
    return ChouetteGame(
        table=table,
        rules=rules or ChouetteRules(),
        board=flow.new_match(BOARD_RULES),
        cubes=tuple(MemberCube(member) for member in table.team),
    )


def advisers(game: ChouetteGame) -> tuple[str, ...]:
    """The members who may advise the acting captain on checker play now."""
    captain = game.acting_captain
    if game.finished or game.rules.consultation is Consultation.CAPTAIN:
        return ()
    turned_only = game.rules.consultation is Consultation.TURNED
    return tuple(
        cube.member
        for cube in game.cubes
        if cube.live and cube.member != captain and (cube.turned or not turned_only)
    )
