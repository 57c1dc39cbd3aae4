"""Match clocks (WBGF § 4.3): each seat's reserve left (ms), whose period runs, since when, and
the moment it runs out, so that any process (after a restart too) continues the clock and finds
the clocks that ran out.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("clock_reserve0", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("clock_reserve1", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("clock_running", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("clock_started_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("clock_deadline", sa.DateTime(), nullable=True))
    op.create_index("ix_matches_status_clock", "matches", ["status", "clock_deadline"])


def downgrade() -> None:
    op.drop_index("ix_matches_status_clock", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        for name in (
            "clock_deadline",
            "clock_started_at",
            "clock_running",
            "clock_reserve1",
            "clock_reserve0",
        ):
            batch.drop_column(name)
