"""Migrations: applied to an empty database at start, harmless on every restart, and the same
schema on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from storage import Database, PostedMessageRepository, schema
from storage.database import _MIGRATIONS
from tests.storage.players import Table
from tests.storage.postgres import sync_url


def newest_revision() -> str:
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


TABLES = {
    "users",
    "chats",
    "challenges",
    "matches",
    "match_events",
    "posted_messages",
    "match_seats",
    "match_analyses",
}


async def test_migrations_build_the_schema_and_are_idempotent(
    database_url: str, backend: str
) -> None:
    for _restart in range(3):
        database = Database(database_url)
        await database.migrate()
        await database.close()
    engine = sa.create_engine(sync_url(database_url))
    with engine.connect() as connection:
        tables = set(sa.inspect(connection).get_table_names())
        version = connection.execute(sa.text("SELECT version_num FROM alembic_version")).all()
        if backend == "sqlite":
            journal = connection.execute(sa.text("PRAGMA journal_mode")).scalar()
            assert journal == "wal"
    engine.dispose()
    assert tables >= TABLES
    assert [tuple(row) for row in version] == [(newest_revision(),)]


async def test_a_sqlite_database_in_a_folder_yet_to_be_made(tmp_path: Any) -> None:
    path = tmp_path / "deep" / "folder" / "bot.db"
    database = Database(f"sqlite:///{path}")
    await database.migrate()
    await database.close()
    assert path.exists()


async def test_processes_starting_together_migrate_one_after_the_other(database_url: str) -> None:
    """Several processes starting at once on one empty database: every one of them comes up
    (on PostgreSQL the later ones wait for the first one's migration, then find nothing to
    do), and the schema is built once."""
    databases = [Database(database_url) for _ in range(3)]
    try:
        await asyncio.gather(*(database.migrate() for database in databases))
        found = await databases[0].engine.read(sa.text("SELECT version_num FROM alembic_version"))
        assert found.scalars() == [newest_revision()]
    finally:
        for database in databases:
            await database.close()


async def test_connections_enforce_foreign_keys(table: Table, backend: str) -> None:
    if backend == "sqlite":  # on by default on PostgreSQL; set on every SQLite connection
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
    DATETIME and PostgreSQL as TIMESTAMP, and ``sa.JSON`` as the JSON both reflect. Server
    defaults are compared too (the booleans have one)."""
    engine = sa.create_engine(sync_url(url))
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
async def migrated(database_url: str) -> str:
    database = Database(database_url)
    await database.migrate()
    await database.close()
    return database_url


def test_the_newest_migration_builds_exactly_the_schema(migrated: str) -> None:
    """A change of storage/schema.py without its migration fails here."""
    assert _differences(migrated, schema.metadata) == []


# How each database reflects the DateTime that storage.schema.UtcDateTime stores.
REFLECTED_DATETIME = {"sqlite": "DATETIME()", "postgresql": "TIMESTAMP()"}


def test_the_comparison_sees_a_forgotten_migration(migrated: str, backend: str) -> None:
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
        f"modify_type matches.deadline: {REFLECTED_DATETIME[backend]} -> Integer()",
        "remove_table posted_messages",
    ]


def upgrade_by_hand(url: str, target: str) -> None:
    """``alembic upgrade target`` on ``url``, with the Config that storage.database builds."""
    engine = sa.create_engine(sync_url(url))
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, target)
    engine.dispose()


def test_matches_of_earlier_revisions_get_slugs_and_no_analysis(database_url: str) -> None:
    """Upgrading from 0004 marks the matches that had finished as not to be analysed (0005)
    and gives every existing match its own unguessable slug (0006)."""
    upgrade_by_hand(database_url, "0004")
    engine = sa.create_engine(sync_url(database_url))
    with engine.begin() as connection:
        connection.execute(
            sa.text(
                "INSERT INTO chats (id, platform, platform_chat_id, settings, created_at) "
                "VALUES (1, 'telegram', '-500', '{}', '2026-01-01')"
            )
        )
        for user_id in (1, 2):
            connection.execute(
                sa.text(
                    "INSERT INTO users (id, platform, platform_user_id, display_name,"
                    " preferences, created_at) VALUES (:id, 'telegram', :account, 'P', '{}',"
                    " '2026-01-01')"
                ),
                {"id": user_id, "account": str(user_id)},
            )
        for match_id in (1, 2, 3):
            connection.execute(
                sa.text(
                    "INSERT INTO matches (id, chat_id, player0_id, player1_id, variant, rules,"
                    " status, version, dice_commitment, server_seed, client_seed0, client_seed1,"
                    " board_messages, created_at, updated_at, finished_at) VALUES (:id, 1, 1, 2,"
                    " 'backgammon', '{}', 'finished', 0, 'c', 's', 'a', 'b', '{}', '2026-01-01',"
                    " '2026-01-01', '2026-01-02 03:04:05')"
                ),
                {"id": match_id},
            )
    upgrade_by_hand(database_url, "head")
    with engine.connect() as connection:
        slugs = [row[0] for row in connection.execute(sa.text("SELECT slug FROM matches"))]
        analyses = connection.execute(
            sa.select(
                sa.column("match_id"), sa.column("status"), sa.column("requested_at", sa.DateTime)
            )
            .select_from(sa.table("match_analyses"))
            .order_by(sa.column("match_id"))
        ).all()
    engine.dispose()
    assert len(slugs) == 3
    assert len(set(slugs)) == 3
    assert all(
        len(slug) == 22 and slug.replace("-", "").replace("_", "").isalnum() for slug in slugs
    )
    assert [(match_id, status) for match_id, status, _at in analyses] == [
        (1, "skipped"),
        (2, "skipped"),
        (3, "skipped"),
    ]
    assert {at for _id, _status, at in analyses} == {datetime(2026, 1, 2, 3, 4, 5)}
