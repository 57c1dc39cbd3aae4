"""The webhook's inbox on SQLite and PostgreSQL: an update arriving twice (at two processes)
is handled once, and an update left unhandled by a process that died is taken over by exactly
one other process."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from storage import Database, InboxRepository

AT = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
UPDATE = {"update_id": 7, "message": {"text": "/help"}}


async def test_an_update_arriving_at_two_processes_is_theirs_once(
    databases: tuple[Database, Database],
) -> None:
    first, second = (InboxRepository(database) for database in databases)
    answers = await asyncio.gather(
        first.receive("telegram", 7, UPDATE, AT), second.receive("telegram", 7, UPDATE, AT)
    )
    assert sorted(answers) == [False, True]
    # The same number on another platform is another update.
    assert await first.receive("discord", 7, UPDATE, AT)


async def test_an_update_left_unhandled_is_taken_over_by_one_process(
    databases: tuple[Database, Database],
) -> None:
    first, second = (InboxRepository(database) for database in databases)
    assert await first.receive("telegram", 7, UPDATE, AT)  # and its process dies
    assert await first.receive("telegram", 8, {"update_id": 8}, AT)
    await first.handled("telegram", 8, AT + timedelta(seconds=1))
    # Not yet stale: still its first process's.
    soon = AT + timedelta(seconds=30)
    assert await second.claim_stale("telegram", timedelta(minutes=1), soon) == []
    later = AT + timedelta(minutes=2)
    won = await asyncio.gather(
        first.claim_stale("telegram", timedelta(minutes=1), later),
        second.claim_stale("telegram", timedelta(minutes=1), later),
    )
    taken = [update for claimed in won for update in claimed]
    assert [(update.update_id, update.payload) for update in taken] == [(7, UPDATE)]
    # Claimed anew: stale again only a minute after the new claim, and never once handled.
    assert await first.claim_stale("telegram", timedelta(minutes=1), later) == []
    await second.handled("telegram", 7, later)
    assert (
        await first.claim_stale("telegram", timedelta(minutes=1), later + timedelta(hours=1)) == []
    )


async def test_handled_updates_are_forgotten_after_a_day(
    databases: tuple[Database, Database],
) -> None:
    inbox = InboxRepository(databases[0])
    for number in (1, 2, 3):
        await inbox.receive("telegram", number, {"update_id": number}, AT)
    await inbox.handled("telegram", 1, AT)
    await inbox.handled("telegram", 2, AT + timedelta(hours=23))
    assert await inbox.forget_handled(AT + timedelta(hours=12)) == 1
    # Update 2 is still known: a repeat of it is recognised.
    assert not await inbox.receive("telegram", 2, {"update_id": 2}, AT)
    assert await inbox.receive("telegram", 1, {"update_id": 1}, AT)  # forgotten: new again
