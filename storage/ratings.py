"""Ratings: written in the transaction that finishes a rated match (the command layer's
handler of a match's end locks the standings, applies the rating rule and has the change
written here), read for the match end, ``/stats`` and ``/top``, and rebuilt from the rated
matches in order. Storage keeps the numbers; the rule (:mod:`gammon.rating`) is not imported
here.

A rated match's change is written with the match's final events, so a match is rated exactly
once and never without ending (or the other way round), whatever crashes or races. Both
players' rating rows are locked before they are read (an update that changes nothing, in the
order of their user ids, so two matches of the same player that end at once are rated one
after the other, never from the same old rating); the rated match's ``id`` records that order,
which is the order ``rebuild`` replays.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import RowMapping

from gammon.standing import Standing
from storage.direct import DirectConnection
from storage.schema import rated_matches, rated_players, rating_ladder, ratings

# Match points of rated matches before a player appears on the leaderboards (and the ladder).
LEADERBOARD_EXPERIENCE = 10


def bucket(rating: float) -> int:
    """The one-point band of the ladder a rating is in."""
    return math.floor(rating)


def ladder_moves(before: Standing, after: Standing) -> dict[int, int]:
    """How a player's rating change moves the ladder's counts: band -> change."""
    moves: dict[int, int] = {}
    if before.experience >= LEADERBOARD_EXPERIENCE:
        moves[bucket(before.rating)] = moves.get(bucket(before.rating), 0) - 1
    if after.experience >= LEADERBOARD_EXPERIENCE:
        moves[bucket(after.rating)] = moves.get(bucket(after.rating), 0) + 1
    return moves


def ladder_counts(standings: Mapping[tuple[int, str], Standing]) -> Counter[tuple[str, int]]:
    """The ladder the standings (by user id and game) make: players per game and band."""
    return Counter(
        (game, bucket(standing.rating))
        for (_, game), standing in standings.items()
        if standing.experience >= LEADERBOARD_EXPERIENCE
    )


def _move_on_ladder(connection: DirectConnection, game: str, moves: dict[int, int]) -> None:
    """Apply ``moves`` to the ladder, band by band in order (two transactions that touch the
    same bands lock them in the same order: no deadlock)."""
    changed = sorted((band, change) for band, change in moves.items() if change)
    if not changed:
        return
    _insert_ignoring_duplicates(
        connection,
        rating_ladder,
        [{"game": game, "bucket": band, "players": 0} for band, _ in changed],
    )
    for band, change in changed:
        connection.execute(
            sa.update(rating_ladder)
            .where(rating_ladder.c.game == game, rating_ladder.c.bucket == band)
            .values(players=rating_ladder.c.players + change)
        )


@dataclass(frozen=True)
class RatedMatch:
    """A rated match: who won, and both players' standings before and after."""

    match_id: int
    game: str
    length: int
    winner_id: int
    loser_id: int
    winner_before: Standing
    loser_before: Standing
    winner_after: Standing
    loser_after: Standing

    def after(self, user_id: int) -> Standing:
        return self.winner_after if user_id == self.winner_id else self.loser_after

    def change(self, user_id: int) -> float:
        if user_id == self.winner_id:
            return self.winner_after.rating - self.winner_before.rating
        return self.loser_after.rating - self.loser_before.rating


def _insert_ignoring_duplicates(
    connection: DirectConnection, table: sa.Table, rows: list[Any]
) -> None:
    """Insert ``rows``, skipping those whose key exists (one statement; the only place the two
    databases need their own spelling)."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    connection.execute(dialect.insert(table).on_conflict_do_nothing(), rows)


def locked_standings(
    connection: DirectConnection, user_ids: Iterable[int], game: str, moment: datetime
) -> dict[int, Standing]:
    """Each player's standing, their rating row created (at the start values) if new and
    locked until the transaction ends."""
    ordered = sorted(set(user_ids))
    _insert_ignoring_duplicates(
        connection,
        ratings,
        [
            {
                "user_id": user_id,
                "game": game,
                "rating": Standing().rating,
                "experience": 0,
                "updated_at": moment,
            }
            for user_id in ordered
        ],
    )
    standings = {}
    for user_id in ordered:
        row = connection.execute(
            sa.update(ratings)
            .where(ratings.c.user_id == user_id, ratings.c.game == game)
            .values(rating=ratings.c.rating)
            .returning(ratings.c.rating, ratings.c.experience)
        ).one()
        standings[user_id] = Standing(row.rating, row.experience)
    return standings


def _store_standing(
    connection: DirectConnection, user_id: int, game: str, standing: Standing, moment: datetime
) -> None:
    connection.execute(
        sa.update(ratings)
        .where(ratings.c.user_id == user_id, ratings.c.game == game)
        .values(rating=standing.rating, experience=standing.experience, updated_at=moment)
    )


def record_rating(
    connection: DirectConnection, rated: RatedMatch, chat_id: int, moment: datetime
) -> None:
    """Write a rated match's change inside the caller's transaction (the one that finishes
    it), whose standings :func:`locked_standings` read and locked: both players' new
    standings, the ladder's counts, the rated match and the players' place in the chat."""
    game, winner_id, loser_id = rated.game, rated.winner_id, rated.loser_id
    _store_standing(connection, winner_id, game, rated.winner_after, moment)
    _store_standing(connection, loser_id, game, rated.loser_after, moment)
    moves = ladder_moves(rated.winner_before, rated.winner_after)
    for band, moved in ladder_moves(rated.loser_before, rated.loser_after).items():
        moves[band] = moves.get(band, 0) + moved
    _move_on_ladder(connection, game, moves)
    connection.execute(
        sa.insert(rated_matches).values(
            match_id=rated.match_id,
            chat_id=chat_id,
            game=game,
            length=rated.length,
            winner_id=winner_id,
            loser_id=loser_id,
            winner_rating_before=rated.winner_before.rating,
            winner_experience_before=rated.winner_before.experience,
            loser_rating_before=rated.loser_before.rating,
            loser_experience_before=rated.loser_before.experience,
            winner_rating_after=rated.winner_after.rating,
            loser_rating_after=rated.loser_after.rating,
            finished_at=moment,
        )
    )
    _insert_ignoring_duplicates(
        connection,
        rated_players,
        [{"chat_id": chat_id, "game": game, "user_id": user} for user in (winner_id, loser_id)],
    )


def rated_match_from_row(row: RowMapping) -> RatedMatch:
    length = row["length"]
    return RatedMatch(
        match_id=row["match_id"],
        game=row["game"],
        length=length,
        winner_id=row["winner_id"],
        loser_id=row["loser_id"],
        winner_before=Standing(row["winner_rating_before"], row["winner_experience_before"]),
        loser_before=Standing(row["loser_rating_before"], row["loser_experience_before"]),
        winner_after=Standing(row["winner_rating_after"], row["winner_experience_before"] + length),
        loser_after=Standing(row["loser_rating_after"], row["loser_experience_before"] + length),
    )
