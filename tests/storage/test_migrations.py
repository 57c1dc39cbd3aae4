"""Migrations: applied to an empty database at start, harmless on every restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from storage import Database, PostedMessageRepository
from tests.storage.players import Table


async def test_migrations_build_the_schema_and_are_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "folder" / "bot.db"
    url = f"sqlite+aiosqlite:///{path}"
    for _restart in range(3):
        database = Database(url)
        await database.migrate()
        await database.close()
    with sqlite3.connect(path) as connection:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master")}
        version = connection.execute("SELECT version_num FROM alembic_version").fetchall()
        journal = connection.execute("PRAGMA journal_mode").fetchone()
    assert {
        "users",
        "chats",
        "challenges",
        "matches",
        "match_events",
        "posted_messages",
        "match_seats",
    } <= tables
    assert version == [("0003",)]
    assert journal == ("wal",)


async def test_connections_enforce_foreign_keys(table: Table) -> None:
    async with table.database.engine.connect() as connection:
        assert (await connection.execute(sa.text("PRAGMA foreign_keys"))).scalar() == 1
        assert (await connection.execute(sa.text("PRAGMA busy_timeout"))).scalar() == 10_000
    with pytest.raises(sa.exc.IntegrityError):
        async with table.database.engine.begin() as connection:
            await connection.execute(
                sa.text(
                    "INSERT INTO match_events (match_id, seq, action, created_at) "
                    "VALUES (999, 0, '{}', '2026-01-01')"
                )
            )


async def test_posted_messages_remember_the_message_of_each_slot(table: Table) -> None:
    posted = PostedMessageRepository(table.database)
    assert await posted.current("telegram", "-100", "board:1") is None
    assert await posted.replace("telegram", "-100", "board:1", "41") is None
    assert await posted.replace("telegram", "-100", "board:1", "41") is None  # same message
    assert await posted.replace("telegram", "-100", "board:1", "57") == "41"
    assert await posted.replace("telegram", "-100", "board:2", "58") is None
    assert await posted.replace("discord", "-100", "board:1", "9") is None  # other platform
    assert await posted.current("telegram", "-100", "board:1") == "57"
