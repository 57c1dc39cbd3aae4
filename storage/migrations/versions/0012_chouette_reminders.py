"""The reminders the clock sent for chouettes with a move time limit: one row per session,
the version and stage of the last one, so that several processes send each reminder once.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chouette_reminders",
        sa.Column("chouette_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("stage", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["chouette_id"],
            ["chouettes.id"],
            name=op.f("fk_chouette_reminders_chouette_id_chouettes"),
        ),
        sa.PrimaryKeyConstraint("chouette_id", name=op.f("pk_chouette_reminders")),
    )


def downgrade() -> None:
    op.drop_table("chouette_reminders")
