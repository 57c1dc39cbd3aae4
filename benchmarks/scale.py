"""Actions per second with 1, 2 and 4 ``gammonbot run`` processes on one PostgreSQL database.

The harness of ``tests/system`` (real processes in Telegram webhook mode, the fake Bot API over
HTTP on 127.0.0.1, updates POSTed round-robin with the webhook secret, at most 40 calls in
flight as Telegram's default) plays a fixed load: ``--tables`` group chats, each a challenge,
the accept and ``--actions`` more actions (rolls pressed, legal moves typed), every person
acting the moment the bot has handled the step before (no think time), at most
``--in-flight`` updates being handled at once: as fast as the processes absorb them. Boards
are drawn as in production (each process's painter, one drawing process on two cores);
Telegram's flood limits are off (``TELEGRAM_FLOOD_LIMITS=false``): they would measure the
limiter, 30 calls a second per process.

For each number of processes, on a fresh database created and dropped here, once the
processes have started and warmed up (their CPU time stops growing):

- ``actions_per_second_N_process(es)``: acknowledged updates (challenges, accepts, rolls,
  moves: each makes something in the database) handled per second, from the first POST to
  the last update marked handled;
- ``latency_ms_median_…`` and ``latency_ms_p99_…``: from an update's POST to its being
  marked handled (its answer posted);
- ``cpu_seconds_…``: CPU time of each bot process (``bots``: its event loop; ``bot_workers``:
  its drawing and engine processes), of this process (``harness``: the fake Bot API and the
  players) and of the PostgreSQL server's processes (all of them, as a delta).

And the machine's floor: boards drawn per second through the bot's painter with nothing else
running, with one drawing process (as each bot has on two cores) and with one per core
(``boards_per_second_floor_1_process``, ``…_2_processes``): each action draws about one board,
so the cores' floor bounds the curve whatever the number of processes.

Prints a short summary and, as its last line, one JSON object. About two minutes on two cores.

    python benchmarks/scale.py [--url postgresql://postgres@127.0.0.1:5432/test]
        [--processes 1,2,4] [--tables 200] [--actions 4] [--in-flight 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from bot.core.runtime.painter import Painter
from rendering import BoardView, render_board
from tests.system.cluster import Cluster, cpu_seconds
from tests.system.inbox_watch import libpq_url
from tests.system.players import IN_FLIGHT, Plan, Table
from tests.system.rig import rig

DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/test"
QUIET_WINDOW_S = 0.5
QUIET_CPU_S = 0.1  # all processes together, in the window: idle
SETTLE_TIMEOUT_S = 30.0
FLOOR_BOARDS = 400
FLOOR_IN_FLIGHT = 8  # per drawing process
FLOOR_POSITIONS = (  # (position ID, match ID): the opening, and a middle game with dice
    ("4HPwATDgc/ABMA", "cAkAAAAAAAAA"),
    ("yOfgATDgc/ABMA", "MIFlAAAAAAAA"),
)


@contextmanager
def fresh_database(server: str, name: str) -> Iterator[str]:
    """A new database on the server at ``server``, dropped afterwards: its URL."""
    admin = psycopg.connect(libpq_url(server), autocommit=True)
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    try:
        admin.execute(drop)
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        admin.execute(drop)
        admin.close()


def postgres_cpu_seconds() -> float:
    """CPU time of every process named postgres on this machine (the server's)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "comm").read_text().strip() == "postgres":
                total += cpu_seconds(int(entry.name))[0]  # backends are children: own only
        except OSError:
            continue
    return total


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run(url: str, processes: int, arguments: argparse.Namespace) -> dict[str, Any]:
    """One load on ``processes`` processes: the figures of the docstring."""
    played = [Table(n, Plan(actions=arguments.actions)) for n in range(arguments.tables)]
    with tempfile.TemporaryDirectory() as folder:
        async with rig(url, processes, Path(folder), in_flight=arguments.in_flight) as bots:
            await settled(bots.cluster)
            before = (own_cpu_seconds(), postgres_cpu_seconds(), bots.cluster.cpu_seconds())
            started = time.perf_counter()
            await asyncio.gather(*(bots.driver.play(table) for table in played))
            seconds = time.perf_counter() - started
            after = (own_cpu_seconds(), postgres_cpu_seconds(), bots.cluster.cpu_seconds())
            codes = await bots.cluster.stop_all()
    if codes != [0] * processes:
        raise RuntimeError(f"the processes exited with {codes}")
    sent = [step for table in played for step in table.sent]
    latencies = sorted(
        (step.handled_at - step.posted_at).total_seconds() * 1000
        for step in sent
        if step.handled_at is not None
    )
    return {
        "processes": processes,
        "updates": len(sent),
        "seconds": round(seconds, 2),
        "actions_per_second": round(len(sent) / seconds, 1),
        "latency_ms_median": round(statistics.median(latencies), 1),
        "latency_ms_p99": round(latencies[int(0.99 * (len(latencies) - 1))], 1),
        "cpu_seconds_bots": _spent(before[2], after[2], 0),
        "cpu_seconds_bot_workers": _spent(before[2], after[2], 1),
        "cpu_seconds_harness": round(after[0] - before[0], 1),
        "cpu_seconds_postgres": round(after[1] - before[1], 1),
    }


async def settled(cluster: Cluster) -> None:
    """Until the processes have warmed up (their engine workers load the neural net after
    the bot reports it runs): their CPU time grows by less than :data:`QUIET_CPU_S` in
    :data:`QUIET_WINDOW_S`, or :data:`SETTLE_TIMEOUT_S` has passed."""
    deadline = time.monotonic() + SETTLE_TIMEOUT_S
    spent = sum(map(sum, cluster.cpu_seconds()))
    while time.monotonic() < deadline:
        await asyncio.sleep(QUIET_WINDOW_S)
        now = sum(map(sum, cluster.cpu_seconds()))
        if now - spent < QUIET_CPU_S:
            return
        spent = now


def _spent(
    before: list[tuple[float, float]], after: list[tuple[float, float]], which: int
) -> list[float]:
    return [round(b[which] - a[which], 1) for a, b in zip(before, after, strict=True)]


async def boards_per_second(processes: int) -> float:
    """Boards drawn per second through the bot's painter with ``processes`` drawing
    processes kept busy, nothing else running."""
    painter = Painter(processes=processes)
    await painter.start()
    drawings = [
        partial(render_board, BoardView.from_ids(position, match))
        for position, match in FLOOR_POSITIONS
    ]
    in_flight = FLOOR_IN_FLIGHT * max(1, processes)
    numbers = iter(range(FLOOR_BOARDS))

    async def draw() -> None:
        for number in numbers:
            await painter.paint(drawings[number % len(drawings)])

    try:
        await asyncio.gather(*(painter.paint(d) for d in drawings * in_flight))  # warm
        started = time.perf_counter()
        await asyncio.gather(*(draw() for _ in range(in_flight)))
        return FLOOR_BOARDS / (time.perf_counter() - started)
    finally:
        painter.close()


def _summary(processes: int, figures: dict[str, Any]) -> str:
    return (
        f"{processes} process(es): {figures['updates']} updates in {figures['seconds']} s, "
        f"{figures['actions_per_second']}/s; latency {figures['latency_ms_median']} ms median, "
        f"{figures['latency_ms_p99']} ms p99; CPU s: bots {figures['cpu_seconds_bots']}, "
        f"their workers {figures['cpu_seconds_bot_workers']}, harness "
        f"{figures['cpu_seconds_harness']}, PostgreSQL {figures['cpu_seconds_postgres']}"
    )


def _suffix(processes: int) -> str:
    return f"{processes}_process" if processes == 1 else f"{processes}_processes"


async def main(arguments: argparse.Namespace) -> None:
    counts = [int(word) for word in arguments.processes.split(",")]
    result: dict[str, Any] = {
        "cores": os.cpu_count(),
        "tables": arguments.tables,
        "actions_per_table": arguments.actions + 2,
        "in_flight": arguments.in_flight,
        "load_average_before": os.getloadavg()[0],
    }
    for processes in counts:
        name = f"gammonbot_scale_{os.getpid()}_{processes}"
        with fresh_database(arguments.url, name) as url:
            figures = await run(url, processes, arguments)
        print(_summary(processes, figures), flush=True)
        suffix = _suffix(processes)
        for key in (
            "actions_per_second",
            "latency_ms_median",
            "latency_ms_p99",
            "cpu_seconds_bots",
            "cpu_seconds_bot_workers",
            "cpu_seconds_harness",
            "cpu_seconds_postgres",
            "seconds",
            "updates",
        ):
            result[f"{key}_{suffix}"] = figures[key]
    for processes in (1, 2):
        floor = await boards_per_second(processes)
        print(f"floor: {floor:.1f} boards a second with {processes} drawing process(es)")
        result[f"boards_per_second_floor_{_suffix(processes)}"] = round(floor, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=DEFAULT_URL, help="the PostgreSQL server to use")
    parser.add_argument("--processes", default="1,2,4", help="numbers of processes to run")
    parser.add_argument("--tables", type=int, default=200, help="matches played at once")
    parser.add_argument("--actions", type=int, default=4, help="actions after each accept")
    parser.add_argument("--in-flight", type=int, default=IN_FLIGHT, help="updates at once, most")
    asyncio.run(main(parser.parse_args()))
