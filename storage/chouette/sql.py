"""The SQL of :mod:`storage.chouettes`: rows into records, the conditional update every write
begins with, and the queries and statements its repository runs (each parameterised)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final, NoReturn

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import RowMapping

from gammon.actions import OpeningRoll, Roll
from gammon.chouette import MAX_PLAYERS, BoardAction, ChouetteAction, ChouetteRules, Scoreboard
from storage.chouette.records import (
    ChouetteGameRecord,
    ChouetteInfo,
    ChouetteStatus,
    player_key,
)
from storage.direct import DirectConnection
from storage.errors import ChouetteEndedError, ConflictError, NotFoundError
from storage.schema import (
    chouette_events,
    chouette_games,
    chouette_requests,
    chouettes,
    open_chouettes,
)

JOIN, LEAVE = "join", "leave"  # the kinds of a request to change seats during a game

# Every column but the secret seed: what the records are made of.
INFO_COLUMNS: Final = [column for column in chouettes.c if column.name != "server_seed"]
NOT_ENDED: Final = (ChouetteStatus.OPEN, ChouetteStatus.PLAYING)


def now_utc() -> datetime:
    return datetime.now(UTC)


def info_from_row(data: RowMapping) -> ChouetteInfo:
    return ChouetteInfo(
        id=data["id"],
        chat_id=data["chat_id"],
        host_id=data["host_id"],
        status=ChouetteStatus(data["status"]),
        rules=ChouetteRules.from_dict(data["rules"]),
        seats=tuple(int(user) for user in data["seats"]),
        version=data["version"],
        game_number=data["game_number"],
        dice_nonce=data["dice_nonce"],
        game_nonce=data["game_nonce"],
        dice_commitment=data["dice_commitment"],
        client_seed=data["client_seed"],
        move_time_limit=data["move_time_limit"],
        deadline=data["deadline"],
        created_at=data["created_at"],
        updated_at=data["updated_at"],
        ended_at=data["ended_at"],
        event_id=data["event_id"],
        game_over_at=data["game_over_at"],
    )


def game_record(chouette_id: int, data: RowMapping) -> ChouetteGameRecord:
    return ChouetteGameRecord(
        chouette_id=chouette_id,
        game_number=data["game_number"],
        points={int(user): int(points) for user, points in data["points"].items()},
        first_nonce=data["first_nonce"],
        ended_at=data["ended_at"],
    )


def dice_events(actions: Iterable[ChouetteAction]) -> int:
    """How many dice events (nonces) ``actions`` used: each opening roll (re-rolls after a
    tie included) and each roll on the board."""
    return sum(
        isinstance(action, BoardAction) and isinstance(action.action, OpeningRoll | Roll)
        for action in actions
    )


# --- the conditional update every write begins with ------------------------------------------


def claim(
    connection: DirectConnection,
    chouette_id: int,
    version: int,
    statuses: Sequence[ChouetteStatus],
    values: Mapping[str, Any],
) -> RowMapping:
    """The first statement of every write: the session moves on from ``version`` (to the
    version in ``values``, else one more) only if it is still there and in one of
    ``statuses``; returns the row as it is now. Otherwise raises, the transaction having
    written nothing: :class:`NotFoundError`, :class:`ChouetteEndedError` once the session has
    ended (whoever ended it), or :class:`ConflictError` saying why."""
    row = connection.execute(
        sa.update(chouettes)
        .where(
            chouettes.c.id == chouette_id,
            chouettes.c.version == version,
            chouettes.c.status.in_([status.value for status in statuses]),
        )
        .values({"version": version + 1, **values})
        .returning(*INFO_COLUMNS)
    ).first()
    if row is None:
        refuse(connection, chouette_id, version, statuses)
    written: RowMapping = row._mapping
    return written


def refuse(
    connection: DirectConnection,
    chouette_id: int,
    version: int | None,
    statuses: Sequence[ChouetteStatus],
) -> NoReturn:
    """Why the conditional update changed nothing (at ``version``, when it asked for one), as
    the error to raise. Read in the same transaction after the update waited for the row:
    what the writer who came first committed. An end is named as such, whatever the version:
    the caller words it, where a stale version is worth trying again."""
    found = connection.execute(
        sa.select(chouettes.c.version, chouettes.c.status).where(chouettes.c.id == chouette_id)
    ).first()
    if found is None:
        raise NotFoundError(f"no chouette {chouette_id}")
    if found[1] == ChouetteStatus.ENDED.value:
        raise ChouetteEndedError(f"chouette {chouette_id} has ended")
    if version is not None and found[0] != version:
        raise ConflictError(f"chouette {chouette_id} is no longer at version {version}")
    wanted = " or ".join(status.value for status in statuses)
    raise ConflictError(f"chouette {chouette_id} is {found[1]}, not {wanted}")


def hold(
    connection: DirectConnection, chouette_id: int, version: int | None = None
) -> RowMapping | None:
    """The first statement of a write that adds to a game without changing the session: its
    row written onto itself while a game is being played (at ``version``, when given). It
    takes the row's lock (PostgreSQL) or the write lock (SQLite) for the rest of the
    transaction without a new version, so that writers who hold it take turns, each reading
    what the one before wrote, and a write planned at this version still goes through after
    it. The row's seats, or None when no game is being played (at that version)."""
    where = [chouettes.c.id == chouette_id, chouettes.c.status == ChouetteStatus.PLAYING.value]
    if version is not None:
        where.append(chouettes.c.version == version)
    row = connection.execute(
        sa.update(chouettes)
        .where(*where)
        .values(version=chouettes.c.version)
        .returning(chouettes.c.seats)
    ).first()
    return None if row is None else row._mapping


def update_row(
    connection: DirectConnection, chouette_id: int, values: Mapping[str, Any]
) -> RowMapping:
    """The rest of a write, after :func:`claim` (whose lock it holds); the row as written."""
    row = connection.execute(
        sa.update(chouettes)
        .where(chouettes.c.id == chouette_id)
        .values(dict(values))
        .returning(*INFO_COLUMNS)
    ).one()
    written: RowMapping = row._mapping
    return written


def deadline_after(limit: int | None, moment: datetime) -> datetime | None:
    return moment + timedelta(seconds=limit) if limit else None


def check_same_players(order: Sequence[int], seats: Sequence[int], what: str) -> None:
    """``order`` seats exactly the players seated now (a caller's bug otherwise)."""
    if sorted(order) != sorted(seats):
        raise ValueError(f"{what} {list(order)} is not an order of the seated {list(seats)}")


def finished_games(info: ChouetteInfo) -> sa.Select[Any]:
    """The session's finished games, in order, as of ``info``."""
    return (
        sa.select(chouette_games)
        .where(
            chouette_games.c.chouette_id == info.id,
            chouette_games.c.game_number < info.game_number,
        )
        .order_by(chouette_games.c.game_number)
    )


def events_since(info: ChouetteInfo, start: int) -> sa.Select[Any]:
    """The running game's events from version ``start`` to ``info.version``, in order."""
    return (
        sa.select(chouette_events.c.action)
        .where(
            chouette_events.c.chouette_id == info.id,
            chouette_events.c.game_number == info.game_number,
            chouette_events.c.seq >= start,
            chouette_events.c.seq < info.version,
        )
        .order_by(chouette_events.c.seq)
    )


def scoreboard_of(games: Iterable[ChouetteGameRecord]) -> Scoreboard:
    """The running score over ``games``, in the rules' player ids."""
    scoreboard = Scoreboard()
    for record in games:
        scoreboard = scoreboard.add({player_key(user): won for user, won in record.points.items()})
    return scoreboard


def opened_by(chat_id: int, event_id: str) -> sa.Select[Any]:
    """The chouette the platform message ``event_id`` opened in the chat, if any."""
    return sa.select(chouettes.c.id).where(
        chouettes.c.chat_id == chat_id, chouettes.c.event_id == event_id
    )


def open_in(chat_id: int) -> sa.Select[Any]:
    return sa.select(open_chouettes.c.chouette_id).where(open_chouettes.c.chat_id == chat_id)


def seated_condition(dialect: str, user_id: int) -> sa.ColumnElement[bool]:
    """The user sits at the session: ``user_id`` is an element of its ``seats`` (a JSON list
    of user ids), asked in each database's own JSON terms (both take it as a parameter)."""
    if dialect == "postgresql":
        return sa.cast(chouettes.c.seats, postgresql.JSONB).contains([user_id])
    seat = sa.func.json_each(chouettes.c.seats).table_valued("value").alias("seat")
    return sa.exists(sa.select(seat.c.value).where(seat.c.value == user_id))


def requests_of(chouette_id: int) -> sa.Select[Any]:
    return (
        sa.select(chouette_requests.c.user_id, chouette_requests.c.kind)
        .where(chouette_requests.c.chouette_id == chouette_id)
        .order_by(chouette_requests.c.created_at, chouette_requests.c.user_id)
    )


def change_request(connection: DirectConnection, row: Mapping[str, Any], other: str) -> bool:
    """A seat request (``row``): the same player's request of the ``other`` kind deleted
    (they changed their mind), else ``row`` inserted unless it is there already; whether
    anything changed."""
    cancelled = connection.execute(
        sa.delete(chouette_requests)
        .where(
            chouette_requests.c.chouette_id == row["chouette_id"],
            chouette_requests.c.user_id == row["user_id"],
            chouette_requests.c.kind == other,
        )
        .returning(chouette_requests.c.user_id)
    ).first()
    if cancelled is not None:
        return True
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    inserted = connection.execute(
        dialect.insert(chouette_requests)
        .on_conflict_do_nothing()
        .returning(chouette_requests.c.user_id),
        row,
    ).first()
    return inserted is not None


def read_requests(connection: DirectConnection, chouette_id: int) -> list[tuple[int, str]]:
    return [(int(user), str(kind)) for user, kind in connection.execute(requests_of(chouette_id))]


def seated_after(seats: Sequence[int], requests: Sequence[tuple[int, str]]) -> int:
    """How many will sit at the table when the game ends: those seated who do not leave, and
    those not among them who asked to join."""
    staying = {user for user in seats if (user, LEAVE) not in requests}
    joining = {user for user, kind in requests if kind == JOIN} - staying
    return len(staying) + len(joining)


def apply_seat_requests(
    connection: DirectConnection, chouette_id: int, order: list[int]
) -> list[int]:
    """``order`` with the requests made during the game applied (those who asked to leave
    get up, then those who asked to join sit down at the end of the line while there is
    room; a join of someone seated meanwhile is dropped), and the requests read deleted. A
    request written after they were read stays for the next game."""
    found = read_requests(connection, chouette_id)
    if not found:
        return order
    seats = [user for user in order if (user, LEAVE) not in found]
    for user, kind in found:
        if kind == JOIN and user not in seats and len(seats) < MAX_PLAYERS:
            seats.append(user)
    for user, kind in found:
        connection.execute(
            sa.delete(chouette_requests).where(
                chouette_requests.c.chouette_id == chouette_id,
                chouette_requests.c.user_id == user,
                chouette_requests.c.kind == kind,
            )
        )
    return seats
