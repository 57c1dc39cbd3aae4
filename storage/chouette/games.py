"""A chouette session's games: started, their actions appended to the session's event log
(:mod:`storage.event_log`, version-checked), and settled with their points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Final

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from gammon.chouette import (
    MIN_PLAYERS,
    ChouetteAction,
    ChouetteError,
    chouette_action_to_dict,
    new_table,
)
from storage.acted import SeenActions
from storage.chouette.dice import seating_value
from storage.chouette.reads import ChouetteReads
from storage.chouette.records import ChouetteInfo, ChouetteStatus, player_key
from storage.chouette.sql import (
    apply_seat_requests,
    check_same_players,
    claim,
    deadline_after,
    dice_events,
    info_from_row,
    now_utc,
    update_row,
)
from storage.direct import DirectConnection
from storage.errors import ConflictError
from storage.event_log import EventLog, Then
from storage.schema import chouette_events, chouette_games, chouettes

OPEN, PLAYING = ChouetteStatus.OPEN, ChouetteStatus.PLAYING
LOG: Final = EventLog(chouette_events, owner="chouette_id", actor="player_id")


class ChouetteGames:
    """The game being played: its start, its log, its settlement."""

    def __init__(self, reads: ChouetteReads, acted: SeenActions) -> None:
        self.engine = reads.engine
        self._reads = reads
        self._acted = acted

    async def start_game(
        self,
        chouette_id: int,
        version: int,
        order: Sequence[int],
        *,
        seating_dice: int = 0,
        seating_rolls: Sequence[tuple[int, tuple[int, int]]] = (),
        now: datetime | None = None,
    ) -> ChouetteInfo:
        """Start game ``game_number`` with the players seated now in ``order`` (box, captain,
        then the line): for the first game the order the seating dice gave, later the order
        :meth:`finish_game` left with newcomers at the end. ``seating_dice`` is how many dice
        events the caller used to seat the players (``dice_for`` from ``dice_nonce`` on):
        they are spent, and the game's rolls take the nonces after them. ``seating_rolls``
        are those events as (user id, dice), in nonce order, kept for the dice check (given,
        they are the ``seating_dice``).

        The rules refuse fewer than three or more than eight players (:class:`ChouetteError`);
        an order of other players than those seated, or no client seed yet, is a caller's
        bug (``ValueError``)."""
        players = list(order)
        if seating_rolls:
            if seating_dice not in (0, len(seating_rolls)):
                raise ValueError(f"{len(seating_rolls)} seating rolls, not {seating_dice}")
            seating_dice = len(seating_rolls)
        if seating_dice < 0:
            raise ValueError(f"seating_dice counts dice events: {seating_dice}")
        new_table([player_key(user) for user in players])  # 3 to 8 players, none twice
        moment = now or now_utc()

        def write(connection: DirectConnection) -> RowMapping:
            row = claim(connection, chouette_id, version, (OPEN,), {"updated_at": moment})
            if row["client_seed"] is None:
                raise ValueError(f"chouette {chouette_id}: set the client seed before rolling")
            check_same_players(players, row["seats"], "the order")
            first = row["dice_nonce"] + seating_dice
            values = {"seats": players, "dice_nonce": first, **_game_started(row, first, moment)}
            if seating_rolls:
                values["seating_rolls"] = seating_value(seating_rolls)
            return update_row(connection, chouette_id, values)

        return info_from_row(await self.engine.write(write))

    async def append(
        self,
        chouette_id: int,
        version: int,
        actions: Sequence[ChouetteAction],
        player_id: int | None,
        event_id: str | None = None,
        *,
        now: datetime | None = None,
        then: Then,
    ) -> int:
        """Write ``actions`` (recorded by the rules from the game at ``version``: the
        player's action and what followed by itself) to the running game, in one
        transaction, if the session is still at ``version``; returns the new version (one
        more per action). ``player_id`` is the user whose command it was, ``event_id`` the
        platform's id of it. The dice counter moves on by the rolls among the actions.
        ``then`` writes, in the same transaction, what the actions set off (a game the
        rules say is over is marked so, ``game_over_at``, until :meth:`finish_game` writes
        its points, so that a game whose settlement a stopped process left undone is found:
        :meth:`ChouetteListings.unsettled_chouettes`; see :mod:`bot.core.events`).

        Raises :class:`AlreadyAppliedError` when ``event_id``'s action is in the log already
        and :class:`ConflictError` when another writer got there first (or no game runs);
        nothing is written either way. With no actions nothing is written."""
        if not actions:
            if (await self._reads.info(chouette_id)).version != version:
                raise ConflictError(f"chouette {chouette_id} is no longer at version {version}")
            return version
        moment = now or now_utc()
        new_version = version + len(actions)
        values = {
            "version": new_version,
            "dice_nonce": chouettes.c.dice_nonce + dice_events(actions),
            "updated_at": moment,
        }

        def claim_and_time(connection: DirectConnection) -> RowMapping:
            row = claim(connection, chouette_id, version, (PLAYING,), values)
            if row["move_time_limit"]:
                deadline = deadline_after(row["move_time_limit"], moment)
                row = update_row(connection, chouette_id, {"deadline": deadline})
            return row

        await LOG.append(
            self.engine,
            chouette_id,
            version,
            claim_and_time,
            [chouette_action_to_dict(action) for action in actions],
            actor_id=player_id,
            event_id=event_id,
            moment=moment,
            columns=lambda row: {"game_number": row["game_number"]},
            then=then,
        )
        if player_id is not None:
            self._acted.saw(chouette_id, player_id, moment)
        return new_version

    async def finish_game(
        self,
        chouette_id: int,
        version: int,
        points: Mapping[int, int],
        next_order: Sequence[int],
        *,
        start_next: bool = False,
        now: datetime | None = None,
    ) -> ChouetteInfo:
        """Close the running game in one transaction: its points (user id to points won or
        lost, from :func:`gammon.chouette.settle`) go to the scoreboard, the seats take
        ``next_order`` (:func:`gammon.chouette.next_table`) with the requests made during the
        game (:meth:`ChouetteSeats.request`) applied and cleared, and the session waits for the
        next game (status ``open``, ``game_number`` one more). Storage does not replay the
        game: the caller settled it. Points that do not add up to zero are refused
        (:class:`ChouetteError` ``not_zero_sum``); points or an order for other players than
        those at the table are a caller's bug (``ValueError``).

        ``start_next``: the next game starts in the same transaction when three or more are
        seated then (status ``playing``, as :meth:`start_game` starts it: its rolls take the
        session's next nonces, its deadline runs from now), so that no other start can come
        between the settlement and the game that follows it. Its opening roll is the
        caller's next write (:meth:`ChouetteListings.unrolled_chouettes` finds it, had the
        caller stopped)."""
        if sum(points.values()) != 0:
            raise ChouetteError("not_zero_sum", f"a game's points add up to zero: {points}")
        moment = now or now_utc()
        order = list(next_order)
        scored = {player_key(user): int(won) for user, won in points.items()}

        def write(connection: DirectConnection) -> RowMapping:
            row = claim(connection, chouette_id, version, (PLAYING,), {"updated_at": moment})
            check_same_players(list(points), row["seats"], "the points' players")
            check_same_players(order, row["seats"], "the next order")
            connection.execute(
                sa.insert(chouette_games),
                {
                    "chouette_id": chouette_id,
                    "game_number": row["game_number"],
                    "points": scored,
                    "first_nonce": row["game_nonce"],
                    "ended_at": moment,
                    "seats": [int(user) for user in row["seats"]],
                },
            )
            seats = apply_seat_requests(connection, chouette_id, order)
            values = {
                "status": OPEN.value,
                "seats": seats,
                "game_number": row["game_number"] + 1,
                "deadline": None,
                "game_over_at": None,
            }
            if start_next and len(seats) >= MIN_PLAYERS:
                values |= _game_started(row, row["dice_nonce"], moment)
            return update_row(connection, chouette_id, values)

        return info_from_row(await self.engine.write(write))

    async def applied(self, chouette_id: int, event_id: str) -> bool:
        """Whether the action of the platform event ``event_id`` is in the session's log."""
        return await LOG.applied(self.engine, chouette_id, event_id)


def _game_started(row: RowMapping, first_nonce: int, moment: datetime) -> dict[str, object]:
    """The columns of a session whose next game starts at ``moment``: being played, its rolls
    from dice event ``first_nonce`` on, its move time (if any) running from now."""
    return {
        "status": PLAYING.value,
        "game_nonce": first_nonce,
        "deadline": deadline_after(row["move_time_limit"], moment),
    }
