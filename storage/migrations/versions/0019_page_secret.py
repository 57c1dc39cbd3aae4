"""The board page's secret: one row, the random key every process of the bot signs the page's
player keys with (private links, the page's session after a Telegram hello).

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "page_secret",
        sa.Column("id", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("secret", sa.LargeBinary(), nullable=False),
        sa.CheckConstraint("id = 1", name="ck_page_secret_one_row"),
        sa.PrimaryKeyConstraint("id", name="pk_page_secret"),
    )


def downgrade() -> None:
    op.drop_table("page_secret")
