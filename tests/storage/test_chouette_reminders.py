"""The chouette clock's reminders claimed by several processes at the same moment (two
Database objects, each with its own connections), on SQLite and on PostgreSQL under READ
COMMITTED: each reminder of a session's version is claimed once, a later reminder of the
same version once more, and nothing of a version the session has left."""

from __future__ import annotations

import asyncio

import pytest

from gammon.actions import OpeningRoll
from gammon.chouette import BoardAction
from storage import ChouetteRepository, Database
from tests.storage.pauses import pause_after_first_statement
from tests.storage.test_chouettes import Playing, make_club, start

# The stages of bot/core/chouette/clock.py (storage only compares their numbers).
HALF_TIME, LAST_HOUR = 1, 2
DAY = 24 * 3600


async def _timed_game(database: Database) -> Playing:
    """A chouette game with a day's move time limit, just started (no action yet)."""
    club = await make_club(database)
    return await start(club, await club.open(limit=DAY))


@pytest.mark.parametrize("clocks", [2, 8])
async def test_one_of_several_clocks_claims_each_reminder(
    databases: tuple[Database, Database], clocks: int
) -> None:
    first, second = databases
    playing = await _timed_game(first)
    repositories = [ChouetteRepository(databases[n % 2]) for n in range(clocks)]
    chouette_id, version = playing.info.id, playing.version

    async def claims(stage: int, at: int) -> list[bool]:
        return list(
            await asyncio.gather(
                *(repository.claim_reminder(chouette_id, at, stage) for repository in repositories)
            )
        )

    assert (await claims(HALF_TIME, version)).count(True) == 1
    assert await ChouetteRepository(second).reminded(chouette_id) == (version, HALF_TIME)
    assert await claims(HALF_TIME, version) == [False] * clocks  # sent already
    assert (await claims(LAST_HOUR, version)).count(True) == 1  # the later reminder, once
    assert await claims(HALF_TIME, version) == [False] * clocks  # an earlier one never after it

    # The session moves on: its new version's reminders go out again, the old one's never.
    await playing.act(BoardAction(playing.game.table.box, OpeningRoll((6, 1))))
    assert playing.version == version + 1
    assert (await claims(HALF_TIME, playing.version)).count(True) == 1
    assert await claims(LAST_HOUR, version) == [False] * clocks
    assert await ChouetteRepository(first).reminded(chouette_id) == (playing.version, HALF_TIME)


async def test_a_claim_waits_for_one_not_yet_committed(
    databases: tuple[Database, Database],
) -> None:
    """The first clock stalls right after its first statement (the session's row written onto
    itself); the second claims the same reminder meanwhile. It must wait for the first and
    then read its mark, not read no mark yet and claim the reminder too."""
    first, second = databases
    playing = await _timed_game(first)
    chouette_id, version = playing.info.id, playing.version
    paused = pause_after_first_statement(first, "UPDATE chouettes")
    slow = asyncio.create_task(
        ChouetteRepository(first).claim_reminder(chouette_id, version, HALF_TIME)
    )
    assert await asyncio.to_thread(paused.wait, 5)
    assert await ChouetteRepository(second).claim_reminder(chouette_id, version, HALF_TIME) is False
    assert await slow is True
    assert await ChouetteRepository(second).reminded(chouette_id) == (version, HALF_TIME)
