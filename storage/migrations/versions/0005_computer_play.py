"""Computer play: which accounts are the bot itself, which matches it plays (and at what
level), which matches allow hints, and the analyses of finished matches.

Matches that had finished before this revision are marked as not to be analysed: analysing
and posting them all at the first start would flood their chats with old news.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_matches = sa.table(
    "matches",
    sa.column("id", sa.Integer()),
    sa.column("status", sa.String()),
    sa.column("finished_at", sa.DateTime()),
)
_analyses = sa.table(
    "match_analyses",
    sa.column("match_id", sa.Integer()),
    sa.column("status", sa.String()),
    sa.column("level", sa.String()),
    sa.column("requested_at", sa.DateTime()),
)


def upgrade() -> None:
    # Only column adds with plain defaults (see 0004: no table copies on SQLite).
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("is_bot", sa.Boolean(), server_default="0", nullable=False))
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("hints", sa.Boolean(), server_default="0", nullable=False))
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("hints", sa.Boolean(), server_default="0", nullable=False))
    op.create_table(
        "match_analyses",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("level", sa.String(length=16), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.String(length=256), nullable=True),
        sa.Column("requested_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_match_analyses_match_id_matches"
        ),
        sa.PrimaryKeyConstraint("match_id", name="pk_match_analyses"),
    )
    op.create_index("ix_match_analyses_status", "match_analyses", ["status"])
    connection = op.get_bind()
    old = connection.execute(
        sa.select(_matches.c.id, _matches.c.finished_at).where(_matches.c.status == "finished")
    ).all()
    for match_id, finished_at in old:
        connection.execute(
            sa.insert(_analyses).values(
                match_id=match_id, status="skipped", level="", requested_at=finished_at
            )
        )


def downgrade() -> None:
    op.drop_index("ix_match_analyses_status", table_name="match_analyses")
    op.drop_table("match_analyses")
    op.drop_column("challenges", "hints")
    op.drop_column("matches", "hints")
    op.drop_column("matches", "bot_level")
    op.drop_column("users", "is_bot")
