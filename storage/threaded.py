"""An async face for a synchronous SQLAlchemy engine, all of whose work runs on one thread.

The same design serves SQLite (the plain pysqlite driver) and PostgreSQL (psycopg). It was
measured against SQLAlchemy's asyncio engine with aiosqlite and asyncpg (docs/benchmarks.md
has the figures): aiosqlite hands every cursor call to the driver's thread and back
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
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from types import TracebackType
from typing import Any, TypeVar

from sqlalchemy.engine import Connection, Engine

from storage.direct import DirectConnection, DirectStatements
from storage.results import BufferedResult

T = TypeVar("T")


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
                self._engine.direct,
                engine,
                self._transaction,
                statement,
                parameters,
            )
            return result
        return await self._engine.run(
            self._engine.direct.execute, self._connection, statement, parameters
        )


def _open_and_execute(
    direct: DirectStatements, engine: Engine, transaction: bool, statement: Any, parameters: Any
) -> tuple[Connection, BufferedResult]:
    connection = engine.connect()
    try:
        if transaction:
            connection.begin()
        return connection, direct.execute(connection, statement, parameters)
    except BaseException:
        connection.close()
        raise


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
        # Statements run again and again go straight to the driver (storage/direct.py).
        self.direct = DirectStatements(engine.dialect)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="database")
        self.writer = asyncio.Lock()
        self._closed = False
        # The connection reads run on, kept open between them; only the database thread
        # touches it (see ``_read_all``).
        self._reading: Connection | None = None
        # Likewise the connection :meth:`write` runs its transactions on (``_write``).
        self._writing: Connection | None = None

    async def run(self, function: Callable[..., T], *arguments: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, partial(function, *arguments))

    async def read(self, statement: Any, parameters: Any = None) -> BufferedResult:
        """One statement, in a single hand-over to the thread."""
        return (await self.run(self._read_all, ((statement, parameters),)))[0]

    async def read_many(self, *queries: tuple[Any, Any]) -> list[BufferedResult]:
        """Several statements (each a statement and its parameters, or None), read one after
        the other in a single hand-over to the thread: what a request needs at once costs one
        trip. Each is its own autocommit read, exactly as if read with :meth:`read`."""
        return await self.run(self._read_all, queries)

    async def read_following(
        self,
        first: Sequence[tuple[Any, Any]],
        following: Callable[[list[BufferedResult]], Sequence[tuple[Any, Any]]],
    ) -> tuple[list[BufferedResult], list[BufferedResult]]:
        """The statements ``first``, then those ``following`` makes of their results (none:
        an empty list), in a single hand-over to the thread: reads that depend on others
        cost one trip. ``following`` runs on the database thread and only builds statements."""
        return await self.run(self._read_following, tuple(first), following)

    def _read_following(
        self,
        first: tuple[tuple[Any, Any], ...],
        following: Callable[[list[BufferedResult]], Sequence[tuple[Any, Any]]],
    ) -> tuple[list[BufferedResult], list[BufferedResult]]:
        results = self._read_all(first)
        then = tuple(following(results))
        return results, self._read_all(then) if then else []

    def _read_all(self, queries: tuple[tuple[Any, Any], ...]) -> list[BufferedResult]:
        """On the database thread: ``queries`` on the reading connection.

        The connection stays open from one read to the next. Opening one per read (a pool
        checkout, setting AUTOCOMMIT on it, resetting it and checking it back in) cost more
        CPU than the SELECT itself. It is in autocommit, so it never holds a transaction or
        a snapshot between reads: every statement sees what is committed when it runs, as a
        fresh connection would. After any error it is closed (a broken connection is not
        reused) and the next read opens another."""
        connection = self._reading
        if connection is None or connection.closed or connection.invalidated:
            connection = self._reading = self.reader.connect()
        try:
            return [
                self.direct.execute(connection, statement, parameters)
                for statement, parameters in queries
            ]
        except BaseException:
            self._reading = None
            connection.close()
            raise

    def _write(self, work: Callable[[DirectConnection], T]) -> T:
        """On the database thread: ``work`` in one transaction on the writing connection,
        which stays open from one transaction to the next, as the reading one does (no pool
        checkout and reset for each write). Each transaction begins and ends here: nothing
        is left open between two writes. After any error the connection is closed."""
        connection = self._writing
        if connection is None or connection.closed or connection.invalidated:
            connection = self._writing = self.sync_engine.connect()
        try:
            with connection.begin():
                result = work(DirectConnection(connection, self.direct))
        except BaseException:
            self._writing = None
            connection.close()
            raise
        _after_commit()
        return result

    def _close_held(self) -> None:
        """Close the connections kept between reads and between writes."""
        held = (self._reading, self._writing)
        self._reading = self._writing = None
        for connection in held:
            if connection is not None:
                connection.close()

    async def write(self, work: Callable[[DirectConnection], T]) -> T:
        """Run ``work`` with a connection inside one transaction, on the database thread, in a
        single hand-over: committed when it returns, rolled back when it raises."""
        async with self.writer:
            return await self.run(self._write, work)

    def connect(self) -> ThreadedConnection:
        return ThreadedConnection(self, transaction=False)

    def begin(self) -> ThreadedConnection:
        return ThreadedConnection(self, transaction=True)

    async def dispose(self) -> None:
        """Close every connection and the thread; closing twice is harmless."""
        if self._closed:
            return
        self._closed = True
        await self.run(self._close_held)
        await self.run(self.sync_engine.dispose)
        self._thread.shutdown(wait=True)
