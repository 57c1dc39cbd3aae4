"""Who sits at a chouette session: joining and leaving between games, and the requests to join
or leave made during a game, which the game's settlement seats (:mod:`.games`)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.engine import RowMapping

from gammon.chouette import MAX_PLAYERS, ChouetteError, join
from storage.chouette.records import ChouetteInfo, ChouetteStatus, player_key
from storage.chouette.sql import (
    JOIN,
    LEAVE,
    change_request,
    claim,
    hold,
    info_from_row,
    now_utc,
    read_requests,
    refuse,
    requests_of,
    seated_after,
    update_row,
)
from storage.direct import DirectConnection
from storage.threaded import ThreadedEngine

OPEN, PLAYING = ChouetteStatus.OPEN, ChouetteStatus.PLAYING


class ChouetteSeats:
    """Seats taken and given up, at once or when the game being played ends."""

    def __init__(self, engine: ThreadedEngine) -> None:
        self.engine = engine

    async def join(
        self, chouette_id: int, user_id: int, version: int, *, now: datetime | None = None
    ) -> ChouetteInfo:
        """The user sits down at the end of the line, between games only (status ``open``).
        The rules refuse a player seated already or a full table (:class:`ChouetteError`,
        ``already_seated`` / ``table_full``); a stale version gets :class:`ConflictError`."""

        def write(connection: DirectConnection) -> RowMapping:
            row = claim(connection, chouette_id, version, (OPEN,), {"updated_at": now or now_utc()})
            seated = join(info_from_row(row).table, player_key(user_id))
            return update_row(connection, chouette_id, {"seats": [int(p) for p in seated.order]})

        return info_from_row(await self.engine.write(write))

    async def leave(
        self, chouette_id: int, user_id: int, version: int, *, now: datetime | None = None
    ) -> ChouetteInfo:
        """The user gets up, between games only; everyone behind moves up one place. Any
        number may leave (between games there may be fewer than a game needs): the command
        layer starts no game with too few, and the host or an administrator ends the session."""

        def write(connection: DirectConnection) -> RowMapping:
            row = claim(connection, chouette_id, version, (OPEN,), {"updated_at": now or now_utc()})
            seats = [int(user) for user in row["seats"]]
            if user_id not in seats:
                raise ChouetteError("not_seated", f"user {user_id} does not sit at this chouette")
            kept = [user for user in seats if user != user_id]
            return update_row(connection, chouette_id, {"seats": kept})

        return info_from_row(await self.engine.write(write))

    async def request(
        self, chouette_id: int, user_id: int, kind: str, *, now: datetime | None = None
    ) -> bool:
        """Remember that the user joins (``"join"``) or leaves (``"leave"``) when the game
        being played ends (:meth:`ChouetteGames.finish_game` seats them). One short
        transaction that first holds the session's row while its game is being played
        (:func:`hold`: no new version, so a play at the same moment still goes through), so
        requests made at once by any number of processes are written one after the other and
        all survive, each counted against those before it: a request of the other kind is
        deleted (they changed their mind), else this one is inserted unless it is there
        already. False when the same request was there already.

        A join (or a leave taken back) that would seat more than eight when the game ends is
        refused in the same transaction (:class:`ChouetteError` ``table_full``), so nobody is
        promised a seat that is not there; :class:`ConflictError` once no game is being
        played (it ended meanwhile: the player joins or leaves at once), and
        :class:`ChouetteEndedError` once the session has ended. Nothing is written either
        way."""
        if kind not in (JOIN, LEAVE):
            raise ValueError(f"a request joins or leaves: {kind!r}")
        other = LEAVE if kind == JOIN else JOIN
        row = {
            "chouette_id": chouette_id,
            "user_id": user_id,
            "kind": kind,
            "created_at": now or now_utc(),
        }

        def write(connection: DirectConnection) -> bool:
            held = hold(connection, chouette_id)
            if held is None:
                refuse(connection, chouette_id, None, (PLAYING,))
            changed = change_request(connection, row, other)
            if kind == JOIN and changed:
                requests = read_requests(connection, chouette_id)
                if seated_after([int(user) for user in held["seats"]], requests) > MAX_PLAYERS:
                    raise ChouetteError("table_full", f"chouette {chouette_id} seats no more")
            return changed

        return await self.engine.write(write)

    async def requests(self, chouette_id: int) -> list[tuple[int, str]]:
        """The requests waiting for the game to end: (user id, ``"join"`` or ``"leave"``), in
        the order they were made."""
        rows = await self.engine.read(requests_of(chouette_id))
        return [(int(user_id), str(kind)) for user_id, kind in rows]
