"""The platform's id of the message or press behind each action and challenge, unique per
match and per chat: an update handled a second time (taken over from a process that died after
writing its effect but before marking it handled) cannot apply its action or make its
challenge twice.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("match_events", "challenges"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("event_id", sa.String(length=128), nullable=True))
    op.create_index("ux_match_events_event", "match_events", ["match_id", "event_id"], unique=True)
    op.create_index("ux_challenges_event", "challenges", ["chat_id", "event_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_challenges_event", table_name="challenges")
    op.drop_index("ux_match_events_event", table_name="match_events")
    for table in ("challenges", "match_events"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("event_id")
