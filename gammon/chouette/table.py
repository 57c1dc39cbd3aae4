"""Who sits where: the rotation order of a chouette, and how it turns after each game."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from gammon.chouette.errors import ChouetteError

MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 8


class Side(enum.StrEnum):
    """The two sides of the board: the box alone, and the team its captain plays for."""

    BOX = "box"
    TEAM = "team"

    @property
    def board_player(self) -> int:
        """The player number of this side in the board's :class:`gammon.flow.MatchState`."""
        return 0 if self is Side.BOX else 1


@dataclass(frozen=True)
class ChouetteTable:
    """The rotation order: ``order[0]`` is the box, ``order[1]`` the captain, and the rest wait
    in line to be captain, in that order. Player ids are the caller's strings."""

    order: tuple[str, ...]

    @property
    def box(self) -> str:
        return self.order[0]

    @property
    def captain(self) -> str:
        return self.order[1]

    @property
    def team(self) -> tuple[str, ...]:
        """Everyone playing against the box, captain first, then in line order."""
        return self.order[1:]

    @property
    def line(self) -> tuple[str, ...]:
        """The team members after the captain, next captain first."""
        return self.order[2:]

    def __contains__(self, player: object) -> bool:
        return player in self.order


def new_table(players: Sequence[str]) -> ChouetteTable:
    """A table in the given order: box, captain, then the line (see :func:`seat_order`)."""
    order = tuple(players)
    for player in order:
        _check_name(player)
    if len(set(order)) != len(order):
        raise ChouetteError("already_seated", "a player can sit at a chouette only once")
    if len(order) < MIN_PLAYERS:
        raise ChouetteError("too_few_players", f"a chouette needs at least {MIN_PLAYERS} players")
    if len(order) > MAX_PLAYERS:
        raise ChouetteError("table_full", f"a chouette seats at most {MAX_PLAYERS} players")
    return ChouetteTable(order)


def seat_order(rolls: Mapping[str, Sequence[int]]) -> tuple[str, ...]:
    """The starting order from one die per player: highest is box, next captain, and so on.

    ``rolls[player]`` lists the player's rolls: the first one, then the re-rolls a tie asked
    for (only tied players roll again, and only to split their own tie).

    >>> seat_order({"ann": [4], "bob": [6, 2], "cy": [6, 5]})
    ('cy', 'bob', 'ann')
    """
    for player, dice in rolls.items():
        _check_name(player)
        if not dice or any(
            not isinstance(die, int) or isinstance(die, bool) or not 1 <= die <= 6 for die in dice
        ):
            raise ChouetteError("invalid_dice", f"{player}: each roll is one die, 1 to 6")
    ranked = sorted(rolls, key=lambda player: tuple(rolls[player]), reverse=True)
    for higher, lower in pairwise(ranked):
        first, second = tuple(rolls[higher]), tuple(rolls[lower])
        shorter = min(len(first), len(second))
        if first[:shorter] == second[:shorter]:
            raise ChouetteError("tie_unresolved", f"{higher} and {lower} are tied: they roll again")
    return tuple(ranked)


def join(table: ChouetteTable, player: str) -> ChouetteTable:
    """A newcomer joins at the end of the line (between games).

    Joining before :func:`rotate` puts the newcomer ahead of the game's loser; joining after
    it puts them behind.
    """
    _check_name(player)
    if player in table.order:
        raise ChouetteError("already_seated", f"{player} already sits at this chouette")
    if len(table.order) >= MAX_PLAYERS:
        raise ChouetteError("table_full", f"a chouette seats at most {MAX_PLAYERS} players")
    return ChouetteTable((*table.order, player))


def leave(table: ChouetteTable, player: str) -> ChouetteTable:
    """A player leaves between games; everyone behind moves up one place (so when the box
    leaves, the captain takes the box and the next in line becomes captain)."""
    if player not in table.order:
        raise ChouetteError("not_seated", f"{player} does not sit at this chouette")
    if len(table.order) <= MIN_PLAYERS:
        raise ChouetteError(
            "too_few_players",
            f"a chouette needs at least {MIN_PLAYERS} players: end it instead",
        )
    return ChouetteTable(tuple(seated for seated in table.order if seated != player))


def rotate(table: ChouetteTable, winner: Side) -> ChouetteTable:
    """The order for the next game, from who won the box's game against the captain.

    The box wins: the box stays, the captain goes to the end of the line and the next in line
    becomes captain. The captain wins: the captain becomes the box, the old box goes to the
    end of the line and the next in line becomes captain.

    >>> rotate(ChouetteTable(("ann", "bob", "cy", "dee")), Side.BOX).order
    ('ann', 'cy', 'dee', 'bob')
    >>> rotate(ChouetteTable(("ann", "bob", "cy", "dee")), Side.TEAM).order
    ('bob', 'cy', 'dee', 'ann')
    """
    box, captain, *line = table.order
    if Side(winner) is Side.BOX:
        return ChouetteTable((box, *line, captain))
    return ChouetteTable((captain, *line, box))


def _check_name(player: object) -> None:
    if not isinstance(player, str) or not player:
        raise ChouetteError("invalid_player", f"a player is a non-empty string: {player!r}")
