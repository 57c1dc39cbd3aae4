"""Ratings in the database: applied once per rated match, in order, read back for the
leaderboards, and rebuilt from the rated matches to exactly the stored numbers."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from bot.core.events import rate_match
from gammon.actions import ClaimWin, OpeningRoll
from gammon.match_rules import MatchRules
from gammon.rating import Standing, rate
from storage import Database, UserRepository
from storage.rating_repository import RatingRepository
from storage.ratings import LEADERBOARD_EXPERIENCE, RatedMatch
from storage.schema import player_results, rating_ladder, ratings
from storage.transaction import Transaction
from tests.storage.players import Table, append_action, open_table

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


async def _rate(
    database: Database, match_id: int, chat_id: int, winner: int, loser: int, length: int = 5
) -> RatedMatch:
    return await database.engine.write(
        lambda connection: rate_match(
            Transaction(connection, NOW),
            match_id=match_id,
            chat_id=chat_id,
            game="backgammon",
            length=length,
            winner_id=winner,
            loser_id=loser,
        )
    )


async def _players(table: Table, count: int) -> list[int]:
    users = UserRepository(table.database)
    return [(await users.upsert_user("telegram", f"p{n}", f"P{n}")).id for n in range(count)]


async def test_a_rated_match_moves_both_players_and_is_recorded(table: Table) -> None:
    anna, bob = table.player_ids
    match = await table.new_match()
    rated = await _rate(table.database, match.info.id, table.chat_id, anna, bob)
    repository = RatingRepository(table.database)
    assert rated.winner_after == Standing(pytest.approx(1522.3607, abs=1e-4), 5)  # type: ignore[arg-type]
    assert await repository.standing(anna, "backgammon") == rated.winner_after
    assert await repository.standing(bob, "backgammon") == rated.loser_after
    assert await repository.standing(anna, "nardy") == Standing()  # games rated apart
    assert await repository.rated_match(match.info.id) == rated
    assert rated.change(anna) == pytest.approx(22.3607, abs=1e-4)
    assert rated.change(bob) == pytest.approx(-22.3607, abs=1e-4)


async def test_a_match_is_rated_once(table: Table) -> None:
    anna, bob = table.player_ids
    match = await table.new_match()
    await _rate(table.database, match.info.id, table.chat_id, anna, bob)
    with pytest.raises(sa.exc.IntegrityError):
        await _rate(table.database, match.info.id, table.chat_id, anna, bob)
    standing = await RatingRepository(table.database).standing(anna, "backgammon")
    assert standing.experience == 5


async def test_matches_ending_at_once_in_two_processes_are_rated_one_after_the_other(
    migrated_url: str,
) -> None:
    """Anna finishes 10 matches against Bob through two Database objects (two processes) at
    once: no change is computed from a rating another has already replaced, and a rebuild
    gives exactly the stored numbers."""
    table = await open_table(migrated_url, migrate=False)
    other = Database(migrated_url)
    try:
        anna, bob = table.player_ids
        match_ids = [(await table.new_match()).info.id for _ in range(10)]
        await asyncio.gather(
            *(
                _rate(database, match_id, table.chat_id, anna, bob, length=3)
                for database, match_id in zip([table.database, other] * 5, match_ids, strict=True)
            )
        )
        repository = RatingRepository(table.database)
        assert (await repository.standing(anna, "backgammon")).experience == 30
        report = await repository.rebuild(rate)
        assert report.identical, report.examples
        assert (report.matches, report.players) == (10, 2)
    finally:
        await other.close()
        await table.database.close()


async def test_rebuild_finds_and_repairs_a_changed_rating(table: Table) -> None:
    anna, bob = table.player_ids
    for _ in range(3):
        match = await table.new_match()
        await _rate(table.database, match.info.id, table.chat_id, anna, bob)
    repository = RatingRepository(table.database)
    right = await repository.standing(bob, "backgammon")
    await table.database.engine.write(
        lambda connection: connection.execute(
            sa.update(ratings).where(ratings.c.user_id == bob).values(rating=2000.0)
        )
    )
    found = await repository.rebuild(rate)
    assert (found.differing_players, found.differing_matches) == (1, 0)
    repaired = await repository.rebuild(rate, write=True)
    assert repaired.differing_players == 1
    assert await repository.standing(bob, "backgammon") == right
    assert (await repository.rebuild(rate)).identical


async def test_the_leaderboard_orders_ties_by_experience_and_needs_experience(table: Table) -> None:
    users = await _players(table, 4)
    values = [(1600.0, 10), (1600.0, 40), (1700.0, 9), (1550.0, 400)]
    await table.database.engine.write(
        lambda connection: connection.execute(
            sa.insert(ratings),
            [
                {
                    "user_id": user,
                    "game": "backgammon",
                    "rating": rating,
                    "experience": experience,
                    "updated_at": NOW,
                }
                for user, (rating, experience) in zip(users, values, strict=True)
            ],
        )
    )
    # The ladder as rating changes keep it: the three with 10 points or more, by band.
    await table.database.engine.write(
        lambda connection: connection.execute(
            sa.insert(rating_ladder),
            [
                {"game": "backgammon", "bucket": 1600, "players": 2},
                {"game": "backgammon", "bucket": 1550, "players": 1},
            ],
        )
    )
    repository = RatingRepository(table.database)
    board = await repository.top("backgammon", minimum_experience=10)
    assert [line.user_id for line in board] == [users[1], users[0], users[3]]
    assert [line.rank for line in board] == [1, 2, 3]
    assert await repository.rank(users[0], "backgammon", 10) == 2
    assert await repository.rank(users[2], "backgammon", 10) is None  # 9 points: not yet
    assert await repository.top("nardy", minimum_experience=10) == []


async def test_a_chats_leaderboard_holds_who_played_rated_there(table: Table) -> None:
    anna, bob = table.player_ids
    carl, dora = await _players(table, 2)
    match = await table.new_match()
    await _rate(table.database, match.info.id, table.chat_id, anna, bob, length=11)
    elsewhere = await table.new_match()  # in a chat of its own
    await _rate(table.database, elsewhere.info.id, elsewhere.info.chat_id, carl, dora, length=11)
    repository = RatingRepository(table.database)
    here = await repository.top("backgammon", 10, chat_id=table.chat_id)
    assert [line.user_id for line in here] == [anna, bob]
    everywhere = await repository.top("backgammon", 10)
    assert {line.user_id for line in everywhere} == {anna, bob, carl, dora}
    assert await repository.rank(bob, "backgammon", 10, chat_id=table.chat_id) == 2
    assert await repository.rank(carl, "backgammon", 10, chat_id=table.chat_id) is None


async def _claimed(table: Table, rules: MatchRules) -> int:
    """A match of ``rules`` ended at once: after the opening roll, the player who waits
    claims it (a forfeit by time, as the clock allows it)."""
    match = await table.new_match(rules)
    opened = await append_action(table.matches, match.info.id, 0, OpeningRoll((3, 1)))
    waiting = 1 - opened.match.state.player_on_roll
    claimed = await append_action(
        table.matches,
        match.info.id,
        opened.match.info.version,
        ClaimWin(waiting),
        actor_id=table.player_ids[waiting],
    )
    assert claimed.match.info.status == "finished"
    return match.info.id


async def test_a_forfeit_in_a_match_is_rated_a_money_session_is_not(table: Table) -> None:
    repository = RatingRepository(table.database)
    rated = await _claimed(table, MatchRules(length=5))
    change = await repository.rated_match(rated)
    assert change is not None
    assert change.length == 5
    money = await _claimed(table, MatchRules(length=0))
    assert await repository.rated_match(money) is None
    rows = await table.database.engine.read(
        sa.select(player_results.c.rated, player_results.c.won).where(
            player_results.c.match_id == money
        )
    )
    assert [tuple(row) for row in rows] == [(False, None), (False, None)]


async def test_places_from_the_ladder_are_the_places_of_a_full_sort(table: Table) -> None:
    """Forty rated matches among eight players, then every player's place against the order
    of all ratings sorted here; and a rebuild finds the ladder right, or repairs it."""
    players = await _players(table, 8)
    rng = random.Random(4)
    for _ in range(40):
        winner, loser = rng.sample(players, 2)
        match = await table.new_match()
        length = rng.choice((1, 3, 5))
        await _rate(table.database, match.info.id, table.chat_id, winner, loser, length)
    repository = RatingRepository(table.database)
    rows = await table.database.engine.read(sa.select(ratings))
    board = sorted(
        (row for row in rows if row.experience >= LEADERBOARD_EXPERIENCE),
        key=lambda row: (-row.rating, -row.experience, row.user_id),
    )
    assert len(board) >= 5
    for place, row in enumerate(board, start=1):
        assert await repository.rank(row.user_id, "backgammon", LEADERBOARD_EXPERIENCE) == place
    assert (await repository.rebuild(rate)).identical
    await table.database.engine.write(
        lambda connection: connection.execute(
            sa.update(rating_ladder).values(players=rating_ladder.c.players + 1)
        )
    )
    broken = await repository.rebuild(rate, write=True)
    assert broken.differing_ladder > 0
    assert (await repository.rebuild(rate)).identical
