"""What a chouette's dice check needs that the event log does not hold: the seating dice (the
dice events spent on seating the players at the first game, drawn before any game's log
begins) and each finished game's seating order (who was box and captain at its opening roll).

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chouettes") as batch:
        batch.add_column(sa.Column("seating_rolls", sa.JSON(), nullable=True))
    with op.batch_alter_table("chouette_games") as batch:
        batch.add_column(sa.Column("seats", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("chouette_games") as batch:
        batch.drop_column("seats")
    with op.batch_alter_table("chouettes") as batch:
        batch.drop_column("seating_rolls")
