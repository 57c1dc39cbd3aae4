"""Seats of active matches (one active match per player and chat, enforced by the database)
and the server seed drawn with each challenge.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

logger = logging.getLogger(__name__)


def upgrade() -> None:
    op.create_table(
        "match_seats",
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_match_seats_chat_id_chats")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_match_seats_match_id_matches")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_match_seats_user_id_users")
        ),
        sa.PrimaryKeyConstraint("chat_id", "user_id", name=op.f("pk_match_seats")),
    )
    op.create_index("ix_match_seats_match", "match_seats", ["match_id"], unique=False)
    with op.batch_alter_table("challenges") as batch:
        batch.add_column(sa.Column("dice_commitment", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("server_seed", sa.String(length=64), nullable=True))
    op.create_index(
        "ix_challenges_challenger_state", "challenges", ["challenger_id", "state"], unique=False
    )
    op.create_index(
        "ix_challenges_chat_target_state",
        "challenges",
        ["chat_id", "challenged_id", "state"],
        unique=False,
    )
    _seat_active_matches()


def _seat_active_matches() -> None:
    """Seat the players of every active match, oldest first. A newer second match of the same
    player in the same chat (possible before this table existed) could never be reached:
    it is closed as abandoned, which also reveals its seed."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.text(
            "SELECT id, chat_id, player0_id, player1_id FROM matches "
            "WHERE status = 'active' ORDER BY id"
        )
    ).all()
    seated: set[tuple[int, int]] = set()
    for match_id, chat_id, first, second in rows:
        seats = {(chat_id, first), (chat_id, second)}
        if seats & seated:
            logger.warning("match %s: a second active match in one chat, abandoned", match_id)
            connection.execute(
                sa.text(
                    "UPDATE matches SET status = 'abandoned', deadline = NULL, "
                    "turn_user_id = NULL, finished_at = updated_at WHERE id = :id"
                ),
                {"id": match_id},
            )
            continue
        seated |= seats
        for seat_chat, user in sorted(seats):
            connection.execute(
                sa.text(
                    "INSERT INTO match_seats (chat_id, user_id, match_id) "
                    "VALUES (:chat, :user, :match)"
                ),
                {"chat": seat_chat, "user": user, "match": match_id},
            )


def downgrade() -> None:
    op.drop_index("ix_challenges_chat_target_state", table_name="challenges")
    op.drop_index("ix_challenges_challenger_state", table_name="challenges")
    with op.batch_alter_table("challenges") as batch:
        batch.drop_column("server_seed")
        batch.drop_column("dice_commitment")
    op.drop_index("ix_match_seats_match", table_name="match_seats")
    op.drop_table("match_seats")
