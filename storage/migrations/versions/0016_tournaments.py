"""Tournaments and leagues: a tournament's settings, its entrants and its matches by slot; the
pairings and tables themselves are derived (gammon.tournament), never stored.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def _foreign(column: str, table: str, referred: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        [column], [f"{referred}.id"], name=op.f(f"fk_{table}_{column}_{referred}")
    )


def upgrade() -> None:
    op.create_table(
        "leagues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("organiser_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("promoted", sa.Integer(), nullable=False),
        sa.Column("relegated", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        _foreign("chat_id", "leagues", "chats"),
        _foreign("organiser_id", "leagues", "users"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_leagues")),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.Integer(), nullable=False),
        sa.Column("organiser_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("slug", sa.String(length=32), nullable=False),
        sa.Column("format", sa.JSON(), nullable=False),
        sa.Column("lengths", sa.JSON(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("move_time_limit", sa.Integer(), nullable=True),
        sa.Column("match_days", sa.Integer(), nullable=True),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("seeding", sa.String(length=16), nullable=False),
        sa.Column("seed_commitment", sa.String(length=64), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("closes_at", sa.DateTime(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        sa.Column("league_id", sa.Integer(), nullable=True),
        sa.Column("season", sa.Integer(), nullable=True),
        _foreign("chat_id", "tournaments", "chats"),
        _foreign("organiser_id", "tournaments", "users"),
        _foreign("winner_id", "tournaments", "users"),
        _foreign("league_id", "tournaments", "leagues"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index("ux_tournaments_slug", "tournaments", ["slug"], unique=True)
    op.create_index("ix_tournaments_chat_status", "tournaments", ["chat_id", "status"])
    op.create_index(
        "ux_tournaments_league_season", "tournaments", ["league_id", "season"], unique=True
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("division", sa.Integer(), nullable=True),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(), nullable=True),
        _foreign("tournament_id", "tournament_entrants", "tournaments"),
        _foreign("user_id", "tournament_entrants", "users"),
        sa.PrimaryKeyConstraint("tournament_id", "user_id", name=op.f("pk_tournament_entrants")),
    )
    op.create_index(
        "ux_tournament_entrants_seed", "tournament_entrants", ["tournament_id", "seed"], unique=True
    )
    op.create_table(
        "tournament_matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("slot", sa.String(length=32), nullable=False),
        sa.Column("player0_id", sa.Integer(), nullable=False),
        sa.Column("player1_id", sa.Integer(), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("paired_at", sa.DateTime(), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=True),
        sa.Column("winner_id", sa.Integer(), nullable=True),
        sa.Column("loser_id", sa.Integer(), nullable=True),
        sa.Column("winner_points", sa.Integer(), nullable=True),
        sa.Column("loser_points", sa.Integer(), nullable=True),
        sa.Column("walkover", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("announced_at", sa.DateTime(), nullable=True),
        sa.Column("dice_commitment", sa.String(length=64), nullable=True),
        sa.Column("server_seed", sa.String(length=64), nullable=True),
        sa.Column("overdue_at", sa.DateTime(), nullable=True),
        _foreign("tournament_id", "tournament_matches", "tournaments"),
        _foreign("player0_id", "tournament_matches", "users"),
        _foreign("player1_id", "tournament_matches", "users"),
        _foreign("match_id", "tournament_matches", "matches"),
        _foreign("winner_id", "tournament_matches", "users"),
        _foreign("loser_id", "tournament_matches", "users"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_matches")),
    )
    op.create_index(
        "ux_tournament_matches_slot", "tournament_matches", ["tournament_id", "slot"], unique=True
    )
    op.create_index("ux_tournament_matches_match", "tournament_matches", ["match_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_tournament_matches_match", table_name="tournament_matches")
    op.drop_index("ux_tournament_matches_slot", table_name="tournament_matches")
    op.drop_table("tournament_matches")
    op.drop_index("ux_tournament_entrants_seed", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ux_tournaments_league_season", table_name="tournaments")
    op.drop_index("ix_tournaments_chat_status", table_name="tournaments")
    op.drop_index("ux_tournaments_slug", table_name="tournaments")
    op.drop_table("tournaments")
    op.drop_table("leagues")
