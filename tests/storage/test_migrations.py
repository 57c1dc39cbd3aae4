"""Migrations: applied to an empty database at start, harmless on every restart."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from storage import Database, PostedMessageRepository, schema
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
        "match_analyses",
    } <= tables
    assert version == [("0006",)]
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


def _differences(url: str, metadata: sa.MetaData) -> list[str]:
    """What ``alembic revision --autogenerate`` would put into a new migration for a database
    that ``Database.migrate()`` built, one line a change.

    Types are compared (Alembic's default, and what storage/migrations/env.py asks for): a
    :class:`storage.schema.UtcDateTime` by the DateTime it stores, which SQLite reflects as
    DATETIME, and ``sa.JSON`` as the JSON that SQLite reflects. Server defaults are compared
    too (the schema has one: ``users.unreachable``)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "compare_server_default": True}
            )
            return [_describe(entry) for entry in compare_metadata(context, metadata)]
    finally:
        engine.dispose()


def _describe(entry: Any) -> str:
    """One difference as ``kind table.column`` (or ``kind name``); changes of a column come
    as a list of tuples, the others as one tuple."""
    kind, *rest = entry[0] if isinstance(entry, list) else entry
    if kind.startswith("modify_"):
        _schema, table, column, *_details = rest
        return f"{kind} {table}.{column}: {rest[-2]!r} -> {rest[-1]!r}"
    if kind in ("add_column", "remove_column"):
        _schema, table, column = rest
        return f"{kind} {table}.{column.name}"
    found = rest[-1]
    table = getattr(found, "table", None)
    return f"{kind} {table.name + '.' if table is not None else ''}{found.name}"


@pytest.fixture
async def migrated(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    database = Database(url)
    await database.migrate()
    await database.close()
    return url


def test_the_newest_migration_builds_exactly_the_schema(migrated: str) -> None:
    """A change of storage/schema.py without its migration fails here."""
    assert _differences(migrated, schema.metadata) == []


def test_the_comparison_sees_a_forgotten_migration(migrated: str) -> None:
    changed = sa.MetaData(naming_convention=schema.metadata.naming_convention)
    for table in schema.metadata.sorted_tables:
        if table.name != "posted_messages":
            table.to_metadata(changed)
    users = changed.tables["users"]
    users.append_column(sa.Column("nickname", sa.String(32)))
    sa.Index("ix_users_nickname", users.c.nickname)
    changed.tables["matches"].c.deadline.type = sa.Integer()
    assert sorted(_differences(migrated, changed)) == [
        "add_column users.nickname",
        "add_index users.ix_users_nickname",
        "modify_type matches.deadline: DATETIME() -> Integer()",
        "remove_table posted_messages",
    ]


def test_matches_of_earlier_revisions_get_distinct_slugs(tmp_path: Path) -> None:
    """Upgrading from 0005 gives every existing match its own unguessable slug."""
    from alembic import command
    from alembic.config import Config

    from storage.database import _MIGRATIONS

    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))

    def upgrade(target: str) -> None:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, target)

    upgrade("0005")
    with engine.begin() as connection:
        # A plain engine leaves SQLite's foreign keys off: the matches need no users here.
        for match_id in (1, 2, 3):
            connection.execute(
                sa.text(
                    "INSERT INTO matches (id, chat_id, player0_id, player1_id, variant, rules,"
                    " status, version, dice_commitment, server_seed, client_seed0, client_seed1,"
                    " board_messages, created_at, updated_at) VALUES (:id, 1, 1, 2, 'backgammon',"
                    " '{}', 'finished', 0, 'c', 's', 'a', 'b', '{}', '2026-01-01', '2026-01-01')"
                ),
                {"id": match_id},
            )
    upgrade("head")
    with engine.connect() as connection:
        slugs = [row[0] for row in connection.execute(sa.text("SELECT slug FROM matches"))]
    engine.dispose()
    assert len(slugs) == 3
    assert len(set(slugs)) == 3
    assert all(
        len(slug) == 22 and slug.replace("-", "").replace("_", "").isalnum() for slug in slugs
    )
