"""The analyses of finished matches: a queue kept in the database, and the results.

A match that finishes is queued (``pending``) in the transaction that ends it (see
:meth:`storage.matches.MatchRepository.append`), so no finished match is forgotten by a crash.
A worker claims one (``pending`` → ``running``, a conditional update: two workers never
analyse the same match), then stores the result (``done``) or the reason it failed. A claim
left ``running`` by a process that died is taken up again by :meth:`AnalysisRepository.reclaim`
at start.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

import sqlalchemy as sa

from storage.database import Database
from storage.direct import DirectConnection
from storage.schema import match_analyses, matches, player_results

_MAX_ERROR = 256


class AnalysisStatus(enum.StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    SKIPPED = "skipped"


@dataclass(frozen=True)
class AnalysisRecord:
    match_id: int
    status: AnalysisStatus
    level: str
    result: dict[str, Any] | None
    error: str | None
    requested_at: datetime
    finished_at: datetime | None


def _record(data: Any) -> AnalysisRecord:
    return AnalysisRecord(
        match_id=data["match_id"],
        status=AnalysisStatus(data["status"]),
        level=data["level"],
        result=data["result"],
        error=data["error"],
        requested_at=data["requested_at"],
        finished_at=data["finished_at"],
    )


class AnalysisRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def get(self, match_id: int) -> AnalysisRecord | None:
        rows = await self.engine.read(
            sa.select(match_analyses).where(match_analyses.c.match_id == match_id)
        )
        row = rows.first()
        return None if row is None else _record(row._mapping)

    async def pending(self, limit: int = 20) -> list[int]:
        """Matches waiting for their analysis, oldest first."""
        rows = await self.engine.read(
            sa.select(match_analyses.c.match_id)
            .where(match_analyses.c.status == AnalysisStatus.PENDING)
            .order_by(match_analyses.c.requested_at, match_analyses.c.match_id)
            .limit(limit)
        )
        return [int(match_id) for (match_id,) in rows]

    async def claim(self, match_id: int, level: str) -> bool:
        """Take a pending analysis for this worker; false when another took it first."""
        return await self._move(match_id, AnalysisStatus.PENDING, {"level": level}, running=True)

    async def deepen(self, match_id: int, level: str, now: datetime) -> bool:
        """Queue a finished (or failed) analysis again at ``level``, unless it was made at
        that level; false when it is not finished or was made at that level. The result
        made before stays until the new one replaces it."""

        def write(connection: DirectConnection) -> bool:
            changed = connection.execute(
                sa.update(match_analyses)
                .where(
                    match_analyses.c.match_id == match_id,
                    match_analyses.c.status.in_((AnalysisStatus.DONE, AnalysisStatus.FAILED)),
                    match_analyses.c.level != level,
                )
                .values(status=AnalysisStatus.PENDING, level=level, requested_at=now, error=None)
            )
            return changed.rowcount == 1

        return await self.engine.write(write)

    async def store(
        self,
        match_id: int,
        result: dict[str, Any],
        now: datetime,
        error_rates: tuple[float, float] | None = None,
    ) -> None:
        """The finished analysis; with ``error_rates`` (player 0's and player 1's), each
        player's result of the match gets theirs in the same transaction (``/stats`` averages
        them)."""
        await self._move(
            match_id,
            AnalysisStatus.RUNNING,
            {"status": AnalysisStatus.DONE, "result": result, "finished_at": now},
            after=None
            if error_rates is None
            else partial(_store_error_rates, match_id, error_rates),
        )

    async def fail(self, match_id: int, reason: str, now: datetime) -> None:
        await self._move(
            match_id,
            AnalysisStatus.RUNNING,
            {"status": AnalysisStatus.FAILED, "error": reason[:_MAX_ERROR], "finished_at": now},
        )

    async def reclaim(self) -> int:
        """Put analyses left running (by a process that stopped) back in the queue."""

        def write(connection: DirectConnection) -> int:
            return connection.execute(
                sa.update(match_analyses)
                .where(match_analyses.c.status == AnalysisStatus.RUNNING)
                .values(status=AnalysisStatus.PENDING)
            ).rowcount

        return await self.engine.write(write)

    async def _move(
        self,
        match_id: int,
        expected: AnalysisStatus,
        values: dict[str, Any],
        running: bool = False,
        after: Callable[[DirectConnection], None] | None = None,
    ) -> bool:
        """Change the analysis if it is in the ``expected`` state, and then run ``after`` in
        the same transaction."""
        if running:
            values = {**values, "status": AnalysisStatus.RUNNING}

        def write(connection: DirectConnection) -> bool:
            changed = connection.execute(
                sa.update(match_analyses)
                .where(
                    match_analyses.c.match_id == match_id,
                    match_analyses.c.status == expected,
                )
                .values(values)
            )
            moved = changed.rowcount == 1
            if moved and after is not None:
                after(connection)
            return moved

        return await self.engine.write(write)


def _store_error_rates(
    match_id: int, error_rates: tuple[float, float], connection: DirectConnection
) -> None:
    """Each person's error rate on their result of the match (the bot has no result row)."""
    for seat, player in enumerate((matches.c.player0_id, matches.c.player1_id)):
        player_id = sa.select(player).where(matches.c.id == match_id).scalar_subquery()
        connection.execute(
            sa.update(player_results)
            .where(player_results.c.match_id == match_id, player_results.c.user_id == player_id)
            .values(error_rate=error_rates[seat])
        )
