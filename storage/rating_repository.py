"""Ratings as the players see them: a player's standing, a rated match's change, the
leaderboards, and the rebuild that recomputes every rating from the rated matches in order
(with the rating rule its caller hands over: storage imports none).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import sqlalchemy as sa

from gammon.standing import Standing
from storage.database import Database, using_database
from storage.direct import DirectConnection
from storage.ratings import (
    LEADERBOARD_EXPERIENCE,
    RatedMatch,
    bucket,
    ladder_counts,
    rated_match_from_row,
)
from storage.schema import rated_matches, rated_players, rating_ladder, ratings, users

REBUILD_BATCH = 10_000  # rated matches read per round trip while rebuilding


class Rated(Protocol):
    """Both players' standings after a rated match, as the rating rule gives them."""

    @property
    def winner(self) -> Standing: ...

    @property
    def loser(self) -> Standing: ...


# The rating rule: the winner's and the loser's standing before a match of this length, to
# their standings after it (:func:`gammon.rating.rate`).
RatingRule = Callable[[Standing, Standing, int], Rated]


@dataclass(frozen=True)
class Ranked:
    """A line of a leaderboard."""

    rank: int
    user_id: int
    display_name: str
    rating: float
    experience: int


@dataclass
class RebuildReport:
    """What ``rebuild`` found: rated matches replayed, and the numbers that differed from the
    stored ones (rated matches and players' ratings), with the first few described."""

    matches: int = 0
    players: int = 0
    differing_matches: int = 0
    differing_players: int = 0
    differing_ladder: int = 0  # bands of the ladder whose count differs
    examples: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return not (self.differing_matches or self.differing_players or self.differing_ladder)

    def note(self, text: str) -> None:
        if len(self.examples) < 10:
            self.examples.append(text)


def _ordered_board(game: str, minimum_experience: int) -> tuple[sa.ColumnElement[bool], ...]:
    return (ratings.c.game == game, ratings.c.experience >= minimum_experience)


class RatingRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def standing(self, user_id: int, game: str) -> Standing:
        """The player's rating and experience; the start values for one who never played."""
        row = (
            await self.engine.read(
                sa.select(ratings.c.rating, ratings.c.experience).where(
                    ratings.c.user_id == user_id, ratings.c.game == game
                )
            )
        ).first()
        return Standing() if row is None else Standing(row.rating, row.experience)

    async def rated_match(self, match_id: int) -> RatedMatch | None:
        """How ``match_id`` changed its players' ratings; None if it was not rated."""
        row = (
            await self.engine.read(
                sa.select(rated_matches).where(rated_matches.c.match_id == match_id)
            )
        ).first()
        return None if row is None else rated_match_from_row(row._mapping)

    async def top(
        self, game: str, minimum_experience: int, limit: int = 10, chat_id: int | None = None
    ) -> list[Ranked]:
        """The best ``limit`` players by rating (ties: more experience first, then the older
        account), of the whole bot or of those who played a rated match in ``chat_id``."""
        if chat_id is not None:
            return (await self._chat_board(game, minimum_experience, chat_id))[:limit]
        query = (
            sa.select(
                ratings.c.user_id, users.c.display_name, ratings.c.rating, ratings.c.experience
            )
            .join(users, users.c.id == ratings.c.user_id)
            .where(*_ordered_board(game, minimum_experience))
            .order_by(ratings.c.rating.desc(), ratings.c.experience.desc(), ratings.c.user_id)
            .limit(limit)
        )
        return _ranked(await self.engine.read(query))

    async def leaderboard(
        self,
        user_id: int,
        game: str,
        minimum_experience: int,
        limit: int = 10,
        chat_id: int | None = None,
    ) -> tuple[list[Ranked], int | None]:
        """:meth:`top` and the asking player's :meth:`rank` on it, a chat's board read once."""
        if chat_id is None:
            return (
                await self.top(game, minimum_experience, limit),
                await self.rank(user_id, game, minimum_experience),
            )
        board = await self._chat_board(game, minimum_experience, chat_id)
        return board[:limit], _place(board, user_id)

    async def rank(
        self, user_id: int, game: str, minimum_experience: int, chat_id: int | None = None
    ) -> int | None:
        """The player's place on the same leaderboard as :meth:`top`; None while they are not
        on it (too little experience, or no rated match in the chat)."""
        if chat_id is not None:
            return _place(await self._chat_board(game, minimum_experience, chat_id), user_id)
        own = await self.engine.read(
            sa.select(ratings.c.rating, ratings.c.experience).where(
                ratings.c.user_id == user_id, *_ordered_board(game, minimum_experience)
            )
        )
        mine = own.first()
        if mine is None:
            return None
        ahead = sa.or_(
            ratings.c.rating > mine.rating,
            sa.and_(
                ratings.c.rating == mine.rating,
                sa.or_(
                    ratings.c.experience > mine.experience,
                    sa.and_(ratings.c.experience == mine.experience, ratings.c.user_id < user_id),
                ),
            ),
        )
        if minimum_experience != LEADERBOARD_EXPERIENCE:
            query = (
                sa.select(sa.func.count())
                .select_from(ratings)
                .where(*_ordered_board(game, minimum_experience), ahead)
            )
            return int((await self.engine.read(query)).scalar()) + 1
        # The ladder: the players in the bands above, then those ahead in the player's own.
        band = bucket(mine.rating)
        above = sa.select(sa.func.coalesce(sa.func.sum(rating_ladder.c.players), 0)).where(
            rating_ladder.c.game == game, rating_ladder.c.bucket > band
        )
        same = (
            sa.select(sa.func.count())
            .select_from(ratings)
            .where(
                *_ordered_board(game, minimum_experience),
                ratings.c.rating >= band,
                ratings.c.rating < band + 1,
                ahead,
            )
        )
        higher, level = await self.engine.read_many((above, None), (same, None))
        return int(higher.scalar()) + int(level.scalar()) + 1

    async def _chat_board(self, game: str, minimum_experience: int, chat_id: int) -> list[Ranked]:
        """Everyone on the chat's leaderboard, in order. Read from the chat's players (a few
        hundred rows at most) and ordered here: ordering the whole ratings table and keeping
        the chat's players was hundreds of times slower with many players
        (docs/benchmarks.md)."""
        rows = await self.engine.read(
            sa.select(
                ratings.c.user_id, users.c.display_name, ratings.c.rating, ratings.c.experience
            )
            .select_from(rated_players)
            .join(
                ratings,
                sa.and_(
                    ratings.c.user_id == rated_players.c.user_id,
                    ratings.c.game == rated_players.c.game,
                ),
            )
            .join(users, users.c.id == ratings.c.user_id)
            .where(
                rated_players.c.chat_id == chat_id,
                rated_players.c.game == game,
                ratings.c.experience >= minimum_experience,
            )
        )
        return _ranked(sorted(rows, key=lambda row: (-row.rating, -row.experience, row.user_id)))

    async def rebuild(self, rate: RatingRule, write: bool = False) -> RebuildReport:
        """Recompute every rating with ``rate`` from the rated matches in the order they were
        rated, and compare with what is stored: every match's numbers and every player's
        rating. With ``write`` the recomputed numbers replace any that differ."""
        return await self.engine.write(lambda connection: _rebuild(connection, rate, write))


def _ranked(rows: Iterable[Any]) -> list[Ranked]:
    """Rows of (user id, name, rating, experience), best first, as leaderboard lines."""
    return [
        Ranked(number, row.user_id, row.display_name, row.rating, row.experience)
        for number, row in enumerate(rows, start=1)
    ]


def _place(board: list[Ranked], user_id: int) -> int | None:
    return next((line.rank for line in board if line.user_id == user_id), None)


def _batches(connection: DirectConnection) -> Iterator[list[RatedMatch]]:
    last = 0
    while True:
        rows = connection.execute(
            sa.select(rated_matches)
            .where(rated_matches.c.id > last)
            .order_by(rated_matches.c.id)
            .limit(REBUILD_BATCH)
        ).all()
        if not rows:
            return
        last = rows[-1].id
        yield [rated_match_from_row(row._mapping) for row in rows]


def _rebuild(connection: DirectConnection, rate: RatingRule, write: bool) -> RebuildReport:
    report = RebuildReport()
    standings: dict[tuple[int, str], Standing] = {}
    for batch in _batches(connection):
        for stored in batch:
            report.matches += 1
            winner_key, loser_key = (stored.winner_id, stored.game), (stored.loser_id, stored.game)
            winner = standings.get(winner_key, Standing())
            loser = standings.get(loser_key, Standing())
            change = rate(winner, loser, stored.length)
            standings[winner_key], standings[loser_key] = change.winner, change.loser
            recomputed = (winner, loser, change.winner, change.loser)
            if recomputed != (
                stored.winner_before,
                stored.loser_before,
                stored.winner_after,
                stored.loser_after,
            ):
                report.differing_matches += 1
                report.note(f"match {stored.match_id}: stored {stored}, recomputed {recomputed}")
                if write:
                    _rewrite_match(connection, stored.match_id, recomputed)
    _compare_players(connection, standings, report, write)
    _compare_ladder(connection, standings, report, write)
    return report


def _rewrite_match(
    connection: DirectConnection,
    match_id: int,
    standings: tuple[Standing, Standing, Standing, Standing],
) -> None:
    winner, loser, winner_after, loser_after = standings
    connection.execute(
        sa.update(rated_matches)
        .where(rated_matches.c.match_id == match_id)
        .values(
            winner_rating_before=winner.rating,
            winner_experience_before=winner.experience,
            loser_rating_before=loser.rating,
            loser_experience_before=loser.experience,
            winner_rating_after=winner_after.rating,
            loser_rating_after=loser_after.rating,
        )
    )


def _compare_players(
    connection: DirectConnection,
    standings: dict[tuple[int, str], Standing],
    report: RebuildReport,
    write: bool,
) -> None:
    stored = {
        (row.user_id, row.game): Standing(row.rating, row.experience)
        for row in connection.execute(
            sa.select(ratings.c.user_id, ratings.c.game, ratings.c.rating, ratings.c.experience)
        )
    }
    report.players = len(standings)
    moment = datetime.now(UTC)
    for key in stored.keys() | standings.keys():
        expected = standings.get(key, Standing())
        if stored.get(key, Standing()) == expected:
            continue
        report.differing_players += 1
        report.note(f"user {key[0]} {key[1]}: stored {stored.get(key)}, recomputed {expected}")
        if write:
            user_id, game = key
            if key not in stored:
                connection.execute(
                    sa.insert(ratings).values(
                        user_id=user_id, game=game, rating=0.0, experience=0, updated_at=moment
                    )
                )
            connection.execute(
                sa.update(ratings)
                .where(ratings.c.user_id == user_id, ratings.c.game == game)
                .values(rating=expected.rating, experience=expected.experience)
            )


async def rebuild_ratings(url: str, rate: RatingRule, write: bool) -> RebuildReport:
    """:meth:`RatingRepository.rebuild` on the database at ``url`` (its schema brought up to
    date first), for ``gammonbot ratings rebuild``."""

    async def work(database: Database) -> RebuildReport:
        await database.migrate()
        return await RatingRepository(database).rebuild(rate, write)

    return await using_database(url, work)


def _compare_ladder(
    connection: DirectConnection,
    standings: dict[tuple[int, str], Standing],
    report: RebuildReport,
    write: bool,
) -> None:
    """The ladder's counts as the recomputed standings give them, against the stored ones."""
    expected = ladder_counts(standings)
    stored = Counter(
        {
            (row.game, row.bucket): row.players
            for row in connection.execute(sa.select(rating_ladder))
            if row.players
        }
    )
    if stored == expected:
        return
    report.differing_ladder = sum(
        1 for key in stored.keys() | expected.keys() if stored[key] != expected[key]
    )
    report.note(f"ladder: {report.differing_ladder} bands differ")
    if write:
        connection.execute(sa.delete(rating_ladder))
    if write and expected:
        connection.execute(
            sa.insert(rating_ladder),
            [
                {"game": game, "bucket": band, "players": count}
                for (game, band), count in expected.items()
            ],
        )
