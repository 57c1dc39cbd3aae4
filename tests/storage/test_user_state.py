"""A user's transient state in columns of its own (migration 0004 carries it out of
``preferences``), the repository methods that write it, and the typed preferences."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

from storage import (
    Database,
    NotFoundError,
    PendingMove,
    Preferences,
    UserRecord,
    UserRepository,
)
from storage.database import _MIGRATIONS
from tests.storage.pauses import pause_after_first_statement
from tests.storage.postgres import sync_url

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _run_alembic(url: str, step: str, target: str) -> None:
    """``alembic upgrade|downgrade target`` on ``url``, with the Config that storage.database
    builds."""
    engine = sa.create_engine(sync_url(url))
    with engine.begin() as connection:
        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        config.attributes["connection"] = connection
        getattr(command, step)(config, target)
    engine.dispose()


def _insert_user(connection: Connection, user_id: int, preferences: dict[str, Any]) -> None:
    connection.execute(
        sa.text(
            "INSERT INTO users (id, platform, platform_user_id, display_name, preferences, "
            "created_at) VALUES (:id, 'telegram', :account, :name, :preferences, :created)"
        ),
        {
            "id": user_id,
            "account": str(1000 + user_id),
            "name": f"Player {user_id}",
            "preferences": json.dumps(preferences),
            "created": "2026-01-01 00:00:00.000000",
        },
    )


def _stored_preferences(url: str) -> dict[int, dict[str, Any]]:
    """The preferences column as stored, read as JSON (not through the repository)."""
    query = sa.select(sa.column("id"), sa.column("preferences", sa.JSON)).select_from(
        sa.table("users")
    )
    engine = sa.create_engine(sync_url(url))
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    engine.dispose()
    return {int(row[0]): row[1] for row in rows}


@pytest.fixture
def at_0003(database_url: str) -> str:
    """A database at revision 0003 holding users whose preferences carry the transient keys,
    and a challenge of theirs: the old users table cannot simply be dropped and copied."""
    _run_alembic(database_url, "upgrade", "0003")
    engine = sa.create_engine(sync_url(database_url))
    with engine.begin() as connection:
        _insert_user(
            connection,
            1,
            {
                "auto_roll": False,
                "theme": "dark",
                "pending_move": {"match": 7, "version": 12, "play": "8/5 6/5"},
                "unreachable": True,
                "next_seed": "lucky-7",
                "next_seed_at": "2026-02-01T10:30:00+02:00",
            },
        )
        _insert_user(
            connection,
            2,
            {
                "language": "de",
                "pending_move": None,
                "unreachable": False,
                "next_seed": "",  # used by a match, as the old code left it
                "next_seed_at": None,
            },
        )
        _insert_user(
            connection,
            3,
            {
                "pending_move": {"match": "7", "version": 1, "play": "8/5"},
                "next_seed": "no-time",
                "next_seed_at": "yesterday",
            },
        )
        _insert_user(connection, 4, {"notify": False})
        connection.execute(
            sa.text(
                "INSERT INTO chats (id, platform, platform_chat_id, settings, created_at) "
                "VALUES (1, 'telegram', '-500', '{}', '2026-01-01 00:00:00.000000')"
            )
        )
        connection.execute(
            sa.text(
                "INSERT INTO challenges (chat_id, challenger_id, challenged_id, rules, state, "
                "expires_at, created_at) VALUES (1, 1, 2, '{}', 'open', "
                "'2026-01-02 00:00:00.000000', '2026-01-01 00:00:00.000000')"
            )
        )
    engine.dispose()
    return database_url


async def test_the_migration_moves_the_state_out_of_the_preferences(at_0003: str) -> None:
    _run_alembic(at_0003, "upgrade", "head")
    assert _stored_preferences(at_0003) == {
        1: {"auto_roll": False, "theme": "dark"},
        2: {"language": "de"},
        3: {},
        4: {"notify": False},
    }
    database = Database(at_0003)
    users = UserRepository(database)
    first = await users.get_user(1)
    assert first.pending_move == PendingMove(7, 12, "8/5 6/5")
    assert first.unreachable is True
    assert first.next_seed == "lucky-7"
    assert first.next_seed_at == datetime(2026, 2, 1, 8, 30, tzinfo=UTC)
    assert first.prefs == Preferences(auto_roll=False, theme="dark")
    # Cleared or unusable values become no value at all.
    for user_id in (2, 3, 4):
        user = await users.get_user(user_id)
        assert (user.pending_move, user.unreachable, user.next_seed, user.next_seed_at) == (
            None,
            False,
            None,
            None,
        )
    await database.close()


async def test_the_downgrade_puts_the_state_back(at_0003: str) -> None:
    before = _stored_preferences(at_0003)
    _run_alembic(at_0003, "upgrade", "head")
    _run_alembic(at_0003, "downgrade", "0003")
    after = _stored_preferences(at_0003)
    assert after[1] == {
        **before[1],
        "next_seed_at": "2026-02-01T08:30:00+00:00",  # the same moment, in UTC
    }
    assert after[2] == {"language": "de"}  # the old code read missing keys as these values
    assert after[4] == before[4]
    _run_alembic(at_0003, "upgrade", "head")
    database = Database(at_0003)
    again = await UserRepository(database).get_user(1)
    assert again.pending_move == PendingMove(7, 12, "8/5 6/5")
    await database.close()


@pytest.fixture
async def users(migrated_url: str) -> AsyncIterator[UserRepository]:
    database = Database(migrated_url)
    yield UserRepository(database)
    await database.close()


async def test_a_new_user_has_no_state(users: UserRepository) -> None:
    user = await users.upsert_user("telegram", "1001", "Anna")
    assert (user.pending_move, user.unreachable, user.next_seed, user.next_seed_at) == (
        None,
        False,
        None,
        None,
    )
    assert user.prefs == Preferences()


async def test_a_pending_move_is_taken_once(users: UserRepository) -> None:
    user = await users.upsert_user("telegram", "1001", "Anna")
    written = await users.set_pending_move(user.id, PendingMove(3, 9, "13/7*/5"))
    assert written.pending_move == PendingMove(3, 9, "13/7*/5")
    newer = await users.set_pending_move(user.id, PendingMove(3, 9, "24/18 13/11"))
    assert newer.pending_move == PendingMove(3, 9, "24/18 13/11")  # a new preview replaces it
    assert await users.take_pending_move(user.id) == PendingMove(3, 9, "24/18 13/11")
    assert await users.take_pending_move(user.id) is None
    assert (await users.get_user(user.id)).pending_move is None
    await users.set_pending_move(user.id, PendingMove(3, 10, "6/off"))
    assert (await users.set_pending_move(user.id, None)).pending_move is None
    assert await users.take_pending_move(user.id) is None


async def test_two_presses_at_once_take_the_move_once(users: UserRepository) -> None:
    user = await users.upsert_user("telegram", "1001", "Anna")
    for _round in range(5):
        await users.set_pending_move(user.id, PendingMove(1, 4, "8/4 6/4"))
        taken = await asyncio.gather(*(users.take_pending_move(user.id) for _ in range(2)))
        assert sorted(taken, key=lambda pending: pending is not None) == [
            None,
            PendingMove(1, 4, "8/4 6/4"),
        ]


async def test_two_processes_take_the_move_once(migrated_url: str) -> None:
    """The first take stalls after its first statement, with its transaction open, while
    another database on the same file takes: that one must wait and find nothing."""
    first, second = Database(migrated_url), Database(migrated_url)
    try:
        mine, theirs = UserRepository(first), UserRepository(second)
        user = await mine.upsert_user("telegram", "1001", "Anna")
        await mine.set_pending_move(user.id, PendingMove(2, 6, "bar/22"))
        paused = pause_after_first_statement(first, "UPDATE users")
        slow = asyncio.create_task(mine.take_pending_move(user.id))
        assert await asyncio.to_thread(paused.wait, 5)
        assert await theirs.take_pending_move(user.id) is None
        assert await slow == PendingMove(2, 6, "bar/22")
    finally:
        await first.close()
        await second.close()


async def test_reachability_and_seeds_are_written_alone(users: UserRepository) -> None:
    user = await users.upsert_user("telegram", "1001", "Anna")
    await users.set_preferences(user.id, {"theme": "dark"})
    assert (await users.set_unreachable(user.id, True)).unreachable is True
    chosen = await users.set_next_seed(user.id, "lucky-7", NOW)
    assert (chosen.next_seed, chosen.next_seed_at) == ("lucky-7", NOW)
    later = NOW + timedelta(hours=1)
    assert (await users.set_next_seed(user.id, "other", later)).next_seed_at == later
    # The preferences merge keeps the state, and the state keeps the preferences.
    merged = await users.set_preferences(user.id, {"auto_roll": False})
    assert (merged.unreachable, merged.next_seed) == (True, "other")
    assert merged.preferences == {"theme": "dark", "auto_roll": False}
    cleared = await users.clear_next_seed(user.id)
    assert (cleared.next_seed, cleared.next_seed_at) == (None, None)
    reachable = await users.set_unreachable(user.id, False)
    assert reachable.unreachable is False
    assert reachable == await users.get_user(user.id)
    assert reachable.preferences == {"theme": "dark", "auto_roll": False}


async def test_state_of_unknown_users_is_refused(users: UserRepository) -> None:
    user = await users.upsert_user("telegram", "1001", "Anna")
    missing = user.id + 100
    with pytest.raises(NotFoundError):
        await users.set_pending_move(missing, PendingMove(1, 1, "8/5"))
    with pytest.raises(NotFoundError):
        await users.take_pending_move(missing)
    with pytest.raises(NotFoundError):
        await users.set_unreachable(missing, True)
    with pytest.raises(NotFoundError):
        await users.set_next_seed(missing, "x", NOW)
    with pytest.raises(NotFoundError):
        await users.clear_next_seed(missing)


@pytest.mark.parametrize(
    "stored",
    [
        None,
        [],
        "auto_roll",
        42,
        {},
        {"auto_roll": "no", "auto_forced": 0, "confirm_moves": 1, "notify": None},
        {"theme": 5, "language": ["de"]},
        {"theme": "", "language": ""},
        {"unknown": True, "pending_move": {"match": 1}, "unreachable": True},
    ],
)
def test_unusable_preferences_read_as_the_defaults(stored: object) -> None:
    assert Preferences.from_json(stored) == Preferences()


def test_preferences_keep_what_they_recognise() -> None:
    stored = {
        "auto_roll": False,
        "auto_forced": "off",  # mistyped: the default
        "confirm_moves": True,
        "notify": False,
        "theme": "dark",
        "language": "de",
        "extra": {"nested": 1},
    }
    read = Preferences.from_json(stored)
    assert read == Preferences(
        auto_roll=False, confirm_moves=True, notify=False, theme="dark", language="de"
    )
    assert Preferences.from_json(read.to_json()) == read
    assert read.to_json() == {
        "auto_roll": False,
        "auto_forced": True,
        "confirm_moves": True,
        "notify": False,
        "theme": "dark",
        "language": "de",
    }


def test_a_user_record_types_its_preferences() -> None:
    user = UserRecord(1, "telegram", "1001", "Anna", None, {"notify": False, "theme": 3})
    assert user.prefs == Preferences(notify=False)
    assert user.preferences == {"notify": False, "theme": 3}  # the JSON as stored
    assert user == UserRecord(1, "telegram", "1001", "Anna", None, {"notify": False, "theme": 3})
