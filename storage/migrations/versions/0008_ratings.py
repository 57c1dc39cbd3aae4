"""Ratings and statistics: the ``unrated`` challenge option, the FIBS rating and experience of
each player per game, every rated match with the standings before and after, who played rated
matches in which chat (for the chat's leaderboard), and each player's result of every match.

Matches finished before this revision stay unrated and out of the statistics: their players
start at 1500.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from storage.schema import UtcDateTime

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("challenges", "matches"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(
                sa.Column("rated", sa.Boolean(), server_default=sa.true(), nullable=False)
            )
    op.create_table(
        "ratings",
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("experience", sa.Integer(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_ratings_user_id_users")),
        sa.PrimaryKeyConstraint("user_id", "game", name=op.f("pk_ratings")),
    )
    op.create_index(
        "ix_ratings_game_rating", "ratings", ["game", "rating", "experience"], unique=False
    )
    op.create_table(
        "rated_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("winner_id", sa.Integer(), nullable=False),
        sa.Column("loser_id", sa.Integer(), nullable=False),
        sa.Column("winner_rating_before", sa.Double(), nullable=False),
        sa.Column("winner_experience_before", sa.Integer(), nullable=False),
        sa.Column("loser_rating_before", sa.Double(), nullable=False),
        sa.Column("loser_experience_before", sa.Integer(), nullable=False),
        sa.Column("winner_rating_after", sa.Double(), nullable=False),
        sa.Column("loser_rating_after", sa.Double(), nullable=False),
        sa.Column("finished_at", UtcDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_rated_matches_chat_id_chats")
        ),
        sa.ForeignKeyConstraint(
            ["loser_id"], ["users.id"], name=op.f("fk_rated_matches_loser_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_rated_matches_match_id_matches")
        ),
        sa.ForeignKeyConstraint(
            ["winner_id"], ["users.id"], name=op.f("fk_rated_matches_winner_id_users")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rated_matches")),
        sa.UniqueConstraint("match_id", name="uq_rated_matches_match_id"),
    )
    op.create_index("ix_rated_matches_winner", "rated_matches", ["winner_id", "game"], unique=False)
    op.create_index("ix_rated_matches_loser", "rated_matches", ["loser_id", "game"], unique=False)
    op.create_table(
        "rating_ladder",
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("bucket", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game", "bucket", name=op.f("pk_rating_ladder")),
    )
    op.create_table(
        "rated_players",
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_rated_players_chat_id_chats")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_rated_players_user_id_users")
        ),
        sa.PrimaryKeyConstraint("chat_id", "game", "user_id", name=op.f("pk_rated_players")),
    )
    op.create_table(
        "player_results",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=16), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=True),
        sa.Column("bot_level", sa.String(length=16), nullable=True),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.Column("singles_won", sa.Integer(), nullable=False),
        sa.Column("gammons_won", sa.Integer(), nullable=False),
        sa.Column("backgammons_won", sa.Integer(), nullable=False),
        sa.Column("games_lost", sa.Integer(), nullable=False),
        sa.Column("doubles_offered", sa.Integer(), nullable=False),
        sa.Column("doubles_taken", sa.Integer(), nullable=False),
        sa.Column("doubles_dropped", sa.Integer(), nullable=False),
        sa.Column("finished_at", UtcDateTime(), nullable=False),
        sa.Column("error_rate", sa.Double(), nullable=True),
        sa.ForeignKeyConstraint(
            ["chat_id"], ["chats.id"], name=op.f("fk_player_results_chat_id_chats")
        ),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_player_results_match_id_matches")
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"], ["users.id"], name=op.f("fk_player_results_opponent_id_users")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_player_results_user_id_users")
        ),
        sa.PrimaryKeyConstraint("match_id", "user_id", name=op.f("pk_player_results")),
    )
    op.create_index("ix_player_results_user", "player_results", ["user_id", "game", "finished_at"])
    op.create_index("ix_player_results_chat_user", "player_results", ["chat_id", "user_id", "game"])


def downgrade() -> None:
    op.drop_index("ix_player_results_chat_user", table_name="player_results")
    op.drop_index("ix_player_results_user", table_name="player_results")
    op.drop_table("player_results")
    op.drop_table("rated_players")
    op.drop_table("rating_ladder")
    op.drop_index("ix_rated_matches_loser", table_name="rated_matches")
    op.drop_index("ix_rated_matches_winner", table_name="rated_matches")
    op.drop_table("rated_matches")
    op.drop_index("ix_ratings_game_rating", table_name="ratings")
    op.drop_table("ratings")
    for table in ("matches", "challenges"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("rated")
