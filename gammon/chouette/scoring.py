"""What a finished chouette game pays, the running score, and the order for the next game."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gammon.actions import WinKind
from gammon.chouette.errors import ChouetteError
from gammon.chouette.state import ChouetteGame, MemberCube
from gammon.chouette.table import ChouetteTable, Side, rotate


def settle(game: ChouetteGame) -> dict[str, int]:
    """Points won (positive) or lost by each player in a finished game: the box first, then
    the team in order. The box's total is minus the sum of the members': the game is zero-sum.

    A dropped cube pays its value before the refused double. A cube still in the game when
    the board ends pays its value times 1, 2 or 3 (single, gammon, backgammon); under the
    Jacoby rule a cube never turned pays only a single game.
    """
    if not game.finished:
        raise ChouetteError("not_finished", "the game is still being played")
    members = {cube.member: _member_points(game, cube) for cube in game.cubes}
    return {game.table.box: -sum(members.values()), **members}


def settle_forfeit(game: ChouetteGame, late: Side) -> dict[str, int]:
    """Points won or lost when ``late`` (the box, or the team's acting captain) ran out of
    time to roll or move: every cube still in play pays a single game at its value to the
    other side (no gammons), a dropped cube pays what it paid. The box first, then the team
    in order; zero-sum. The game need not be over on the board."""
    members = {}
    for cube in game.cubes:
        if cube.dropped_by is not None:
            members[cube.member] = _dropped_points(cube)
        else:
            members[cube.member] = cube.value if Side(late) is Side.BOX else -cube.value
    return {game.table.box: -sum(members.values()), **members}


def _dropped_points(cube: MemberCube) -> int:
    """What a cube whose double was dropped pays its member: its value before the double,
    won when the box dropped, lost when the member did."""
    return cube.value if cube.dropped_by is Side.BOX else -cube.value


def _member_points(game: ChouetteGame, cube: MemberCube) -> int:
    if cube.dropped_by is not None:
        return _dropped_points(cube)
    result = game.result
    assert result is not None  # finished with this cube live: the board ended
    kind = WinKind.SINGLE if game.rules.jacoby and not cube.turned else result.kind
    points = cube.value * int(kind)
    return points if result.winner is Side.TEAM else -points


def next_table(game: ChouetteGame) -> ChouetteTable:
    """The order for the next game (see :func:`gammon.chouette.table.rotate`)."""
    winner = game.rotation_winner
    if not game.finished or winner is None:
        raise ChouetteError("not_finished", "the game is still being played")
    return rotate(game.table, winner)


@dataclass(frozen=True)
class Scoreboard:
    """Running totals over the games of a chouette, in order of first appearance. Players who
    left keep their total; the totals always add up to zero."""

    totals: tuple[tuple[str, int], ...] = ()
    games: int = 0

    def total(self, player: str) -> int:
        return dict(self.totals).get(player, 0)

    def as_dict(self) -> dict[str, int]:
        return dict(self.totals)

    def add(self, points: Mapping[str, int]) -> Scoreboard:
        """The totals after one more game's :func:`settle`."""
        if sum(points.values()) != 0:
            raise ChouetteError("not_zero_sum", f"a game's points add up to zero: {points}")
        totals = dict(self.totals)
        for player, won in points.items():
            totals[player] = totals.get(player, 0) + won
        return Scoreboard(tuple(totals.items()), self.games + 1)
