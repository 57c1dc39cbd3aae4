"""Statements run straight on the driver (storage/direct.py) give what SQLAlchemy's own
execution gives, on SQLite and on PostgreSQL: the same rows, values and types, the same
inserted keys, the same errors and events; and statements that cannot go that way still work.
SQLAlchemy's execution of the same statement on the same connection is the oracle."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from storage import Database
from storage.direct import CompiledPlan, DirectConnection
from storage.schema import chats, inbox_updates, users

MOMENT = datetime(2026, 12, 4, 18, 30, 5, 123456, tzinfo=UTC)

_USER_BY_ACCOUNT = sa.select(users).where(
    users.c.platform == sa.bindparam("platform"),
    users.c.platform_user_id == sa.bindparam("account"),
)
_INSERT_USER = sa.insert(users)
_INSERT_CHAT = sa.insert(chats)
_RENAME = sa.update(users).where(users.c.id == sa.bindparam("user")).values(display_name="Ada")
_COUNT_WITH_LITERAL = sa.select(sa.func.count()).where(users.c.platform == "telegram")


@pytest.fixture
async def database(migrated_url: str) -> AsyncIterator[Database]:
    opened = Database(migrated_url)
    yield opened
    await opened.close()


def _user(account: str) -> dict[str, Any]:
    return {
        "platform": "telegram",
        "platform_user_id": account,
        "display_name": f"Player {account}",
        "locale": "de",
        "preferences": {"theme": "classic", "hints": [1, 2]},
        "created_at": MOMENT,
    }


def _direct_plans(database: Database) -> list[CompiledPlan]:
    plans = database.engine.direct._plans.values()
    return [plan for plan in plans if isinstance(plan, CompiledPlan)]


async def _both_ways(database: Database, statement: Any, parameters: Any) -> tuple[Any, Any]:
    """The statement's result through SQLAlchemy, then run twice more (the second goes
    direct), in one transaction that is rolled back."""

    def work(connection: DirectConnection) -> tuple[Any, Any]:
        oracle = connection.sqlalchemy.execute(statement, parameters).fetchall()
        connection.execute(statement, parameters)  # seen once: SQLAlchemy's way
        direct = connection.execute(statement, parameters).all()
        raise _RolledBackError((oracle, direct))

    with pytest.raises(_RolledBackError) as rolled_back:
        await database.engine.write(work)
    oracle, direct = rolled_back.value.args[0]
    return oracle, direct


class _RolledBackError(Exception):
    pass


async def test_a_row_read_directly_equals_sqlalchemys(database: Database) -> None:
    async with database.engine.begin() as connection:
        await connection.execute(_INSERT_USER, _user("1"))
    account = {"platform": "telegram", "account": "1"}
    oracle, direct = await _both_ways(database, _USER_BY_ACCOUNT, account)
    assert _direct_plans(database)
    assert len(oracle) == len(direct) == 1
    assert tuple(direct[0]) == tuple(oracle[0])
    assert dict(direct[0]._mapping) == dict(oracle[0]._mapping)
    assert direct[0].created_at == MOMENT
    assert direct[0].created_at.tzinfo is not None
    assert direct[0].preferences == {"theme": "classic", "hints": [1, 2]}
    assert direct[0].is_bot is False
    assert direct[0].pending_match_id is None


async def test_values_written_in_the_statement_are_used(database: Database) -> None:
    async with database.engine.begin() as connection:
        await connection.execute(_INSERT_USER, _user("1"))
    oracle, direct = await _both_ways(database, _COUNT_WITH_LITERAL, None)
    assert [tuple(row) for row in direct] == [tuple(row) for row in oracle] == [(1,)]


async def test_an_insert_answers_the_key_it_generated(database: Database) -> None:
    def insert_three(connection: DirectConnection) -> list[Any]:
        return [
            connection.execute(_INSERT_USER, _user(str(n))).inserted_primary_key for n in range(3)
        ]

    keys = await database.engine.write(insert_three)
    assert any(isinstance(plan, CompiledPlan) for plan in _direct_plans(database))
    found = await database.engine.read(sa.select(users.c.id).order_by(users.c.id))
    assert [tuple(key) for key in keys] == [(row[0],) for row in found.all()]


async def test_an_insert_with_its_own_key_answers_that_key(database: Database) -> None:
    statement = sa.insert(inbox_updates)

    def insert(connection: DirectConnection, update_id: int) -> Any:
        values = {"platform": "telegram", "update_id": update_id, "payload": {"n": update_id}}
        moments = {"received_at": MOMENT, "claimed_at": MOMENT}
        return connection.execute(statement, {**values, **moments}).inserted_primary_key

    for update_id in (7, 8, 9):
        key = await database.engine.write(lambda connection, n=update_id: insert(connection, n))
        assert tuple(key) == ("telegram", update_id)


async def test_an_update_counts_its_rows(database: Database) -> None:
    async with database.engine.begin() as connection:
        inserted = await connection.execute(_INSERT_USER, _user("1"))
    user_id = inserted.inserted_primary_key[0]
    counts = []
    for _ in range(3):
        async with database.engine.begin() as connection:
            counts.append((await connection.execute(_RENAME, {"user": user_id})).rowcount)
    async with database.engine.begin() as connection:
        counts.append((await connection.execute(_RENAME, {"user": user_id + 99})).rowcount)
    assert counts == [1, 1, 1, 0]
    assert _direct_plans(database)
    found = await database.engine.read(_USER_BY_ACCOUNT, {"platform": "telegram", "account": "1"})
    assert found.one().display_name == "Ada"


async def test_a_broken_rule_raises_sqlalchemys_error(database: Database) -> None:
    chat = {"platform": "telegram", "platform_chat_id": "-5", "settings": {}}
    chat["created_at"] = MOMENT
    async with database.engine.begin() as connection:
        await connection.execute(_INSERT_CHAT, chat)
    for _ in range(2):  # the second duplicate goes direct
        with pytest.raises(sa.exc.IntegrityError):
            async with database.engine.begin() as connection:
                await connection.execute(_INSERT_CHAT, chat)
    assert _direct_plans(database)
    found = await database.engine.read(sa.select(sa.func.count()).select_from(chats))
    assert found.scalar() == 1  # the connection is usable after the error


async def test_the_engines_cursor_events_see_direct_statements(database: Database) -> None:
    seen: list[str] = []

    def listen(*arguments: Any) -> None:
        seen.append(arguments[2])

    event.listen(database.engine.sync_engine, "after_cursor_execute", listen)
    account = {"platform": "telegram", "account": "1"}
    for _ in range(3):
        await database.engine.read(_USER_BY_ACCOUNT, account)
    assert _direct_plans(database)
    assert len([text for text in seen if "FROM users" in text]) == 3


async def test_statements_built_for_one_call_take_sqlalchemys_way(database: Database) -> None:
    async with database.engine.begin() as connection:
        await connection.execute(_INSERT_USER, _user("1"))
        await connection.execute(_INSERT_USER, _user("2"))
    before = len(database.engine.direct._plans)
    for call in range(20):
        account = "12"[call % 2]
        statement = sa.select(users.c.display_name).where(users.c.platform_user_id == account)
        found = await database.engine.read(statement)
        assert found.scalar() == f"Player {account}"
        del statement, found
    gc.collect()
    # None was compiled again; at most the first is remembered, for as long as SQLAlchemy's
    # own cache keeps its compiled form (and with it the statement).
    assert len(_direct_plans(database)) == 1  # the insert's
    assert len(database.engine.direct._plans) <= before + 1


async def test_expanding_lists_and_several_rows_take_sqlalchemys_way(database: Database) -> None:
    listed = sa.select(users.c.platform_user_id).where(
        users.c.platform_user_id.in_(sa.bindparam("accounts", expanding=True))
    )

    def work(connection: DirectConnection) -> list[list[str]]:
        connection.execute(_INSERT_USER, [_user("1"), _user("2"), _user("3")])
        return [
            sorted(connection.execute(listed, {"accounts": accounts}).scalars())
            for accounts in (["1", "3"], ["2"], ["1", "2", "3"])
        ]

    assert await database.engine.write(work) == [["1", "3"], ["2"], ["1", "2", "3"]]
