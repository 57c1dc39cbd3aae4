"""Web addresses of matches: each match gets an unguessable slug for its pages (``/m/<slug>``).

Matches of earlier revisions get one too, drawn here, so every finished match has its replay
and dice check pages.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_matches = sa.table("matches", sa.column("id", sa.Integer()), sa.column("slug", sa.String()))


def upgrade() -> None:
    # A nullable column add (no table copy on SQLite); every row is then given a slug.
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("slug", sa.String(length=32), nullable=True))
    connection = op.get_bind()
    for (match_id,) in connection.execute(sa.select(_matches.c.id)).all():
        connection.execute(
            sa.update(_matches)
            .where(_matches.c.id == match_id)
            .values(slug=secrets.token_urlsafe(16))
        )
    op.create_index("ux_matches_slug", "matches", ["slug"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_matches_slug", table_name="matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("slug")
