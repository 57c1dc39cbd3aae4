"""A tournament's pairing may play in a thread of its own (a Discord thread, a Telegram forum
topic): the pairing keeps the thread's chat, where its [Start] and its match are.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_matches") as batch:
        batch.add_column(sa.Column("thread_chat_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_tournament_matches_thread_chat_id_chats"),
            "chats",
            ["thread_chat_id"],
            ["id"],
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_matches") as batch:
        batch.drop_constraint(
            op.f("fk_tournament_matches_thread_chat_id_chats"), type_="foreignkey"
        )
        batch.drop_column("thread_chat_id")
