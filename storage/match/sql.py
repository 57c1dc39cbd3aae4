"""The SQL of :mod:`storage.matches`: rows into records, the snapshot stored, and the statements
its parts run (each parameterised, built once)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from gammon.flow import MatchState
from gammon.match_rules import MatchRules
from gammon.serialization import state_to_dict
from storage.event_log import EventLog
from storage.match.clock_columns import COLUMNS as CLOCK_COLUMNS
from storage.match.clock_columns import clock_of
from storage.people import user_record
from storage.records import MatchInfo, MatchStatus, UserRecord
from storage.schema import match_events, match_seats, matches, users

ACTIVE, FINISHED = MatchStatus.ACTIVE, MatchStatus.FINISHED

# Every column but the secret seed and the snapshot: what match listings read.
INFO_COLUMNS: Final = [
    column for column in matches.c if column.name not in ("server_seed", "snapshot")
]

LOG: Final = EventLog(match_events, owner="match_id", actor="actor_id")

# The match row and its snapshot; the snapshot is left out (NULL) when the caller already
# holds the state of the stored version (``known_version``).
LOAD_MATCH: Final = sa.select(
    *INFO_COLUMNS,
    sa.case(
        (matches.c.version == sa.bindparam("known_version"), sa.null()),
        else_=matches.c.snapshot,
    ).label("snapshot"),
    matches.c.snapshot_version,
).where(matches.c.id == sa.bindparam("match_id"))

# One action appended: the row moves on only from the expected version of an active match.
APPEND: Final = (
    sa.update(matches)
    .where(
        matches.c.id == sa.bindparam("b_match"),
        matches.c.version == sa.bindparam("b_expected"),
        matches.c.status == ACTIVE,
    )
    .values(
        {
            column: sa.bindparam(column, type_=matches.c[column].type)
            for column in (
                "version",
                "snapshot",
                "snapshot_version",
                "status",
                "turn_user_id",
                "updated_at",
                "deadline",
                "finished_at",
                *CLOCK_COLUMNS,
            )
        }
    )
    .returning(*INFO_COLUMNS)
)
# The two players of a match (the same row twice would be one: a match has two players).
MATCH_PLAYERS: Final = (
    sa.select(users)
    .join(matches, sa.or_(matches.c.player0_id == users.c.id, matches.c.player1_id == users.c.id))
    .where(matches.c.id == sa.bindparam("match_id"))
)
ACTIVE_MATCH_ID: Final = sa.select(match_seats.c.match_id).where(
    match_seats.c.chat_id == sa.bindparam("chat_id"),
    match_seats.c.user_id == sa.bindparam("user_id"),
)
# The same seat as a subquery: a user's active match in a chat and its players, read without
# knowing its id (along with who is speaking, see UserRepository.upsert_user_in_chat).
_SEAT = (
    sa.select(match_seats.c.match_id)
    .where(
        match_seats.c.chat_id == sa.bindparam("seat_chat"),
        match_seats.c.user_id == sa.bindparam("seat_user"),
    )
    .scalar_subquery()
)
LOAD_ACTIVE: Final = sa.select(*INFO_COLUMNS, matches.c.snapshot, matches.c.snapshot_version).where(
    matches.c.id == _SEAT
)
ACTIVE_PLAYERS: Final = (
    sa.select(users)
    .join(matches, sa.or_(matches.c.player0_id == users.c.id, matches.c.player1_id == users.c.id))
    .where(matches.c.id == _SEAT)
)


def now_utc() -> datetime:
    return datetime.now(UTC)


def snapshot_of(state: MatchState) -> dict[str, Any]:
    """What is stored as the match's snapshot: the state without its history, which the event
    log holds, so that writing it costs the same however long the match has run."""
    return state_to_dict(state, with_actions=False)


def players_by_id(rows: Iterable[Any]) -> dict[int, UserRecord]:
    """The players :data:`MATCH_PLAYERS` or :data:`ACTIVE_PLAYERS` read, by their ids."""
    return {user.id: user for user in (user_record(row._mapping) for row in rows)}


def info_from_row(data: RowMapping) -> MatchInfo:
    return MatchInfo(
        id=data["id"],
        chat_id=data["chat_id"],
        player_ids=(data["player0_id"], data["player1_id"]),
        rules=MatchRules.from_dict(data["rules"]),
        status=MatchStatus(data["status"]),
        version=data["version"],
        turn_user_id=data["turn_user_id"],
        dice_commitment=data["dice_commitment"],
        client_seeds=(data["client_seed0"], data["client_seed1"]),
        move_time_limit=data["move_time_limit"],
        deadline=data["deadline"],
        board_messages=data["board_messages"],
        created_at=data["created_at"],
        updated_at=data["updated_at"],
        finished_at=data["finished_at"],
        bot_level=data["bot_level"],
        hints=bool(data["hints"]),
        rated=bool(data["rated"]),
        slug=data["slug"] or "",
        clock=clock_of(data),
    )
