"""A chouette's dice (:class:`ChouetteDice`), and its dice events as recorded, in nonce order,
for its transcript and check page.

The session's one dice counter (``dice_nonce``) runs through everything that was rolled:

1. the seating dice, when the first game started: one dice event per die a player rolled
   (only the event's first die counts), kept in ``chouettes.seating_rolls``;
2. then each game in turn, from the nonce it started at (``chouette_games.first_nonce``, and
   ``chouettes.game_nonce`` for the game being or last played): its opening roll and the
   re-rolls of a tie, then every roll of its board, a roll that cannot be played included,
   in the order of its event log.

Cube actions, plays, and rolls the rules refused use no nonce. Sessions started before
migration 0014 have no seating dice stored: their first nonces are missing here.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from gammon.actions import OpeningRoll, Roll
from gammon.chouette import BoardAction, chouette_action_from_dict
from gammon.fair_dice import FairDice
from gammon.flow import Roller
from storage.chouette.memory import CACHE_SIZE
from storage.chouette.reads import ChouetteReads
from storage.chouette.records import ChouetteInfo, ChouetteStatus
from storage.errors import NotFoundError, SeedStillSecretError
from storage.schema import chouette_events, chouette_games, chouettes


class RollKind(enum.StrEnum):
    SEATING = "seating"  # one player's seating die (the event's first die)
    OPENING = "opening"  # a game's opening roll: the box's die, then the captain's
    ROLL = "roll"  # a roll on the board


@dataclass(frozen=True)
class ChouetteRoll:
    """One dice event of a session. ``game`` is 0 for the seating. ``players`` are user ids:
    the seated player (seating), the box and the captain (opening; empty when the game's
    order was not kept), or who rolled (roll)."""

    nonce: int
    game: int
    kind: RollKind
    players: tuple[int, ...]
    dice: tuple[int, int]


def seating_value(player_dice: Iterable[tuple[int, tuple[int, int]]]) -> list[list[int]]:
    """The stored form of the seating dice: ``[[user id, die, die], ...]`` in nonce order."""
    return [[int(user), int(dice[0]), int(dice[1])] for user, dice in player_dice]


def dice_queries(info: ChouetteInfo) -> tuple[sa.Select[Any], sa.Select[Any], sa.Select[Any]]:
    """What :func:`recorded_rolls` reads: the seating dice, the finished games, the log."""
    return (
        sa.select(chouettes.c.seating_rolls).where(chouettes.c.id == info.id),
        sa.select(
            chouette_games.c.game_number, chouette_games.c.first_nonce, chouette_games.c.seats
        )
        .where(chouette_games.c.chouette_id == info.id)
        .order_by(chouette_games.c.game_number),
        sa.select(chouette_events.c.game_number, chouette_events.c.action)
        .where(chouette_events.c.chouette_id == info.id)
        .order_by(chouette_events.c.seq),
    )


def recorded_rolls(
    info: ChouetteInfo,
    seating: Sequence[Sequence[int]] | None,
    games: Sequence[tuple[int, int, Sequence[int] | None]],
    events: Iterable[tuple[int, Mapping[str, Any]]],
) -> tuple[ChouetteRoll, ...]:
    """Every recorded dice event, in nonce order, from the rows of :func:`dice_queries`:
    ``seating`` as stored, ``games`` (number, first nonce, order) of the finished games and
    ``events`` (game number, action) of the whole log in order."""
    rolls = [
        ChouetteRoll(nonce, 0, RollKind.SEATING, (int(user),), (int(one), int(two)))
        for nonce, (user, one, two) in enumerate(seating or ())
    ]
    starts = {number: (first, tuple(seats or ())) for number, first, seats in games}
    if info.status is not ChouetteStatus.OPEN:  # the game being played, or the one ended in
        starts.setdefault(info.game_number, (info.game_nonce, info.seats))
    counted: dict[int, int] = {}
    for game, data in events:
        action = chouette_action_from_dict(dict(data))
        if not isinstance(action, BoardAction) or not isinstance(action.action, OpeningRoll | Roll):
            continue
        first, order = starts.get(game, (None, ()))
        if first is None:
            continue  # a game with no known start (not possible once written)
        nonce = first + counted.get(game, 0)
        counted[game] = counted.get(game, 0) + 1
        inner = action.action
        if isinstance(inner, OpeningRoll):
            kind, players = RollKind.OPENING, tuple(order[:2])
        else:
            kind, players = RollKind.ROLL, (int(action.player),)
        rolls.append(ChouetteRoll(nonce, game, kind, players, (inner.dice[0], inner.dice[1])))
    return tuple(sorted(rolls, key=lambda roll: roll.nonce))


class ChouetteDice:
    """The session's fair dice (its seeds read once and kept), the record of what they rolled
    and, once the session has ended, its server seed."""

    def __init__(self, reads: ChouetteReads) -> None:
        self.engine = reads.engine
        self._reads = reads
        self._dice: dict[int, FairDice] = {}

    async def roller(self, chouette_id: int) -> Roller:
        """The session's dice: ``roller(nonce)`` is dice event ``nonce`` of the session. Read
        once its client seed is fixed (the seeds never change after) and kept."""
        known = self._dice.get(chouette_id)
        if known is None:
            row = (
                await self.engine.read(
                    sa.select(chouettes.c.server_seed, chouettes.c.client_seed).where(
                        chouettes.c.id == chouette_id
                    )
                )
            ).first()
            if row is None:
                raise NotFoundError(f"no chouette {chouette_id}")
            if row[1] is None:
                raise ValueError(f"chouette {chouette_id}: set the client seed before rolling")
            known = FairDice(bytes.fromhex(row[0]), row[1])
            if len(self._dice) > CACHE_SIZE:
                self._dice.clear()
            self._dice[chouette_id] = known
        return known.roll

    async def dice_for(self, chouette_id: int, nonce: int) -> tuple[int, int]:
        """The two dice of dice event ``nonce`` of the session (the next is ``dice_nonce``)."""
        return (await self.roller(chouette_id))(nonce)

    async def dice_record(self, chouette_id: int) -> tuple[ChouetteInfo, tuple[ChouetteRoll, ...]]:
        """The session and every dice event recorded for it, in nonce order (the seating
        dice, then each game's opening roll, its re-rolls and its rolls: see
        above); the dice only, never the seed."""
        info = await self._reads.info(chouette_id)
        seating, games, events = await self.engine.read_many(
            *((query, None) for query in dice_queries(info))
        )
        rolls = recorded_rolls(
            info,
            seating.scalar(),
            [(row[0], row[1], row[2]) for row in games],
            [(row[0], row[1]) for row in events],
        )
        return info, rolls

    async def reveal_seed(self, chouette_id: int) -> bytes:
        """The server seed, once the session has ended (for the transcript anyone can check
        against the commitment); :class:`SeedStillSecretError` before."""
        row = (
            await self.engine.read(
                sa.select(chouettes.c.status, chouettes.c.server_seed).where(
                    chouettes.c.id == chouette_id
                )
            )
        ).first()
        if row is None:
            raise NotFoundError(f"no chouette {chouette_id}")
        if row[0] != ChouetteStatus.ENDED:
            raise SeedStillSecretError(f"chouette {chouette_id} is still being played")
        return bytes.fromhex(row[1])
