"""A match against the bot is offered like a challenge, with its commitment to the dice posted
before the person's client seed is fixed (the press of [Start]): the challenge keeps the level
the bot will play at.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("bot_level")
