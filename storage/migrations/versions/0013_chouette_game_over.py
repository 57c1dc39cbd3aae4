"""When a chouette's running game ended with its last action written, until its points are:
the clock settles a game whose settlement a stopped process left undone.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.schema import UtcDateTime

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chouettes") as batch:
        batch.add_column(sa.Column("game_over_at", UtcDateTime(), nullable=True))
    op.create_index("ix_chouettes_status_game_over", "chouettes", ["status", "game_over_at"])


def downgrade() -> None:
    op.drop_index("ix_chouettes_status_game_over", table_name="chouettes")
    with op.batch_alter_table("chouettes") as batch:
        batch.drop_column("game_over_at")
