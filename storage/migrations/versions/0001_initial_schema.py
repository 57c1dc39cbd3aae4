"""Initial schema: users, chats, challenges, matches and the append-only match event log.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import storage.schema

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("platform_chat_id", sa.String(length=64), nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("created_at", storage.schema.UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chats")),
        sa.UniqueConstraint("platform", "platform_chat_id", name="uq_chats_platform_chat"),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("platform_user_id", sa.String(length=64), nullable=False),
        sa.Column("display_name", sa.String(length=256), nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=True),
        sa.Column("preferences", sa.JSON(), nullable=False),
        sa.Column("created_at", storage.schema.UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("platform", "platform_user_id", name="uq_users_platform_user"),
    )
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("player0_id", sa.Integer(), nullable=False),
        sa.Column("player1_id", sa.Integer(), nullable=False),
        sa.Column("variant", sa.String(length=16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=True),
        sa.Column("snapshot_version", sa.Integer(), nullable=True),
        sa.Column("turn_user_id", sa.Integer(), nullable=True),
        sa.Column("dice_commitment", sa.String(length=64), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("client_seed0", sa.String(length=256), nullable=False),
        sa.Column("client_seed1", sa.String(length=256), nullable=False),
        sa.Column("move_time_limit", sa.Integer(), nullable=True),
        sa.Column("deadline", storage.schema.UtcDateTime(), nullable=True),
        sa.Column("board_messages", sa.JSON(), nullable=False),
        sa.Column("created_at", storage.schema.UtcDateTime(), nullable=False),
        sa.Column("updated_at", storage.schema.UtcDateTime(), nullable=False),
        sa.Column("finished_at", storage.schema.UtcDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["chat_id"], ["chats.id"], name=op.f("fk_matches_chat_id_chats")),
        sa.ForeignKeyConstraint(
            ["player0_id"], ["users.id"], name=op.f("fk_matches_player0_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["player1_id"], ["users.id"], name=op.f("fk_matches_player1_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["turn_user_id"], ["users.id"], name=op.f("fk_matches_turn_user_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
    )
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.create_index("ix_matches_chat_status", ["chat_id", "status"], unique=False)
        batch_op.create_index("ix_matches_player0_status", ["player0_id", "status"], unique=False)
        batch_op.create_index("ix_matches_player1_status", ["player1_id", "status"], unique=False)
        batch_op.create_index("ix_matches_status_deadline", ["status", "deadline"], unique=False)

    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("challenger_id", sa.Integer(), nullable=False),
        sa.Column("challenged_id", sa.Integer(), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("move_time_limit", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("expires_at", storage.schema.UtcDateTime(), nullable=False),
        sa.Column("message_ref", sa.String(length=128), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("created_at", storage.schema.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["challenged_id"], ["users.id"], name=op.f("fk_challenges_challenged_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["challenger_id"], ["users.id"], name=op.f("fk_challenges_challenger_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_challenges_chat_id_chats")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_challenges_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_challenges")),
    )
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.create_index("ix_challenges_chat_state", ["chat_id", "state"], unique=False)
        batch_op.create_index("ix_challenges_state_expires", ["state", "expires_at"], unique=False)

    op.create_table(
        "match_events",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("created_at", storage.schema.UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["actor_id"], ["users.id"], name=op.f("fk_match_events_actor_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_match_events_match_id_matches")
        ),
        sa.PrimaryKeyConstraint("match_id", "seq", name=op.f("pk_match_events")),
    )


def downgrade() -> None:
    op.drop_table("match_events")
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_index("ix_challenges_state_expires")
        batch_op.drop_index("ix_challenges_chat_state")

    op.drop_table("challenges")
    with op.batch_alter_table("matches", schema=None) as batch_op:
        batch_op.drop_index("ix_matches_status_deadline")
        batch_op.drop_index("ix_matches_player1_status")
        batch_op.drop_index("ix_matches_player0_status")
        batch_op.drop_index("ix_matches_chat_status")

    op.drop_table("matches")
    op.drop_table("users")
    op.drop_table("chats")
