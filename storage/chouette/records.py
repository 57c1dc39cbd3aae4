"""What :class:`storage.chouettes.ChouetteRepository` hands out: frozen values, never the
unrevealed server seed.

Storage keys players by our integer user ids; the rules (:mod:`gammon.chouette`) by strings.
The bridge is ``str(user_id)`` one way and ``int(player)`` the other, and these records offer
both views so the command layer never converts by hand.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from gammon.chouette import ChouetteGame, ChouetteRules, ChouetteTable, Scoreboard


class ChouetteStatus(enum.StrEnum):
    OPEN = "open"  # no game running: players join and leave, or a game may start
    PLAYING = "playing"  # a game is running: only its actions are appended
    ENDED = "ended"  # over for good; its server seed may be revealed


def player_key(user_id: int) -> str:
    """The rules' player id of a user."""
    return str(user_id)


def user_of(player: str) -> int:
    """The user id behind a rules' player id."""
    return int(player)


@dataclass(frozen=True)
class ChouetteInfo:
    """A chouette's row without its game or secrets.

    ``seats`` is the rotation order (box, captain, then the line) while a game runs, and the
    order for the next game between games (newcomers at the end). ``game_number`` is the game
    being played, or the next one. ``dice_nonce`` is the session's next unused dice event:
    the next roll, whichever game or seating it is for, is ``dice_for(id, dice_nonce)``.
    ``game_nonce`` is the first dice event of the game being (or last) played.
    ``game_over_at`` is when the running game's last action was written, until its points
    are (``None`` otherwise)."""

    id: int
    chat_id: int
    host_id: int
    status: ChouetteStatus
    rules: ChouetteRules
    seats: tuple[int, ...]
    version: int
    game_number: int
    dice_nonce: int
    game_nonce: int
    dice_commitment: str
    client_seed: str | None
    move_time_limit: int | None
    deadline: datetime | None
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    event_id: str | None
    game_over_at: datetime | None

    @property
    def table(self) -> ChouetteTable:
        """The seats as the rules see them (not checked: between games there may be fewer
        players than a game needs)."""
        return ChouetteTable(tuple(player_key(user) for user in self.seats))

    def is_seated(self, user_id: int) -> bool:
        return user_id in self.seats


@dataclass(frozen=True)
class ChouetteGameRecord:
    """One finished game: each player's points (user id to points, adding up to zero) and
    the session's dice event its first roll used."""

    chouette_id: int
    game_number: int
    points: dict[int, int]
    first_nonce: int
    ended_at: datetime


@dataclass(frozen=True)
class LoadedChouette:
    """A chouette, its current game and the running score.

    ``game`` is the game being played, rebuilt from its events (``None`` between games and
    once ended). A game whose board has ended is still ``game`` until ``finish_game`` writes
    its points: after a restart in between, ``game.finished`` with status ``playing`` says the
    points are still to be written (and ``info.game_over_at`` since when, for the clock).
    ``scoreboard`` sums the finished games (rules' player ids, as
    :class:`gammon.chouette.Scoreboard` keeps them); :attr:`totals` reads it by user."""

    info: ChouetteInfo
    game: ChouetteGame | None
    scoreboard: Scoreboard
    games: tuple[ChouetteGameRecord, ...] = ()

    @property
    def totals(self) -> dict[int, int]:
        """The running score by user id, in order of first appearance."""
        return {user_of(player): points for player, points in self.scoreboard.totals}
