"""The one driver of every table a player acts at (a match, a chouette session): under the
table's lock it loads the table, asks it who may act, has it plan the action with the rules
and append what they recorded at the version it was planned from, and presents the result.

What is the same for every table is done here once:

- a button names the version it was made for: pressed at another version it is out of date;
- a request handled before (the platform or another process sent it again, or a second press
  carried an event already in the log) gets the table as it is now, quietly: its first answer
  may never have been sent (the process that handled it died);
- a write beaten by another writer is tried once more against the table as it is now when the
  action was typed (its answer then names the real reason), and is out of date when pressed;
- a table that ended meanwhile answers that it has ended, whatever the version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar

from bot.core.context import Context
from bot.core.model import Message
from bot.core.refusal import Refusal
from bot.core.runtime.locks import MatchLocks
from storage import AlreadyAppliedError, ConflictError, NotFoundError

L = TypeVar("L")  # the table as loaded
P = TypeVar("P")  # an action planned with the rules
W = TypeVar("W")  # what the append wrote


@dataclass(frozen=True)
class Admitted(Generic[L]):
    """The caller may act at ``loaded`` (after ``lead``: what played by itself first, said
    before the answer), or ``instead`` is the whole answer (a refusal, or what waited to be
    done was done for them)."""

    loaded: L
    lead: list[Message] = field(default_factory=list)
    instead: list[Message] | None = None


class Table(Protocol[L, P, W]):
    """What a kind of table does for the driver."""

    async def load(self, context: Context, table_id: int) -> L:
        """The table as it is now (:class:`NotFoundError` when there is none)."""

    def version(self, loaded: L) -> int: ...

    async def check(self, context: Context, loaded: L) -> list[Message] | None:
        """Why the caller may not act here at all (another chat, the table is over, not
        theirs), asked before the version: None when they may go on."""

    async def admit(self, context: Context, loaded: L) -> Admitted[L]:
        """Who may act now and what must happen before (asked at the right version)."""

    async def plan(self, context: Context, loaded: L) -> P:
        """The caller's action and what follows it by itself, by the rules (:class:`Refusal`
        when they refuse it: the driver answers it, after what played by itself first)."""

    async def append(self, context: Context, loaded: L, planned: P) -> W:
        """Write ``planned`` at the version of ``loaded`` (:class:`ConflictError` when too
        late, :class:`AlreadyAppliedError` when the request's event is in the log)."""

    async def present(
        self, context: Context, admitted: Admitted[L], planned: P, written: W
    ) -> list[Message]:
        """The answer to what was written."""

    async def current(self, context: Context, table_id: int) -> list[Message]:
        """The table as it is now: the answer to a request handled before."""

    async def applied(self, table_id: int, event_id: str) -> bool:
        """Whether the action of the platform event ``event_id`` is in the table's log."""


@dataclass(frozen=True)
class TableDriver:
    locks: MatchLocks

    async def act(
        self, context: Context, table: Table[L, P, W], table_id: int, version: int | None
    ) -> list[Message]:
        """The caller's action at the table ``table_id``; ``version``: the version a pressed
        button was made for (None for a typed command)."""
        stale = context.refuse(context._("That button is out of date."))
        async with self.locks.hold(table_id):
            for attempt in range(2):
                try:
                    loaded = await table.load(context, table_id)
                except NotFoundError:
                    return stale
                refused = await table.check(context, loaded)
                if refused is not None:
                    return refused
                if version is not None and version != table.version(loaded):
                    return await self._repeated(context, table, table_id, stale)
                admitted = await table.admit(context, loaded)
                if admitted.instead is not None:
                    return admitted.instead
                try:
                    planned = await table.plan(context, admitted.loaded)
                    written = await table.append(context, admitted.loaded, planned)
                except AlreadyAppliedError:
                    return await table.current(context, table_id)
                except Refusal as refusal:
                    refused = context.refuse(refusal.text)
                    return await self._repeated(context, table, table_id, admitted.lead + refused)
                except ConflictError:
                    # Another writer changed the table first and nothing of ours was written.
                    # A button was made for the old version; a typed command is tried once more
                    # against the table as it is now, so its answer names the real reason.
                    if version is None and not attempt:
                        continue
                    return await self._beaten(context, table, table_id, admitted.lead + stale)
                return await table.present(context, admitted, planned, written)
            raise AssertionError("unreachable")

    async def _repeated(
        self, context: Context, table: Table[L, P, W], table_id: int, otherwise: list[Message]
    ) -> list[Message]:
        """A request handled before gets the table as it is now; any other, ``otherwise``.
        Asked only when the request is refused, which is what a repeat meets."""
        event_id = context.request.event_id
        if event_id and await table.applied(table_id, event_id):
            return await table.current(context, table_id)
        return otherwise

    async def _beaten(
        self, context: Context, table: Table[L, P, W], table_id: int, stale: list[Message]
    ) -> list[Message]:
        """Beaten by another writer at the last try: that the table is over, if it ended
        meanwhile, else ``stale``."""
        try:
            refused = await table.check(context, await table.load(context, table_id))
        except NotFoundError:
            return stale
        return stale if refused is None else refused
