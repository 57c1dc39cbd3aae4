"""Two processes on one database at the same moment (two Database objects, each with its own
connections): whatever one process used to settle with SQLite's single writer is settled by
the database, on SQLite and on PostgreSQL under READ COMMITTED."""

from __future__ import annotations

import asyncio
import os
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from gammon.actions import Move, OpeningRoll
from gammon.flow import replay
from gammon.match_rules import MatchRules
from storage import (
    AnalysisRepository,
    ChallengeLimitError,
    ChallengeLimits,
    ChallengeRepository,
    ChatRepository,
    ConflictError,
    Database,
    MatchRepository,
    PostedMessageRepository,
    SeatTakenError,
    SecretSeed,
    UserRepository,
)
from storage.schema import challenges, match_analyses, matches
from tests.storage.pauses import pause_after_first_statement
from tests.storage.players import append_action

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)


async def _people(database: Database, count: int) -> tuple[int, list[int]]:
    """A chat and ``count`` users in it."""
    chat = await ChatRepository(database).upsert_chat("telegram", "-500")
    users = UserRepository(database)
    ids = [(await users.upsert_user("telegram", str(1001 + n), f"P{n}")).id for n in range(count)]
    return chat.id, ids


async def _new_match(database: Database, length: int) -> int:
    """A match between two new players, started: its id."""
    chat_id, (anna, bob) = await _people(database, 2)
    started = await MatchRepository(database).start_match(
        chat_id=chat_id,
        player_ids=(anna, bob),
        rules=MatchRules(length=length),
        client_seeds=("a", "b"),
        seed=SecretSeed(bytes(32)),
    )
    return started.match.info.id


async def _open_challenges(database: Database) -> int:
    found = await database.engine.read(
        sa.select(sa.func.count()).select_from(challenges).where(challenges.c.state == "open")
    )
    return int(found.scalar())


async def _challenge(
    repository: ChallengeRepository, chat_id: int, user_id: int, limits: ChallengeLimits
) -> bool:
    try:
        await repository.create_challenge(
            chat_id=chat_id,
            challenger_id=user_id,
            challenged_id=None,
            rules=MatchRules(length=3),
            move_time_limit=None,
            now=NOW,
            limits=limits,
        )
    except ChallengeLimitError:
        return False
    return True


async def test_a_challenge_made_while_another_is_uncommitted_counts_it(
    databases: tuple[Database, Database],
) -> None:
    """The first process stalls right after inserting the challenger's only allowed challenge;
    the second must wait for it and then be refused, not count without it and pass."""
    first, second = databases
    chat_id, (anna,) = await _people(first, 1)
    limits = ChallengeLimits(per_user=1)
    paused = pause_after_first_statement(first, "INSERT INTO challenges")
    slow = asyncio.create_task(_challenge(ChallengeRepository(first), chat_id, anna, limits))
    assert await asyncio.to_thread(paused.wait, 5)
    assert await _challenge(ChallengeRepository(second), chat_id, anna, limits) is False
    assert await slow is True
    assert await _open_challenges(first) == 1


async def test_challenges_made_at_once_keep_both_limits(
    databases: tuple[Database, Database],
) -> None:
    first, second = databases
    chat_id, people = await _people(first, 4)
    repositories = (ChallengeRepository(first), ChallengeRepository(second))
    limits = ChallengeLimits(per_user=3, per_chat=7)
    made = await asyncio.gather(
        *(
            _challenge(repositories[n % 2], chat_id, people[n % 4], limits)
            for n in range(24)  # six tries for each of four users, from both processes
        )
    )
    assert made.count(True) == 7
    assert await _open_challenges(first) == 7


async def test_replacements_of_one_slot_at_once_form_one_chain(
    databases: tuple[Database, Database],
) -> None:
    """Each replacement is answered the message it replaced: every message is replaced
    exactly once, but the last, which fills the slot; the first replaced nothing."""
    repositories = [PostedMessageRepository(database) for database in databases]
    messages = [f"m{n}" for n in range(16)]
    answers = await asyncio.gather(
        *(
            repositories[n % 2].replace("telegram", "-500", "board:1", message)
            for n, message in enumerate(messages)
        )
    )
    assert answers.count(None) == 1
    current = await repositories[0].current("telegram", "-500", "board:1")
    replaced = [answer for answer in answers if answer is not None]
    assert sorted([*replaced, current]) == sorted(messages)


async def test_two_processes_seat_one_player_once(databases: tuple[Database, Database]) -> None:
    first, second = databases
    chat_id, (anna, bob, carl) = await _people(first, 3)

    async def start(database: Database, opponent: int) -> bool:
        try:
            await MatchRepository(database).start_match(
                chat_id=chat_id,
                player_ids=(bob, opponent),
                rules=MatchRules(length=1),
                client_seeds=("a", "b"),
                seed=SecretSeed(os.urandom(32)),
            )
        except SeatTakenError:
            return False
        return True

    for _round in range(3):
        started = await asyncio.gather(start(first, anna), start(second, carl))
        assert started.count(True) == 1
        bobs = await MatchRepository(first).active_match_id_for(chat_id, bob)
        assert bobs is not None
        await first.engine.write(
            lambda connection, match_id=bobs: connection.execute(
                sa.text("DELETE FROM match_seats WHERE match_id = :id"), {"id": match_id}
            )
        )


async def test_two_processes_appending_on_one_version_one_wins(
    databases: tuple[Database, Database],
) -> None:
    first, second = databases
    chat_id, (anna, bob) = await _people(first, 2)
    repositories = (MatchRepository(first), MatchRepository(second))
    started = await repositories[0].start_match(
        chat_id=chat_id,
        player_ids=(anna, bob),
        rules=MatchRules(length=3),
        client_seeds=("a", "b"),
        seed=SecretSeed(bytes(32)),
    )
    match_id = started.match.info.id

    async def attempt(repository: MatchRepository) -> bool:
        try:
            await append_action(repository, match_id, 0, OpeningRoll((5, 2)))
        except ConflictError:
            return False
        return True

    won = await asyncio.gather(*(attempt(repositories[n % 2]) for n in range(20)))
    assert won.count(True) == 1
    assert len(await repositories[1].events(match_id)) == 1


async def test_a_match_loaded_while_another_process_appends_is_one_version(
    databases: tuple[Database, Database],
) -> None:
    """With no snapshot to read, a load replays the log: only the events of the version it
    read, although the other process appends between the row and the log."""
    first, second = databases
    match_id = await _new_match(first, length=3)
    await append_action(MatchRepository(second), match_id, 0, OpeningRoll((5, 2)))
    await first.engine.write(
        lambda connection: connection.execute(
            sa.update(matches).values(snapshot=None, snapshot_version=None)
        )
    )
    paused = pause_after_first_statement(first, "FROM matches")
    loading = asyncio.create_task(MatchRepository(first).load_match(match_id))
    assert await asyncio.to_thread(paused.wait, 5)
    moved = await MatchRepository(second).load_match(match_id)
    play = str(moved.state.legal_plays()[0])
    mover = moved.state.player_on_roll
    await append_action(MatchRepository(second), match_id, 1, Move(mover, play))
    loaded = await loading
    assert loaded.info.version == 1
    assert loaded.state == replay(loaded.info.rules, (OpeningRoll((5, 2)),))


@pytest.mark.parametrize("workers", [2, 8])
async def test_an_analysis_is_claimed_by_one_worker(
    databases: tuple[Database, Database], workers: int
) -> None:
    first, second = databases
    match_id = await _new_match(first, length=1)
    await first.engine.write(
        lambda connection: connection.execute(
            sa.insert(match_analyses).values(
                match_id=match_id, status="pending", level="", requested_at=NOW
            )
        )
    )
    queues = (AnalysisRepository(first), AnalysisRepository(second))
    claims = await asyncio.gather(
        *(queues[n % 2].claim(match_id, "expert") for n in range(workers))
    )
    assert claims.count(True) == 1
    record = await queues[1].get(match_id)
    assert record is not None
    assert record.status == "running"
