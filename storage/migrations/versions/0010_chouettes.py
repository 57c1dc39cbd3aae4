"""Chouette sessions in group chats: the session (seats, version, one dice commitment for all
its games), the open session of each chat (at most one, by its primary key), the event log of
its games and each finished game's points.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.schema import UtcDateTime

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    _chouettes()
    _open_chouettes()
    _chouette_events()
    _chouette_games()


def _chouettes() -> None:
    op.create_table(
        "chouettes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("host_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("dice_nonce", sa.Integer(), nullable=False),
        sa.Column("game_nonce", sa.Integer(), nullable=False),
        sa.Column("dice_commitment", sa.String(length=64), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("client_seed", sa.String(length=256), nullable=True),
        sa.Column("move_time_limit", sa.Integer(), nullable=True),
        sa.Column("deadline", UtcDateTime(), nullable=True),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
        sa.Column("ended_at", UtcDateTime(), nullable=True),
        sa.Column("event_id", sa.String(length=128), nullable=True),
        sa.ForeignKeyConstraint(["chat_id"], ["chats.id"], name=op.f("fk_chouettes_chat_id_chats")),
        sa.ForeignKeyConstraint(["host_id"], ["users.id"], name=op.f("fk_chouettes_host_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chouettes")),
    )
    op.create_index("ux_chouettes_event", "chouettes", ["chat_id", "event_id"], unique=True)
    op.create_index(
        "ix_chouettes_status_deadline", "chouettes", ["status", "deadline"], unique=False
    )


def _open_chouettes() -> None:
    op.create_table(
        "open_chouettes",
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("chouette_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_open_chouettes_chat_id_chats")
        ),
        sa.ForeignKeyConstraint(
            ["chouette_id"],
            ["chouettes.id"],
            name=op.f("fk_open_chouettes_chouette_id_chouettes"),
        ),
        sa.PrimaryKeyConstraint("chat_id", name=op.f("pk_open_chouettes")),
    )
    op.create_index("ux_open_chouettes_chouette", "open_chouettes", ["chouette_id"], unique=True)


def _chouette_events() -> None:
    op.create_table(
        "chouette_events",
        sa.Column("chouette_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("event_id", sa.String(length=128), nullable=True),
        sa.ForeignKeyConstraint(
            ["chouette_id"],
            ["chouettes.id"],
            name=op.f("fk_chouette_events_chouette_id_chouettes"),
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["users.id"], name=op.f("fk_chouette_events_player_id_users")
        ),
        sa.PrimaryKeyConstraint("chouette_id", "seq", name=op.f("pk_chouette_events")),
    )
    op.create_index(
        "ux_chouette_events_event", "chouette_events", ["chouette_id", "event_id"], unique=True
    )
    op.create_index(
        "ix_chouette_events_game",
        "chouette_events",
        ["chouette_id", "game_number", "seq"],
        unique=False,
    )


def _chouette_games() -> None:
    op.create_table(
        "chouette_games",
        sa.Column("chouette_id", sa.Integer(), nullable=False),
        sa.Column("game_number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("first_nonce", sa.Integer(), nullable=False),
        sa.Column("ended_at", UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["chouette_id"],
            ["chouettes.id"],
            name=op.f("fk_chouette_games_chouette_id_chouettes"),
        ),
        sa.PrimaryKeyConstraint("chouette_id", "game_number", name=op.f("pk_chouette_games")),
    )


def downgrade() -> None:
    op.drop_table("chouette_games")
    op.drop_index("ix_chouette_events_game", table_name="chouette_events")
    op.drop_index("ux_chouette_events_event", table_name="chouette_events")
    op.drop_table("chouette_events")
    op.drop_index("ux_open_chouettes_chouette", table_name="open_chouettes")
    op.drop_table("open_chouettes")
    op.drop_index("ix_chouettes_status_deadline", table_name="chouettes")
    op.drop_index("ux_chouettes_event", table_name="chouettes")
    op.drop_table("chouettes")
