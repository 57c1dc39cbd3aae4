"""The webhook's inbox: updates kept from their arrival until handled, one row per update, so
that several bot processes behind one webhook address handle each update exactly once.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.schema import UtcDateTime

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbox_updates",
        sa.Column("platform", sa.String(length=16), nullable=False),
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("received_at", UtcDateTime(), nullable=False),
        sa.Column("claimed_at", UtcDateTime(), nullable=False),
        sa.Column("handled_at", UtcDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("platform", "update_id", name=op.f("pk_inbox_updates")),
    )
    op.create_index(
        "ix_inbox_updates_unhandled", "inbox_updates", ["handled_at", "claimed_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_inbox_updates_unhandled", table_name="inbox_updates")
    op.drop_table("inbox_updates")
