"""The one way a table's actions are written: a version-checked append to its event log.

A match and a chouette session each keep an append-only log of their actions, numbered from
the table's version (``seq``), the first action of a write carrying the user whose command it
was and the platform's id of that command (``event_id``, unique per table). Every append is
one short transaction whose first statement is the table's conditional update (``UPDATE ...
WHERE id = ? AND version = ?``, the ``claim``): it checks and bumps the version and takes the
row's lock (PostgreSQL) or the write lock (SQLite) before anything else is written. Then the
actions go into the log and, still inside the transaction, whatever the caller's ``then``
writes for them (what a game's end sets off: :mod:`storage.transaction`).

Either all of it is written or nothing: a stale writer gets :class:`ConflictError`, and a
command handled a second time :class:`AlreadyAppliedError` (whether the log's unique index
refused it, or the version had moved on because of it: the repeat was planned from the
version before).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from storage.direct import DirectConnection
from storage.errors import AlreadyAppliedError, ConflictError
from storage.threaded import ThreadedEngine
from storage.transaction import Transaction

# What the caller writes inside the append's transaction, after the actions (or nothing).
Then = Callable[[Transaction], None] | None


@dataclass(frozen=True)
class EventLog:
    """A table's event log: its events table, the column naming the table the events belong
    to and the column naming who acted."""

    events: sa.Table
    owner: str
    actor: str

    @cached_property
    def _insert(self) -> sa.Insert:
        """The events' insert, built once (storage/direct.py runs it straight)."""
        return sa.insert(self.events)

    def applied_query(self, owner_id: int, event_id: str) -> sa.Select[Any]:
        columns = self.events.c
        return sa.select(columns.seq).where(
            columns[self.owner] == owner_id, columns.event_id == event_id
        )

    async def applied(self, engine: ThreadedEngine, owner_id: int, event_id: str) -> bool:
        """Whether the action of the platform event ``event_id`` is in the table's log."""
        found = await engine.read(self.applied_query(owner_id, event_id))
        return found.first() is not None

    async def append(
        self,
        engine: ThreadedEngine,
        owner_id: int,
        version: int,
        claim: Callable[[DirectConnection], RowMapping | None],
        actions: Sequence[Mapping[str, Any]],
        *,
        actor_id: int | None,
        event_id: str | None,
        moment: datetime,
        columns: Callable[[RowMapping], Mapping[str, Any]] = lambda row: {},
        then: Then = None,
    ) -> RowMapping:
        """In one transaction: ``claim`` (the table's conditional update from ``version``,
        returning the row as written, or None or :class:`ConflictError` when the table is
        not at ``version`` any more), the ``actions`` as events ``version``, ``version + 1``,
        ... (with ``columns`` of the claimed row, the same for each), then ``then``.
        Returns the claimed row."""

        def write(connection: DirectConnection) -> RowMapping:
            row = claim(connection)
            if row is None:
                raise ConflictError(f"{self.owner} {owner_id} is no longer at version {version}")
            shared = {self.owner: owner_id, "created_at": moment, **columns(row)}
            rows = [
                {
                    **shared,
                    "seq": version + offset,
                    self.actor: actor_id if offset == 0 else None,
                    "event_id": event_id if offset == 0 else None,
                    "action": action,
                }
                for offset, action in enumerate(actions)
            ]
            # One event (most writes) as one row: that statement goes straight to the driver.
            connection.execute(self._insert, rows[0] if len(rows) == 1 else rows)
            if then is not None:
                then(Transaction(connection, moment))
            return row

        try:
            return await engine.write(write)
        except (sa.exc.IntegrityError, ConflictError):
            if event_id is not None and await self.applied(engine, owner_id, event_id):
                raise AlreadyAppliedError(
                    f"event {event_id} is in {self.owner} {owner_id}"
                ) from None
            raise
