"""Posted messages: which platform message fills each slot of a chat.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import storage.schema

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "posted_messages",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("platform_chat_id", sa.String(length=64), nullable=False),
        sa.Column("slot", sa.String(length=64), nullable=False),
        sa.Column("message_id", sa.String(length=64), nullable=False),
        sa.Column("updated_at", storage.schema.UtcDateTime(), nullable=False),
        sa.PrimaryKeyConstraint(
            "platform", "platform_chat_id", "slot", name=op.f("pk_posted_messages")
        ),
    )


def downgrade() -> None:
    op.drop_table("posted_messages")
