"""What a match's end writes besides its last events, inside the same transaction: each
person's result (for ``/stats``) and, for a rated match, the rating changes.

Rated: a finished match of a set length between two people that was not offered as unrated
and has a winner (resignations, dropped doubles and time forfeits included). Money sessions,
unrated matches and matches against the bot are not; the bot's matches still give its human
opponent a result row naming the bot's level.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, RowMapping

from gammon.actions import action_from_dict
from gammon.flow import MatchState
from storage.player_results import record_results
from storage.ratings import rate_match
from storage.schema import match_events, users


def record_match_end(
    connection: Connection, match: RowMapping, state: MatchState, moment: datetime
) -> None:
    """``match`` is the finished match's row as the append returned it."""
    players: tuple[int, int] = (match["player0_id"], match["player1_id"])
    bots = set(
        connection.execute(
            sa.select(users.c.id).where(users.c.id.in_(players), users.c.is_bot)
        ).scalars()
    )
    seats = tuple(None if player in bots else player for player in players)
    actions = [
        action_from_dict(action)
        for action in connection.execute(
            sa.select(match_events.c.action)
            .where(match_events.c.match_id == match["id"])
            .order_by(match_events.c.seq)
        ).scalars()
    ]
    rated = bool(match["rated"]) and not bots and state.rules.length > 0
    record_results(
        connection,
        match_id=match["id"],
        chat_id=match["chat_id"],
        state=state,
        actions=actions,
        seats=(seats[0], seats[1]),
        bot_level=match["bot_level"],
        rated=rated,
        moment=moment,
    )
    winner = state.winner
    if rated and winner is not None:
        rate_match(
            connection,
            match_id=match["id"],
            chat_id=match["chat_id"],
            variant=state.variant,
            length=state.rules.length,
            winner_id=players[winner],
            loser_id=players[1 - winner],
            moment=moment,
        )
