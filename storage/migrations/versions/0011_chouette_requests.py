"""Chouette join and leave requests made during a game, one row per player, so that requests
made at once by several processes all survive (they were a chat setting before).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.schema import UtcDateTime

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chouette_requests",
        sa.Column("chouette_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["chouette_id"],
            ["chouettes.id"],
            name=op.f("fk_chouette_requests_chouette_id_chouettes"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_chouette_requests_user_id_users")
        ),
        sa.PrimaryKeyConstraint("chouette_id", "user_id", name=op.f("pk_chouette_requests")),
    )


def downgrade() -> None:
    op.drop_table("chouette_requests")
