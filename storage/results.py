"""Results read in full before the connection goes back: what the repositories get.

A result that still needs its connection cannot outlive the transaction or hop between
threads; every statement the repositories run returns few rows, so each is read at once and
handed out as a plain list, with its row count and the key an insert gave its row.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy.engine import CursorResult


class BufferedResult:
    """Every row of a statement, plus its row count and the primary key it inserted."""

    def __init__(
        self, rows: list[Any], rowcount: int, inserted_primary_key: Sequence[Any] | None
    ) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self.inserted_primary_key = inserted_primary_key

    @classmethod
    def read(cls, result: CursorResult[Any]) -> BufferedResult:
        """All of ``result``, fetched now."""
        rows = list(result.fetchall()) if result.returns_rows else []
        key = None
        context = result.context
        # An insert's key, unless it returns rows of its own (then the rows say it).
        if context.isinsert and not context.executemany and not context._is_explicit_returning:
            key = result.inserted_primary_key
        return cls(rows, result.rowcount, key)

    def first(self) -> Any | None:
        return self._rows[0] if self._rows else None

    def one(self) -> Any:
        if len(self._rows) != 1:
            raise LookupError(f"expected one row, got {len(self._rows)}")
        return self._rows[0]

    def all(self) -> list[Any]:
        return list(self._rows)

    def scalar(self) -> Any:
        return self._rows[0][0] if self._rows else None

    def scalars(self) -> list[Any]:
        return [row[0] for row in self._rows]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._rows)

    def mappings(self) -> BufferedResult:
        """The rows as mappings (each row's ``_mapping``), as SQLAlchemy's ``mappings()``."""
        return BufferedResult([row._mapping for row in self._rows], self.rowcount, None)
