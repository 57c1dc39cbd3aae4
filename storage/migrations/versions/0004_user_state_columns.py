"""The transient state of users in columns of its own, out of ``users.preferences``: the play
awaiting [Confirm], whether private messages fail, and the client seed chosen with /seed.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

logger = logging.getLogger(__name__)

_MOVED = ("pending_move", "unreachable", "next_seed", "next_seed_at")
_MAX_PLAY = 64
_MAX_SEED = 256

# The users table as this migration sees it, whatever storage/schema.py says later.
_users = sa.table(
    "users",
    sa.column("id", sa.Integer()),
    sa.column("preferences", sa.JSON()),
    sa.column("pending_match_id", sa.Integer()),
    sa.column("pending_version", sa.Integer()),
    sa.column("pending_play", sa.String()),
    sa.column("unreachable", sa.Boolean()),
    sa.column("next_seed", sa.String()),
    sa.column("next_seed_at", sa.DateTime()),
)


def upgrade() -> None:
    # Only column adds, each one ALTER TABLE ADD COLUMN, also on SQLite. Anything that made
    # batch mode copy the table (a default given as an SQL expression such as sa.false(), a
    # dropped column) would fail there: dropping the old users table breaks the foreign keys
    # of every challenge and match. The default '0' reads as false on PostgreSQL too.
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("pending_match_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("pending_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("pending_play", sa.String(length=_MAX_PLAY), nullable=True))
        batch.add_column(sa.Column("unreachable", sa.Boolean(), server_default="0", nullable=False))
        batch.add_column(sa.Column("next_seed", sa.String(length=_MAX_SEED), nullable=True))
        batch.add_column(sa.Column("next_seed_at", sa.DateTime(), nullable=True))
    _move_state_out_of_preferences()


def _move_state_out_of_preferences() -> None:
    """Copy each user's transient keys into the new columns and drop them from the JSON.
    The JSON is read in Python, the same way on every database. A value that the bot could
    not have used (wrongly typed, a seed without a readable time) is dropped, not copied."""
    connection = op.get_bind()
    rows = connection.execute(sa.select(_users.c.id, _users.c.preferences)).all()
    for user_id, preferences in rows:
        if not isinstance(preferences, dict) or not any(key in preferences for key in _MOVED):
            continue
        values = {
            **_pending_move(preferences.get("pending_move")),
            "unreachable": bool(preferences.get("unreachable")),
            **_next_seed(preferences.get("next_seed"), preferences.get("next_seed_at")),
            "preferences": {key: value for key, value in preferences.items() if key not in _MOVED},
        }
        connection.execute(sa.update(_users).where(_users.c.id == user_id).values(values))


def _pending_move(stored: Any) -> dict[str, Any]:
    if isinstance(stored, dict):
        match_id, version, play = (stored.get(key) for key in ("match", "version", "play"))
        if (
            _is_int(match_id)
            and _is_int(version)
            and isinstance(play, str)
            and 0 < len(play) <= _MAX_PLAY
        ):
            return {"pending_match_id": match_id, "pending_version": version, "pending_play": play}
    return {}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _next_seed(seed: Any, at: Any) -> dict[str, Any]:
    """The seed and its time as naive UTC, as storage.schema.UtcDateTime stores it."""
    if not isinstance(seed, str) or not seed or len(seed) > _MAX_SEED or not isinstance(at, str):
        return {}
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        logger.warning("a client seed chosen at an unreadable time (%r) is dropped", at)
        return {}
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return {"next_seed": seed, "next_seed_at": moment}


def downgrade() -> None:
    _move_state_into_preferences()
    # Not in batch mode: on SQLite it would copy the table and fail as said in upgrade();
    # ALTER TABLE DROP COLUMN works there since SQLite 3.35.
    for column in (
        "next_seed_at",
        "next_seed",
        "unreachable",
        "pending_play",
        "pending_version",
        "pending_match_id",
    ):
        op.drop_column("users", column)


def _move_state_into_preferences() -> None:
    """The reverse of the upgrade's copy, in the keys and formats the older code read."""
    connection = op.get_bind()
    rows = connection.execute(sa.select(_users)).mappings().all()
    for row in rows:
        moved: dict[str, Any] = {}
        if row["pending_match_id"] is not None and row["pending_version"] is not None:
            moved["pending_move"] = {
                "match": row["pending_match_id"],
                "version": row["pending_version"],
                "play": row["pending_play"] or "",
            }
        if row["unreachable"]:
            moved["unreachable"] = True
        if row["next_seed"] is not None and row["next_seed_at"] is not None:
            moved["next_seed"] = row["next_seed"]
            moved["next_seed_at"] = row["next_seed_at"].replace(tzinfo=UTC).isoformat()
        if moved:
            preferences = {**(row["preferences"] or {}), **moved}
            connection.execute(
                sa.update(_users).where(_users.c.id == row["id"]).values(preferences=preferences)
            )
