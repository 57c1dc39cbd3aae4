"""Statements that run again and again, compiled once and run straight on the driver's cursor.

SQLAlchemy's way through a statement (its cache key, an execution context, a cursor result
and its metadata) cost more CPU than the driver's own work: 0.135 ms against 0.055 ms for
reading one user on PostgreSQL, and about a quarter of the bot's CPU under load
(docs/benchmarks.md). The repositories keep their statements as module constants and run the
same objects for every request, so a statement object seen a second time is compiled once for
the database's dialect and from then on run on the driver's cursor, doing what SQLAlchemy's
execution does for it, with SQLAlchemy's own parts:

- the parameters are filled in by the compiled statement (``construct_params``: the values
  written into the statement, the required ones checked), converted by the types' bind
  processors and named or ordered as the dialect's driver wants them;
- rows are converted by the types' result processors and made into SQLAlchemy's ``Row``
  (attribute, index and ``_mapping`` access as before);
- an insert's generated key comes from the RETURNING that SQLAlchemy compiled for it, or the
  cursor's ``lastrowid`` where the dialect uses that;
- driver errors go through the connection's own handling (the same exception classes,
  ``IntegrityError`` and the rest, and a broken connection invalidated), and the engine's
  cursor events are fired (the tests' pauses listen to them).

Everything else takes SQLAlchemy's way unchanged: a statement built anew for one call (it would
be compiled for nothing), several parameter sets at once, parameters expanded when run
(``IN`` lists), values computed in Python (column defaults), an explicit RETURNING on an
insert, and result columns with the same name twice.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.engine.result import result_tuple
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.dml import Delete, Insert, Update
from sqlalchemy.sql.selectable import CompoundSelect, Select

from storage.results import BufferedResult

_RunnableStatement = (Select, CompoundSelect, Insert, Update, Delete)

_SEEN_ONCE: Final = object()
_NOT_DIRECT: Final = object()


class CompiledPlan:
    """One statement compiled for one dialect and one set of parameter names, and what is
    needed to run it on the driver."""

    def __init__(self, statement: Any, compiled: SQLCompiler, dialect: Dialect) -> None:
        self.sql = compiled.string
        self._compiled = compiled
        self._dialect = dialect
        # A statement run here expands no parameters, so each processor is a single one.
        self._processors: Mapping[str, Callable[[Any], Any]] = compiled._bind_processors  # type: ignore[assignment]
        self._escaped = compiled.escaped_bind_names
        self._positions: Sequence[str] | None = (
            compiled.positiontup if compiled.positional else None
        )
        self._sequence = dialect.execute_sequence_format
        self._insert = isinstance(statement, Insert)
        self._key_columns: tuple[sa.Column[Any], ...] = (
            tuple(statement.table.primary_key.columns) if self._insert else ()
        )
        self._returned_key = self._insert and bool(compiled.effective_returning)
        self._last_row_id = self._insert and bool(compiled.postfetch_lastrowid)
        columns = compiled._result_columns
        self._keys = [column.keyname for column in columns]
        self._types = [column.type for column in columns]
        self._make_row = result_tuple(self._keys)
        self._row_processors: list[Callable[[Any], Any] | None] | None = None

    def parameters(self, given: Mapping[str, Any] | None) -> Any:
        """The driver's parameters for ``given``, as SQLAlchemy's execution makes them."""
        values = self._compiled.construct_params(given, escape_names=False)
        processors = self._processors
        if self._positions is not None:
            return self._sequence(
                [
                    processors[name](values[name]) if name in processors else values[name]
                    for name in self._positions
                ]
            )
        escaped = self._escaped
        return {
            escaped.get(name, name) if escaped else name: (
                processors[name](value) if name in processors else value
            )
            for name, value in values.items()
        }

    def read(self, cursor: Any, given: Mapping[str, Any] | None) -> BufferedResult:
        """The executed statement's result, read in full from ``cursor``."""
        if self._returned_key:
            returned = cursor.fetchone()
            return BufferedResult([], cursor.rowcount, self._inserted_key(given, returned))
        if self._insert:
            last = cursor.lastrowid if self._last_row_id else None
            return BufferedResult([], cursor.rowcount, self._inserted_key(given, None, last))
        if cursor.description is None:
            return BufferedResult([], cursor.rowcount, None)
        processors = self._row_processors
        if processors is None:
            processors = self._row_processors = [
                kind._cached_result_processor(self._dialect, described[1])
                for kind, described in zip(self._types, cursor.description, strict=True)
            ]
        make_row = self._make_row
        raw = cursor.fetchall()
        if any(processors):
            rows = [
                make_row(
                    [
                        value if convert is None else convert(value)
                        for convert, value in zip(processors, row, strict=True)
                    ]
                )
                for row in raw
            ]
        else:
            rows = [make_row(row) for row in raw]
        return BufferedResult(rows, cursor.rowcount, None)

    def _inserted_key(
        self, given: Mapping[str, Any] | None, returned: Any, last_row_id: Any = None
    ) -> tuple[Any, ...]:
        """The inserted row's primary key, as SQLAlchemy's ``inserted_primary_key``: each
        column from the RETURNING row, the cursor's last row id or the given values."""
        values = dict(self._compiled.construct_params(given, escape_names=False))
        key: list[Any] = []
        returning = self._compiled.effective_returning or ()
        for column in self._key_columns:
            if returned is not None and column in returning:
                key.append(returned[list(returning).index(column)])
            elif last_row_id is not None and values.get(column.key) is None:
                key.append(last_row_id)
            else:
                key.append(values.get(column.key))
        return tuple(key)


class DirectStatements:
    """The plans of one database's statements (one per engine: its dialect, its thread)."""

    def __init__(self, dialect: Dialect) -> None:
        self._dialect = dialect
        self._plans: dict[tuple[int, tuple[str, ...]], object] = {}
        self._watched: set[int] = set()

    def execute(self, connection: Connection, statement: Any, parameters: Any) -> BufferedResult:
        """``statement`` with ``parameters`` on ``connection``, fully read."""
        plan = self._plan(statement, parameters)
        if not isinstance(plan, CompiledPlan):
            result = (
                connection.execute(statement, parameters)
                if parameters is not None
                else connection.execute(statement)
            )
            return BufferedResult.read(result)
        return self._run(connection, plan, parameters)

    def _plan(self, statement: Any, parameters: Any) -> object:
        if not isinstance(statement, _RunnableStatement):
            return _NOT_DIRECT
        if parameters is not None and not isinstance(parameters, Mapping):
            return _NOT_DIRECT  # several parameter sets, or a list of one
        names = tuple(sorted(parameters)) if parameters else ()
        key = (id(statement), names)
        plan = self._plans.get(key)
        if plan is None:
            self._plans[key] = _SEEN_ONCE
            self._watch(statement)
            return _SEEN_ONCE
        if plan is _SEEN_ONCE:
            plan = self._plans[key] = self._compile(statement, names)
        return plan

    def _watch(self, statement: Any) -> None:
        """Forget the statement's plans when it is gone (its id may be another's then)."""
        identity = id(statement)
        if identity not in self._watched:
            self._watched.add(identity)
            weakref.finalize(statement, self._forget, identity)

    def _forget(self, identity: int) -> None:
        self._watched.discard(identity)
        for key in [key for key in self._plans if key[0] == identity]:
            self._plans.pop(key, None)

    def _compile(self, statement: Any, names: tuple[str, ...]) -> object:
        compiled = statement.compile(dialect=self._dialect, column_keys=list(names))
        assert isinstance(compiled, SQLCompiler)
        keys = [column.keyname for column in compiled._result_columns]
        direct = not (
            compiled.post_compile_params
            or compiled.literal_execute_params
            or compiled.insert_prefetch
            or compiled.update_prefetch
            or compiled.schema_translate_map
            or len(set(keys)) != len(keys)
            or (isinstance(statement, Insert) and statement._returning)
        )
        return CompiledPlan(statement, compiled, self._dialect) if direct else _NOT_DIRECT

    @staticmethod
    def _run(connection: Connection, plan: CompiledPlan, given: Any) -> BufferedResult:
        parameters = plan.parameters(given)
        dispatch = connection.dispatch
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            for before in dispatch.before_cursor_execute:
                before(connection, cursor, plan.sql, parameters, None, False)
            cursor.execute(plan.sql, parameters)
            for after in dispatch.after_cursor_execute:
                after(connection, cursor, plan.sql, parameters, None, False)
            return plan.read(cursor, given)
        except BaseException as error:
            connection._handle_dbapi_exception(error, plan.sql, parameters, cursor, None)
        finally:
            with contextlib.suppress(Exception):
                cursor.close()


class DirectConnection:
    """The connection a transaction's work is given (``ThreadedEngine.write``): its
    statements go the direct way when they can; ``sqlalchemy`` is the connection itself, for
    what needs SQLAlchemy's own (migrations, driver SQL)."""

    def __init__(self, connection: Connection, direct: DirectStatements) -> None:
        self.sqlalchemy = connection
        self._direct = direct

    @property
    def dialect(self) -> Dialect:
        return self.sqlalchemy.dialect

    def execute(self, statement: Any, parameters: Any = None) -> BufferedResult:
        """``statement`` with ``parameters``, fully read."""
        return self._direct.execute(self.sqlalchemy, statement, parameters)
