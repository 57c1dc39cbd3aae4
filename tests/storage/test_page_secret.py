"""The board page's secret: one for every process of a bot, drawn once, kept across restarts;
two processes asking at the same moment on a new database get the same one."""

from __future__ import annotations

import asyncio

from storage import Database, PageSecretRepository


async def test_two_processes_get_the_same_secret(databases: tuple[Database, Database]) -> None:
    first, second = databases
    secrets = await asyncio.gather(
        PageSecretRepository(first).secret(), PageSecretRepository(second).secret()
    )
    assert len(secrets[0]) == 32
    assert secrets[0] == secrets[1]


async def test_the_secret_survives_reopening(migrated_url: str) -> None:
    database = Database(migrated_url)
    drawn = await PageSecretRepository(database).secret()
    await database.close()
    reopened = Database(migrated_url)
    try:
        again = PageSecretRepository(reopened)
        assert await again.secret() == drawn
        assert await again.secret() == drawn
    finally:
        await reopened.close()
