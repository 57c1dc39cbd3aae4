"""The tables, in SQLAlchemy Core: portable between SQLite and PostgreSQL.

Times are stored as naive UTC and handed out as aware UTC datetimes. The event log
(``match_events``) is the truth about every match; ``matches.snapshot`` is a cache of the state
it replays to, stamped with the version it belongs to.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Dialect


class UtcDateTime(sa.types.TypeDecorator[datetime]):
    """Aware UTC datetimes in Python, naive UTC in the database."""

    impl = sa.DateTime
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime) or value.tzinfo is None:
            raise ValueError("times must be aware datetimes")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


metadata = sa.MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

users = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("platform", sa.String(16), nullable=False),
    sa.Column("platform_user_id", sa.String(64), nullable=False),
    sa.Column("display_name", sa.String(256), nullable=False),
    sa.Column("locale", sa.String(16)),
    sa.Column("preferences", sa.JSON, nullable=False),  # what the user chose: see Preferences
    sa.Column("created_at", UtcDateTime, nullable=False),
    # Transient state, in columns of its own so that each is written by one small statement
    # and never merged with the preferences. The play awaiting [Confirm]: all three or none.
    sa.Column("pending_match_id", sa.Integer),
    sa.Column("pending_version", sa.Integer),
    sa.Column("pending_play", sa.String(64)),
    # Private messages to the user fail (a closed DM, a bot never started). The default is
    # the database's, so rows written without it (and those of before) read as reachable;
    # migration 0004 spells it '0', which SQLite and PostgreSQL store as this false.
    sa.Column("unreachable", sa.Boolean, nullable=False, server_default=sa.false()),
    # The client seed chosen with /seed and when: it counts only for a challenge posted before.
    sa.Column("next_seed", sa.String(256)),
    sa.Column("next_seed_at", UtcDateTime),
    # The bot's own account on a platform (it plays matches against people).
    sa.Column("is_bot", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.UniqueConstraint("platform", "platform_user_id", name="uq_users_platform_user"),
)

chats = sa.Table(
    "chats",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("platform", sa.String(16), nullable=False),
    sa.Column("platform_chat_id", sa.String(64), nullable=False),
    sa.Column("locale", sa.String(16)),
    sa.Column("settings", sa.JSON, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.UniqueConstraint("platform", "platform_chat_id", name="uq_chats_platform_chat"),
)

challenges = sa.Table(
    "challenges",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("chat_id", sa.ForeignKey("chats.id"), nullable=False),
    sa.Column("challenger_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("challenged_id", sa.ForeignKey("users.id")),  # NULL: open to anyone in the chat
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("move_time_limit", sa.Integer),  # seconds; NULL: no limit
    sa.Column("state", sa.String(16), nullable=False),
    sa.Column("expires_at", UtcDateTime, nullable=False),
    sa.Column("message_ref", sa.String(128)),
    sa.Column("match_id", sa.ForeignKey("matches.id")),
    sa.Column("created_at", UtcDateTime, nullable=False),
    # The server seed is drawn when the challenge is made and its SHA-256 is published with it,
    # before any client seed is fixed (NULL only in challenges made before this was so).
    sa.Column("dice_commitment", sa.String(64)),
    sa.Column("server_seed", sa.String(64)),  # secret until the match it starts has ended
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),  # both agree
    # The ``unrated`` option turns this off: the match then changes nobody's rating.
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()),
    # The platform's id of the message that made the challenge: made once, whatever repeats.
    sa.Column("event_id", sa.String(128)),
    # A challenge to the bot (``/play``, ``/challenge @bot``, [Rematch] against it): the level
    # it plays at. NULL: a challenge between people.
    sa.Column("bot_level", sa.String(16)),
    sa.Index("ix_challenges_chat_state", "chat_id", "state"),
    sa.Index("ux_challenges_event", "chat_id", "event_id", unique=True),
    sa.Index("ix_challenges_challenger_state", "challenger_id", "state"),
    sa.Index("ix_challenges_chat_target_state", "chat_id", "challenged_id", "state"),
    sa.Index("ix_challenges_state_expires", "state", "expires_at"),
)

matches = sa.Table(
    "matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("chat_id", sa.ForeignKey("chats.id"), nullable=False),
    sa.Column("player0_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("player1_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("variant", sa.String(16), nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # active | finished | abandoned | expired
    sa.Column("version", sa.Integer, nullable=False),  # events in the log
    sa.Column("snapshot", sa.JSON),
    sa.Column("snapshot_version", sa.Integer),
    sa.Column("turn_user_id", sa.ForeignKey("users.id")),  # who must act now
    sa.Column("dice_commitment", sa.String(64), nullable=False),
    sa.Column("server_seed", sa.String(64), nullable=False),  # secret until the match ends
    sa.Column("client_seed0", sa.String(256), nullable=False),
    sa.Column("client_seed1", sa.String(256), nullable=False),
    sa.Column("move_time_limit", sa.Integer),
    sa.Column("deadline", UtcDateTime),
    sa.Column("board_messages", sa.JSON, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("updated_at", UtcDateTime, nullable=False),
    sa.Column("finished_at", UtcDateTime),
    # The bot's level when one player is the bot (it has no seat: see match_seats).
    sa.Column("bot_level", sa.String(16)),
    sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.true()),  # see challenges
    # The unguessable part of the match's web addresses (/m/<slug>): 128 random bits.
    sa.Column("slug", sa.String(32)),
    # A match clock (rules "clock"; NULL without): each seat's reserve left in ms, the seat whose
    # period runs, since when, and when it runs out (see storage.match.clock_columns).
    sa.Column("clock_reserve0", sa.Integer),
    sa.Column("clock_reserve1", sa.Integer),
    sa.Column("clock_running", sa.Integer),
    sa.Column("clock_started_at", UtcDateTime),
    sa.Column("clock_deadline", UtcDateTime),
    sa.Index("ux_matches_slug", "slug", unique=True),
    sa.Index("ix_matches_status_clock", "status", "clock_deadline"),
    sa.Index("ix_matches_chat_status", "chat_id", "status"),
    sa.Index("ix_matches_player0_status", "player0_id", "status"),
    sa.Index("ix_matches_player1_status", "player1_id", "status"),
    sa.Index("ix_matches_status_deadline", "status", "deadline"),
)

match_events = sa.Table(
    "match_events",
    metadata,
    sa.Column("match_id", sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("actor_id", sa.ForeignKey("users.id")),  # NULL: the dice or the bot itself
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    # The platform's id of the message or press that made this action (its first event
    # only): the same update handled twice (a process died between writing its effect and
    # marking it handled, and another took it over) cannot apply its action twice.
    sa.Column("event_id", sa.String(128)),
    sa.Index("ux_match_events_event", "match_id", "event_id", unique=True),
)

# Who plays an active match where: one row per player of every active match, written in the
# transaction that starts the match and deleted in the one that ends it. The primary key makes
# a second active match for the same player in the same chat impossible, whatever races. The
# bot has no seats: it plays any number of people in one chat at once.
match_seats = sa.Table(
    "match_seats",
    metadata,
    sa.Column("chat_id", sa.ForeignKey("chats.id"), primary_key=True),
    sa.Column("user_id", sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("match_id", sa.ForeignKey("matches.id"), nullable=False),
    sa.Index("ix_match_seats_match", "match_id"),
)

# The platform message that currently fills a slot of a chat (e.g. ``board:12``), so an adapter
# can remove the old message's buttons when a new one is posted, also after a restart.
posted_messages = sa.Table(
    "posted_messages",
    metadata,
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("platform_chat_id", sa.String(64), primary_key=True),
    sa.Column("slot", sa.String(64), primary_key=True),
    sa.Column("message_id", sa.String(64), nullable=False),
    sa.Column("updated_at", UtcDateTime, nullable=False),
)

# The analysis of a finished match: ``pending`` until a worker claims it (``running``), then
# ``done`` with the result, ``failed`` with a reason, or ``skipped`` (matches that ended before
# analyses existed, and long nardy, which no engine analyses).
match_analyses = sa.Table(
    "match_analyses",
    metadata,
    sa.Column("match_id", sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("level", sa.String(16), nullable=False),
    sa.Column("result", sa.JSON),
    sa.Column("error", sa.String(256)),
    sa.Column("requested_at", UtcDateTime, nullable=False),
    sa.Column("finished_at", UtcDateTime),
    sa.Index("ix_match_analyses_status", "status"),
)

# Updates a platform pushed to the bot's webhook, kept from their arrival until handled, so that
# of several bot processes behind one webhook address exactly one handles each update: the
# platform sends an update again when its answer did not come in time (maybe to another
# process), and the one that stored it first handles it. An update whose process died before
# handling it (``handled_at`` still empty a while after ``claimed_at``) is claimed by another.
inbox_updates = sa.Table(
    "inbox_updates",
    metadata,
    sa.Column("platform", sa.String(16), primary_key=True),
    sa.Column("update_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("payload", sa.JSON, nullable=False),
    sa.Column("received_at", UtcDateTime, nullable=False),
    sa.Column("claimed_at", UtcDateTime, nullable=False),
    sa.Column("handled_at", UtcDateTime),
    sa.Index("ix_inbox_updates_unhandled", "handled_at", "claimed_at"),
)

# Ratings (FIBS formula, gammon/rating.py), one per player and game (``backgammon`` or
# ``nardy``): derived data, rebuilt from ``rated_matches`` by ``gammonbot ratings rebuild``.
ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("user_id", sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("game", sa.String(16), primary_key=True),
    sa.Column("rating", sa.Double, nullable=False),
    sa.Column("experience", sa.Integer, nullable=False),  # match points of rated matches
    sa.Column("updated_at", UtcDateTime, nullable=False),
    sa.Index("ix_ratings_game_rating", "game", "rating", "experience"),
)

# Every rated match in the order its rating change was applied (``id``), written in the
# transaction that finished the match: who won, the length, and both players' standings
# before and after, so that a rebuild can recompute every number and compare.
rated_matches = sa.Table(
    "rated_matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("match_id", sa.ForeignKey("matches.id"), nullable=False),
    sa.Column("chat_id", sa.ForeignKey("chats.id"), nullable=False),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("length", sa.Integer, nullable=False),
    sa.Column("winner_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("loser_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("winner_rating_before", sa.Double, nullable=False),
    sa.Column("winner_experience_before", sa.Integer, nullable=False),
    sa.Column("loser_rating_before", sa.Double, nullable=False),
    sa.Column("loser_experience_before", sa.Integer, nullable=False),
    sa.Column("winner_rating_after", sa.Double, nullable=False),
    sa.Column("loser_rating_after", sa.Double, nullable=False),
    sa.Column("finished_at", UtcDateTime, nullable=False),
    sa.UniqueConstraint("match_id", name="uq_rated_matches_match_id"),
    sa.Index("ix_rated_matches_winner", "winner_id", "game"),
    sa.Index("ix_rated_matches_loser", "loser_id", "game"),
)

# How many players of a game have a rating in each one-point band (``bucket``: the rating
# rounded down), counting those with enough experience for the leaderboards: a player's place
# is the players in the bands above plus the few in their own, instead of a count over every
# rating. Kept by the same transaction that changes a rating.
rating_ladder = sa.Table(
    "rating_ladder",
    metadata,
    sa.Column("game", sa.String(16), primary_key=True),
    sa.Column("bucket", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("players", sa.Integer, nullable=False),
)

# Who has played a rated match in which chat, per game: the chat's leaderboard ranks these.
rated_players = sa.Table(
    "rated_players",
    metadata,
    sa.Column("chat_id", sa.ForeignKey("chats.id"), primary_key=True),
    sa.Column("game", sa.String(16), primary_key=True),
    sa.Column("user_id", sa.ForeignKey("users.id"), primary_key=True),
)

# Each player's result of every finished match (one row per person; the bot has none), written
# in the transaction that finished it: what ``/stats`` adds up without replaying any log.
player_results = sa.Table(
    "player_results",
    metadata,
    sa.Column("match_id", sa.ForeignKey("matches.id"), primary_key=True),
    sa.Column("user_id", sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("chat_id", sa.ForeignKey("chats.id"), nullable=False),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("opponent_id", sa.ForeignKey("users.id")),  # NULL: the bot
    sa.Column("bot_level", sa.String(16)),  # the bot's level when it was the opponent
    sa.Column("length", sa.Integer, nullable=False),  # 0: a money session
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("won", sa.Boolean),  # NULL: no winner (a money session, a drawn series)
    sa.Column("singles_won", sa.Integer, nullable=False),
    sa.Column("gammons_won", sa.Integer, nullable=False),  # long nardy: mars
    sa.Column("backgammons_won", sa.Integer, nullable=False),
    sa.Column("games_lost", sa.Integer, nullable=False),
    sa.Column("doubles_offered", sa.Integer, nullable=False),
    sa.Column("doubles_taken", sa.Integer, nullable=False),
    sa.Column("doubles_dropped", sa.Integer, nullable=False),
    sa.Column("finished_at", UtcDateTime, nullable=False),
    sa.Column("error_rate", sa.Double),  # from the match's analysis, once it is done
    sa.Index("ix_player_results_user", "user_id", "game", "finished_at"),
    sa.Index("ix_player_results_chat_user", "chat_id", "user_id", "game"),
)

# Chouette sessions (gammon/chouette): one row per session, from the /chouette that opened it
# (``event_id``, once per chat) to its end. ``status`` is ``open`` while no game runs (players
# join and leave), ``playing`` during a game, ``ended`` at the end. ``seats`` is the rotation
# order as a list of user ids (box first once seated by dice). ``version`` counts every
# change, checked and bumped by each write as for matches. One server seed for the whole
# session, committed to when it opens and secret until it has ended; ``dice_nonce`` is the
# next unused dice event of the session, across its games (``game_nonce``: the first of the
# game being played), so that one commitment covers every roll. ``game_over_at`` is when the
# running game's last action was written, from then until its points are (the clock settles
# a game that a stopped process left unsettled).
chouettes = sa.Table(
    "chouettes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("chat_id", sa.ForeignKey("chats.id"), nullable=False),
    sa.Column("host_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),  # open | playing | ended
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("game_number", sa.Integer, nullable=False),  # being played, or the next one
    sa.Column("dice_nonce", sa.Integer, nullable=False),
    sa.Column("game_nonce", sa.Integer, nullable=False),
    sa.Column("dice_commitment", sa.String(64), nullable=False),
    sa.Column("server_seed", sa.String(64), nullable=False),  # secret until the session ends
    sa.Column("client_seed", sa.String(256)),  # fixed once, before the first roll
    sa.Column("move_time_limit", sa.Integer),  # seconds; NULL: no limit
    sa.Column("deadline", UtcDateTime),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("updated_at", UtcDateTime, nullable=False),
    sa.Column("ended_at", UtcDateTime),
    sa.Column("event_id", sa.String(128)),  # the platform's id of the /chouette that opened it
    sa.Column("game_over_at", UtcDateTime),  # the game is over, its points not yet written
    # The dice events that seated the players at the first game ([[die, die], ...] from nonce
    # 0; only each event's first die counts): NULL before it, and in sessions older than 0014.
    sa.Column("seating_rolls", sa.JSON),
    sa.Index("ux_chouettes_event", "chat_id", "event_id", unique=True),
    sa.Index("ix_chouettes_status_deadline", "status", "deadline"),
    sa.Index("ix_chouettes_status_game_over", "status", "game_over_at"),
)

# The chouette of a chat that has not ended: one row per chat, written in the transaction that
# opens the session and deleted in the one that ends it. The primary key makes a second
# chouette in the same chat impossible, whatever races (as ``match_seats`` does for matches).
open_chouettes = sa.Table(
    "open_chouettes",
    metadata,
    sa.Column("chat_id", sa.ForeignKey("chats.id"), primary_key=True),
    sa.Column("chouette_id", sa.ForeignKey("chouettes.id"), nullable=False),
    sa.Index("ux_open_chouettes_chouette", "chouette_id", unique=True),
)

# A chouette's event log: the actions of every game (``gammon.chouette.codec``), the truth the
# current game is replayed from. ``seq`` is the session's version the action was written at.
# ``player_id`` is the user whose command it was, and ``event_id`` the platform's id of it
# (the first event of an append only), unique per session: an update handled twice cannot
# apply its action twice.
chouette_events = sa.Table(
    "chouette_events",
    metadata,
    sa.Column("chouette_id", sa.ForeignKey("chouettes.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("game_number", sa.Integer, nullable=False),
    sa.Column("player_id", sa.ForeignKey("users.id")),  # NULL: recorded by itself
    sa.Column("action", sa.JSON, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("event_id", sa.String(128)),
    sa.Index("ux_chouette_events_event", "chouette_id", "event_id", unique=True),
    sa.Index("ix_chouette_events_game", "chouette_id", "game_number", "seq"),
)

# Each finished game of a chouette, written in the transaction that finished it: the points
# each player won or lost (``{"<user id>": points}``, summing to zero) for the scoreboard, and
# the game's first dice event and its seating order, for anyone checking the rolls once the
# seed is revealed.
chouette_games = sa.Table(
    "chouette_games",
    metadata,
    sa.Column("chouette_id", sa.ForeignKey("chouettes.id"), primary_key=True),
    sa.Column("game_number", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("points", sa.JSON, nullable=False),
    sa.Column("first_nonce", sa.Integer, nullable=False),
    sa.Column("ended_at", UtcDateTime, nullable=False),
    sa.Column("seats", sa.JSON),  # the game's order: box, captain, the line (NULL before 0014)
)

# Who asked to join or leave a chouette while a game was being played: one row per player
# (a second request of the same kind is a no-op, the other kind cancels the first), written
# while the session's row is held (no new version), so requests made at once by any number
# of processes all survive and a join is counted against every request before it (at most
# eight seated when the game ends). :meth:`storage.ChouetteRepository.finish_game` seats them
# and deletes the rows it read, in the transaction that closes the game.
chouette_requests = sa.Table(
    "chouette_requests",
    metadata,
    sa.Column("chouette_id", sa.ForeignKey("chouettes.id"), primary_key=True),
    sa.Column("user_id", sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),  # join or leave
    sa.Column("created_at", UtcDateTime, nullable=False),
)

# The last reminder the clock sent for a chouette (issue 21's move time limit): the version
# it was sent at and its stage (half time, last hour, time up). Written in the transaction
# that first writes the session's row onto itself, so of several processes' clocks one sends
# each reminder, as ``board_messages["reminded"]`` does for matches.
chouette_reminders = sa.Table(
    "chouette_reminders",
    metadata,
    sa.Column("chouette_id", sa.ForeignKey("chouettes.id"), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("stage", sa.Integer, nullable=False),
)

# A tournament or a league season in a chat (gammon.tournament derives its pairings and table
# from its entrants and results; nothing of that state is stored as such). ``format`` names
# the format and its options, ``lengths`` the match length by stage and bracket, ``rules``
# the matches' rules other than the length. Random seeding commits to ``server_seed`` when
# the tournament opens (``seed_commitment`` is posted) and reveals it at the start.
tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("chat_id", sa.ForeignKey("chats.id"), nullable=False),
    sa.Column("organiser_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("slug", sa.String(32), nullable=False),  # /t/<slug>: 128 random bits
    sa.Column("format", sa.JSON, nullable=False),
    sa.Column("lengths", sa.JSON, nullable=False),
    sa.Column("rules", sa.JSON, nullable=False),
    sa.Column("move_time_limit", sa.Integer),  # seconds; NULL: none
    sa.Column("match_days", sa.Integer),  # days a match may take; NULL: no deadline
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("seeding", sa.String(16), nullable=False),  # rating | random
    sa.Column("seed_commitment", sa.String(64), nullable=False),
    sa.Column("server_seed", sa.String(64), nullable=False),  # secret until the start
    sa.Column("status", sa.String(16), nullable=False),  # open | running | paused | ...
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("closes_at", UtcDateTime),  # registration closes
    sa.Column("created_at", UtcDateTime, nullable=False),
    sa.Column("started_at", UtcDateTime),
    sa.Column("finished_at", UtcDateTime),
    sa.Column("winner_id", sa.ForeignKey("users.id")),
    sa.Column("league_id", sa.ForeignKey("leagues.id")),  # a league's season
    sa.Column("season", sa.Integer),
    sa.Index("ux_tournaments_slug", "slug", unique=True),
    sa.Index("ix_tournaments_chat_status", "chat_id", "status"),
    sa.Index("ux_tournaments_league_season", "league_id", "season", unique=True),
)

# A league: seasons of round-robin divisions in one chat, with promotion and relegation.
leagues = sa.Table(
    "leagues",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("chat_id", sa.ForeignKey("chats.id"), nullable=False),
    sa.Column("organiser_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("promoted", sa.Integer, nullable=False),
    sa.Column("relegated", sa.Integer, nullable=False),
    sa.Column("created_at", UtcDateTime, nullable=False),
)

# Who plays in a tournament: ``seed`` (1 = strongest) is fixed at the start; ``division`` for
# a league season; a withdrawn player's remaining matches are walkovers.
tournament_entrants = sa.Table(
    "tournament_entrants",
    metadata,
    sa.Column("tournament_id", sa.ForeignKey("tournaments.id"), primary_key=True),
    sa.Column("user_id", sa.ForeignKey("users.id"), primary_key=True),
    sa.Column("seed", sa.Integer),
    sa.Column("division", sa.Integer),
    sa.Column("joined_at", UtcDateTime, nullable=False),
    sa.Column("withdrawn_at", UtcDateTime),
    sa.Index("ux_tournament_entrants_seed", "tournament_id", "seed", unique=True),
)

# A tournament's matches by their slot in its structure (gammon.tournament.Slot.key): a row is
# written in the transaction that makes the pairing known (the start, or the end of the
# match that decides a player), so the unique slot refuses a second pairing of one slot
# whatever races; ``match_id`` is set in the transaction that starts the match (unique: one
# match per slot); the result in the transaction that ends it.
tournament_matches = sa.Table(
    "tournament_matches",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),  # what a pairing's [Start] button names
    sa.Column("tournament_id", sa.ForeignKey("tournaments.id"), nullable=False),
    sa.Column("slot", sa.String(32), nullable=False),
    sa.Column("player0_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("player1_id", sa.ForeignKey("users.id"), nullable=False),
    sa.Column("length", sa.Integer, nullable=False),
    sa.Column("match_id", sa.ForeignKey("matches.id")),
    sa.Column("paired_at", UtcDateTime, nullable=False),
    sa.Column("deadline", UtcDateTime),
    sa.Column("winner_id", sa.ForeignKey("users.id")),
    sa.Column("loser_id", sa.ForeignKey("users.id")),
    sa.Column("winner_points", sa.Integer),
    sa.Column("loser_points", sa.Integer),
    sa.Column("walkover", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("finished_at", UtcDateTime),
    # Announced (by one process: the first to set it) with the commitment to the match's
    # server seed, drawn then; the players' [Start] fixes the client seeds and starts it.
    sa.Column("announced_at", UtcDateTime),
    sa.Column("dice_commitment", sa.String(64)),
    sa.Column("server_seed", sa.String(64)),  # secret until the match ends
    # The clock said, once, that the pairing's deadline passed (who may claim, or that the
    # organiser decides).
    sa.Column("overdue_at", UtcDateTime),
    # The thread (a chat of its own: a Discord thread, a Telegram forum topic) opened for the
    # pairing when it was announced, where its [Start] and its match are; NULL: none, the
    # tournament's chat.
    sa.Column("thread_chat_id", sa.ForeignKey("chats.id")),
    sa.Index("ux_tournament_matches_slot", "tournament_id", "slot", unique=True),
    sa.Index("ux_tournament_matches_match", "match_id", unique=True),
)

# The secret every process of the bot signs the board page's player keys with
# (bot/core/page_access): one row, drawn at random by the first process that needs it.
page_secret = sa.Table(
    "page_secret",
    metadata,
    sa.Column("id", sa.SmallInteger, primary_key=True, autoincrement=False),
    sa.Column("secret", sa.LargeBinary, nullable=False),
    sa.CheckConstraint("id = 1", name="ck_page_secret_one_row"),
)
