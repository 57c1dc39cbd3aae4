"""Concurrent writers: the version check lets exactly one of them win, in one process or two,
on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import sqlalchemy as sa

from gammon.actions import OpeningRoll
from gammon.flow import replay
from storage import ConflictError
from storage.schema import match_events, matches
from tests.storage.players import Table, append_action, open_table

ROOT = Path(__file__).resolve().parents[2]


async def test_fifty_writers_on_one_version_one_wins(table: Table) -> None:
    match = await table.new_match()
    dice = await table.dice.dice_for(match.info.id, 0)

    async def attempt() -> bool:
        try:
            await append_action(table.matches, match.info.id, 0, OpeningRoll(dice))
        except ConflictError:
            return False
        return True

    outcomes = await asyncio.gather(*(attempt() for _ in range(50)))
    assert outcomes.count(True) == 1
    assert len(await table.matches.events(match.info.id)) == 1
    assert (await table.matches.load_match(match.info.id)).info.version == 1


async def test_fifty_writers_on_fifty_matches_all_win(table: Table) -> None:
    created = [await table.new_match() for _ in range(50)]

    async def roll(match_id: int) -> int:
        dice = await table.dice.dice_for(match_id, 0)
        appended = await append_action(table.matches, match_id, 0, OpeningRoll(dice))
        return appended.match.info.version

    versions = await asyncio.gather(*(roll(match.info.id) for match in created))
    assert versions == [1] * 50


async def check_every_match(url: str) -> dict[int, int]:
    """Each log has contiguous sequence numbers matching the version, replays cleanly, and
    agrees with its snapshot (which leaves the history to the log). Returns the versions."""
    table = await open_table(url, migrate=False)
    versions: dict[int, int] = {}
    async with table.database.engine.connect() as connection:
        rows = (await connection.execute(sa.select(matches.c.id, matches.c.version))).all()
        for match_id, version in rows:
            seqs = (
                await connection.execute(
                    sa.select(match_events.c.seq)
                    .where(match_events.c.match_id == match_id)
                    .order_by(match_events.c.seq)
                )
            ).scalars()
            assert list(seqs) == list(range(version)), match_id
            versions[match_id] = version
    for match_id in versions:
        loaded = await table.matches.with_history(await table.matches.load_match(match_id))
        events = await table.matches.events(match_id)
        assert replay(loaded.info.rules, events) == loaded.state
    await table.database.close()
    return versions


def start_writer(
    url: str, seed: int, seconds: float, match_ids: list[int], *, barrier: bool = False
) -> subprocess.Popen[str]:
    """A writer process (tests/storage/writer.py); with ``barrier`` it waits, once ready,
    for :func:`start_together`."""
    environment = dict(os.environ, GAMMONBOT_TEST_WRITER_BARRIER="1" if barrier else "0")
    return subprocess.Popen(
        [sys.executable, "-m", "tests.storage.writer", url, str(seed), str(seconds)]
        + [str(match_id) for match_id in match_ids],
        cwd=ROOT,
        stdin=subprocess.PIPE if barrier else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        env=environment,
    )


def start_together(writers: list[subprocess.Popen[str]]) -> None:
    """Let writers started with ``barrier`` begin at once, when all are ready: how long a
    process takes to start never decides which of them gets to write."""
    for writer in writers:
        assert writer.stdout is not None
        assert writer.stdout.readline() == "ready\n"
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()


def killed_while_writing(writer: subprocess.Popen[str], rng: random.Random) -> str:
    """SIGKILL ``writer`` at a random moment of its first second of writing (after its first
    acknowledged append, however long its start took): all it printed. A writer whose matches
    are all over writes nothing and ends by itself."""
    assert writer.stdout is not None
    first = writer.stdout.readline()
    time.sleep(rng.random())
    writer.send_signal(signal.SIGKILL)
    rest, _ = writer.communicate(timeout=30)
    return first + rest


def acknowledged(output: str) -> dict[int, int]:
    latest: dict[int, int] = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "ack":
            latest[int(parts[1])] = max(latest.get(int(parts[1]), 0), int(parts[2]))
    return latest


async def test_killing_a_writer_never_loses_an_acknowledged_action(
    table: Table, migrated_url: str
) -> None:
    match_ids = [(await table.new_match()).info.id for _ in range(4)]
    url = migrated_url
    await table.database.close()
    rng = random.Random(99)
    promised: dict[int, int] = {}
    for round_number in range(5):
        writer = start_writer(url, round_number, 30.0, match_ids)
        output = killed_while_writing(writer, rng)
        for match_id, version in acknowledged(output).items():
            promised[match_id] = max(promised.get(match_id, 0), version)
    assert promised, "the writer acknowledged nothing before being killed"
    versions = await check_every_match(url)
    for match_id, version in promised.items():
        assert versions[match_id] >= version


async def test_two_processes_on_one_database_neither_corrupt_nor_double_apply(
    table: Table, migrated_url: str, backend: str
) -> None:
    match_ids = [(await table.new_match()).info.id for _ in range(3)]
    url = migrated_url
    await table.database.close()
    writers = [start_writer(url, seed, 4.0, match_ids, barrier=True) for seed in (1, 2)]
    start_together(writers)
    outputs = [writer.communicate(timeout=60)[0] for writer in writers]
    assert all(writer.returncode == 0 for writer in writers)
    acks = [acknowledged(output) for output in outputs]
    assert all(acks), "both processes must have written"
    versions = await check_every_match(url)
    every_ack = [line for output in outputs for line in output.splitlines()]
    # No version was acknowledged twice: two processes never applied on top of the same state.
    assert len(every_ack) == len(set(every_ack))
    assert sum(versions.values()) >= max(sum(ack.values()) for ack in acks)
    if backend == "sqlite":
        assert os.path.exists(url.split("///", 1)[1])
