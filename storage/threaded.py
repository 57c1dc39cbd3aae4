"""An async face for a synchronous SQLAlchemy engine, all of whose work runs on one thread.

The same design serves SQLite (the plain pysqlite driver) and PostgreSQL (psycopg). It was
measured against SQLAlchemy's asyncio engine with aiosqlite and asyncpg (the README's storage
section has the figures): aiosqlite hands every cursor call to the driver's thread and back
(opening, executing, fetching and closing each cost a hand-over), which on SQLite more than
doubled the time of an append and of loading a match, past the figures storage must meet; on
PostgreSQL both designs measured the same. Here a whole statement, or a whole write
transaction, is one hand-over to the database thread; the event loop stays free.

The interface is the small part of SQLAlchemy's ``AsyncEngine`` that the repositories use:
``read``, ``write`` (a function given a connection, in one transaction), and ``connect()`` and
``begin()`` as async context managers whose ``execute`` returns fully read results.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from types import TracebackType
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine

from storage.results import BufferedResult

T = TypeVar("T")


def _buffered(connection: Connection, statement: Any, parameters: Any) -> BufferedResult:
    result = (
        connection.execute(statement, parameters)
        if parameters is not None
        else connection.execute(statement)
    )
    return BufferedResult.read(result)


class ThreadedConnection:
    def __init__(self, engine: ThreadedEngine, transaction: bool) -> None:
        self._engine = engine
        self._transaction = transaction
        self._connection: Connection | None = None

    async def __aenter__(self) -> ThreadedConnection:
        if self._transaction:
            # One thread runs every statement, so two open write transactions would wait for
            # each other on it forever: writers take turns (readers never wait in WAL mode).
            await self._engine.writer.acquire()
        # The connection is opened with the first statement, in the same hand-over.
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            if self._connection is not None:
                await self._engine.run(_finish, self._connection, self._transaction, kind is None)
        finally:
            if self._transaction:
                self._engine.writer.release()

    async def execute(self, statement: Any, parameters: Any = None) -> BufferedResult:
        if self._connection is None:
            engine = self._engine.sync_engine if self._transaction else self._engine.reader
            self._connection, result = await self._engine.run(
                _open_and_execute,
                engine,
                self._transaction,
                statement,
                parameters,
            )
            return result
        return await self._engine.run(_buffered, self._connection, statement, parameters)


def _open_and_execute(
    engine: Engine, transaction: bool, statement: Any, parameters: Any
) -> tuple[Connection, BufferedResult]:
    connection = engine.connect()
    try:
        if transaction:
            connection.begin()
        return connection, _buffered(connection, statement, parameters)
    except BaseException:
        connection.close()
        raise


def _read(engine: Engine, statement: Any, parameters: Any) -> BufferedResult:
    with engine.connect() as connection:
        return _buffered(connection, statement, parameters)


def _write(engine: Engine, work: Callable[[Connection], T]) -> T:
    with engine.begin() as connection:
        result = work(connection)
    _after_commit()
    return result


# A test hook: with GAMMONBOT_TEST_PAUSE_AFTER_COMMIT=SECONDS every commit is announced on
# standard error and followed by a pause, so a test can kill the process between two writes.
_PAUSE_AFTER_COMMIT = float(os.environ.get("GAMMONBOT_TEST_PAUSE_AFTER_COMMIT") or 0)


def _after_commit() -> None:
    if _PAUSE_AFTER_COMMIT:
        sys.stderr.write("gammonbot-test: committed\n")
        sys.stderr.flush()
        time.sleep(_PAUSE_AFTER_COMMIT)


def _finish(connection: Connection, transaction: bool, succeeded: bool) -> None:
    try:
        if transaction and connection.in_transaction():
            if succeeded:
                connection.commit()
                _after_commit()
            else:
                connection.rollback()
        elif connection.in_transaction():
            connection.rollback()  # a read: nothing to keep
    finally:
        connection.close()


class ThreadedEngine:
    """``connect()`` for reads, ``begin()`` for a transaction that commits on success.

    Write transactions of one process take turns (``writer``): one thread runs every
    statement, so a statement waiting for a lock that another open transaction of this same
    process holds would wait forever, the thread being the one that transaction needs to
    finish. What several processes do at once is settled by the database itself (SQLite's
    write lock; PostgreSQL's row locks and constraints, see the repositories)."""

    def __init__(self, engine: Engine) -> None:
        self.sync_engine = engine
        # Reads run in autocommit: on PostgreSQL no BEGIN and ROLLBACK round trips around a
        # single SELECT (SQLite's driver opens no transaction for a SELECT anyway).
        self.reader = engine.execution_options(isolation_level="AUTOCOMMIT")
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="database")
        self.writer = asyncio.Lock()
        self._closed = False

    async def run(self, function: Callable[..., T], *arguments: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, partial(function, *arguments))

    async def read(self, statement: Any, parameters: Any = None) -> BufferedResult:
        """One statement on a connection of its own, in a single hand-over to the thread."""
        return await self.run(_read, self.reader, statement, parameters)

    async def write(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` with a connection inside one transaction, on the database thread, in a
        single hand-over: committed when it returns, rolled back when it raises."""
        async with self.writer:
            return await self.run(_write, self.sync_engine, work)

    def connect(self) -> ThreadedConnection:
        return ThreadedConnection(self, transaction=False)

    def begin(self) -> ThreadedConnection:
        return ThreadedConnection(self, transaction=True)

    async def dispose(self) -> None:
        """Close every connection and the thread; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        await self.run(self.sync_engine.dispose)
        self._thread.shutdown(wait=True)
