"""The board page live: from a tap on [Done] to the opponent's page showing the move, and the
memory an open page costs (issue 40: median <= 150 ms, p99 <= 500 ms with 100 live matches
and 200 open pages; <= 100 KB per open page).

One real ``gammonbot run`` (Telegram webhook mode against the fake Bot API, as
``tests/system``; its web server on; a fresh PostgreSQL database as ``benchmarks/scale.py``).
``--matches`` matches are started in groups through webhook updates (challenge, [Accept]) as
the system tests' players do. Then every player's page opens its stream
(``GET /m/<slug>/play/live``, aiohttp here, the events parsed), says hello with Telegram
initData signed with the fake bot's token as Telegram documents it, and the matches are
played on the page's API (``/play/act``) all at once: each match acts every 1-3 s (staggered),
its player acting only after their own page has shown the state before. A play is the first
complete play along the first edges of the state's plays tree.

Measured:

- ``done_to_opponent_page_ms``: from just before a [Done]'s POST (action ``play``) to the
  moment the opponent's stream delivers a state newer than the one acted on;
- ``roll_to_own_page_ms``: the same for [Roll], on the roller's page; ``act_answer_ms``: the
  POST's own round trip (the core's handling and the chat's board included);
- ``floor_state_round_trip_ms``: ``GET /play/state`` round trips during the play (the same
  server, reads and state without any action), and the ratio of the median to it;
- ``memory_per_open_page_kb``: the bot's RSS (and PSS) with the matches started and no page
  open against the 200 pages open, and again with ``--idle`` more idle streams.

Prints a summary and, as its last line, one JSON object. About 100 s on two cores.

    python benchmarks/live.py [--url postgresql://postgres@127.0.0.1:5432/test]
        [--matches 100] [--seconds 75] [--idle 1000] [--samples FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import hashlib
import hmac
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo

import aiohttp

from benchmarks.scale import DEFAULT_URL, fresh_database, settled
from tests.fakes.telegram_bot_api import TOKEN
from tests.system.cluster import free_port
from tests.system.players import Plan, Table
from tests.system.rig import rig

PACE_S = (1.0, 3.0)  # between two actions of one match
SETTLE_S = 3.0  # after opening or closing pages, before memory is read
STATE_TIMEOUT_S = 30.0
IDLE_BATCH = 100


def machine_speed() -> float:
    """Seconds for ten million additions in a Python loop (this machine's speed)."""
    started = time.perf_counter()
    total = 0
    for number in range(10_000_000):
        total += number
    return time.perf_counter() - started


def init_data(user_id: int, first_name: str, token: str = TOKEN) -> str:
    """Mini App initData for this user, signed as Telegram documents it."""
    fields = {
        "auth_date": str(int(time.time())),
        "query_id": f"AA{user_id}",
        "user": json.dumps({"id": user_id, "first_name": first_name}, separators=(",", ":")),
    }
    check = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def first_play(plays: dict[str, Any]) -> str:
    """The first complete play along first edges of a plays tree."""
    nodes = plays["nodes"]
    node = nodes[0]
    while node["play"] is None:
        node = nodes[node["edges"][0][3]]
    return str(node["play"])


class Page:
    """One open page's stream: the newest state, and who waits for a newer one."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        self.session = session
        self.url = url
        self.state: dict[str, Any] | None = None
        self._waiting: list[tuple[int, asyncio.Future[float]]] = []
        self.opened = asyncio.get_running_loop().create_future()
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async with self.session.get(self.url, timeout=aiohttp.ClientTimeout(total=None)) as got:
            got.raise_for_status()
            kind = ""
            async for raw in got.content:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and kind == "state":
                    self._arrived(json.loads(line[6:]), time.perf_counter())

    def _arrived(self, state: dict[str, Any], at: float) -> None:
        if self.state is None or state["version"] > self.state["version"]:
            self.state = state
        if not self.opened.done():
            self.opened.set_result(at)
        kept = []
        for version, future in self._waiting:
            if state["version"] > version:
                if not future.done():
                    future.set_result(at)
            else:
                kept.append((version, future))
        self._waiting = kept

    async def newer_than(self, version: int) -> float:
        """When this page showed a state newer than ``version`` (perf_counter)."""
        if self.state is not None and self.state["version"] > version:
            return time.perf_counter()
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._waiting.append((version, future))
        return await asyncio.wait_for(future, STATE_TIMEOUT_S)

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


@dataclass
class Figures:
    done_ms: list[float] = field(default_factory=list)
    done_at: list[float] = field(default_factory=list)  # perf_counter at each [Done]
    roll_ms: list[float] = field(default_factory=list)
    answer_ms: list[float] = field(default_factory=list)
    floor_ms: list[float] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    finished: int = 0


@dataclass
class Board:
    """A match as its two players' pages see it."""

    base: str
    people: tuple[dict[str, Any], dict[str, Any]]
    pages: list[Page] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)


async def play(
    session: aiohttp.ClientSession, board: Board, until: float, figures: Figures, seed: int
) -> None:
    rng = random.Random(seed)
    events = 0
    await asyncio.sleep(rng.uniform(0, PACE_S[1]))  # staggered
    while time.perf_counter() < until:
        state = max((page.state for page in board.pages if page.state), key=_version)
        if state["finished"]:
            figures.finished += 1
            return
        seat = state["turn"] if state["turn"] is not None else state["on_roll"]
        body: dict[str, Any] = {"version": state["version"], "id": f"bench{seed:06d}x{events:08d}"}
        events += 1
        if state["phase"] == "moving":
            body |= {"action": "play", "play": first_play(state["plays"])}
        else:
            body["action"] = "roll"
        mine, theirs = board.pages[seat], board.pages[1 - seat]
        await mine.newer_than(state["version"] - 1)  # the actor has seen it
        started = time.perf_counter()
        headers = {"Authorization": f"Bearer {board.keys[seat]}"}
        async with session.post(f"{board.base}/act", json=body, headers=headers) as answer:
            text = await answer.text()
        figures.answer_ms.append((time.perf_counter() - started) * 1000)
        if answer.status != 200:
            figures.refused.append(f"{answer.status} {text[:120]}")
            await asyncio.sleep(0.5)
            continue
        if body["action"] == "play":
            shown = await theirs.newer_than(state["version"])
            figures.done_ms.append((shown - started) * 1000)
            figures.done_at.append(started)
        else:
            shown = await mine.newer_than(state["version"])
            figures.roll_ms.append((shown - started) * 1000)
        await mine.newer_than(state["version"])
        await asyncio.sleep(rng.uniform(*PACE_S))


def _version(state: dict[str, Any]) -> int:
    return int(state["version"])


async def floor(
    session: aiohttp.ClientSession, bases: list[str], until: float, out: Figures
) -> None:
    """GET /play/state round trips, one every 0.1 s, during the play."""
    number = 0
    while time.perf_counter() < until:
        started = time.perf_counter()
        async with session.get(f"{bases[number % len(bases)]}/state") as answer:
            await answer.read()
        out.floor_ms.append((time.perf_counter() - started) * 1000)
        number += 1
        await asyncio.sleep(0.1)


def memory_kb(pid: int) -> tuple[int, int]:
    """The process's RSS and PSS in KB."""
    rss = pss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            pss = int(line.split()[1])
    return rss, pss


async def open_pages(session: aiohttp.ClientSession, urls: list[str]) -> list[Page]:
    pages = [Page(session, url) for url in urls]
    await asyncio.wait_for(asyncio.gather(*(page.opened for page in pages)), 60)
    return pages


async def settled_memory(pid: int) -> tuple[int, int]:
    await asyncio.sleep(SETTLE_S)
    return memory_kb(pid)


def percentiles(values: list[float]) -> dict[str, Any]:
    ordered = sorted(values)
    if not ordered:
        return {"samples": 0}

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)

    return {
        "median": round(statistics.median(ordered), 1),
        "p90": at(0.9),
        "p99": at(0.99),
        "max": round(ordered[-1], 1),
        "samples": len(ordered),
    }


async def bench(url: str, arguments: argparse.Namespace) -> dict[str, Any]:
    port = free_port()
    settings = {
        "WEB_BASE_URL": f"http://127.0.0.1:{port}",
        "WEB_PORT": str(port),
        # The streams may take half the connections (bot/web/live.py): room for all of them.
        "WEB_MAX_CONNECTIONS": str(2 * (arguments.matches * 2 + arguments.idle) + 100),
    }
    web = f"http://127.0.0.1:{port}"
    result: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        async with rig(url, 1, Path(folder), settings) as bots:
            pid = bots.cluster.processes[0].popen.pid  # type: ignore[union-attr]
            await settled(bots.cluster)
            tables = [Table(n, Plan(actions=0)) for n in range(arguments.matches)]
            await asyncio.gather(*(bots.driver.play(table) for table in tables))
            boards = []
            for table in tables:
                assert table.match_id is not None
                info = (await bots.driver.matches.load_match(table.match_id)).info
                boards.append(Board(f"{web}/m/{info.slug}/play", table.people))
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as session:
                await settled(bots.cluster)
                gc.collect()
                no_pages = await settled_memory(pid)
                pages = await open_pages(
                    session, [f"{b.base}/live" for b in boards for _ in range(2)]
                )
                for number, board in enumerate(boards):
                    board.pages = pages[2 * number : 2 * number + 2]
                with_pages = await settled_memory(pid)
                for board in boards:
                    for person in board.people:
                        body = {"init_data": init_data(person["id"], person["first_name"])}
                        async with session.post(f"{board.base}/hello", json=body) as answer:
                            said = await answer.json()
                            assert answer.status == 200, said
                        board.keys.append(said["key"])
                figures = Figures()
                until = time.perf_counter() + arguments.seconds
                cpu_before = bots.cluster.cpu_seconds()[0]
                started = time.perf_counter()
                await asyncio.gather(
                    floor(session, [b.base for b in boards], until, figures),
                    *(play(session, b, until, figures, n) for n, b in enumerate(boards)),
                )
                played_s = time.perf_counter() - started
                cpu_after = bots.cluster.cpu_seconds()[0]
                after_play = await settled_memory(pid)
                idle = await open_pages(
                    session, [f"{boards[n % len(boards)].base}/live" for n in range(arguments.idle)]
                )
                with_idle = await settled_memory(pid)
                for page in pages + idle:
                    await page.close()
            await bots.cluster.stop_all()
    result |= {
        "figures": figures,
        "played_s": played_s,
        "cpu_s": [round(b - a, 1) for a, b in zip(cpu_before, cpu_after, strict=True)],
        "memory": {
            "no_pages": no_pages,
            "with_pages": with_pages,
            "after_play": after_play,
            "with_idle": with_idle,
        },
    }
    return result


def per_page(before: tuple[int, int], after: tuple[int, int], count: int) -> tuple[float, float]:
    return round((after[0] - before[0]) / count, 1), round((after[1] - before[1]) / count, 1)


async def main(arguments: argparse.Namespace) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the bot inherits it
    speed = machine_speed()
    began = time.perf_counter()
    with fresh_database(arguments.url, f"gammonbot_live_{os.getpid()}") as url:
        found = await bench(url, arguments)
    figures: Figures = found["figures"]
    memory = found["memory"]
    pages = arguments.matches * 2
    rss, pss = per_page(memory["no_pages"], memory["with_pages"], pages)
    idle_rss, idle_pss = per_page(memory["after_play"], memory["with_idle"], arguments.idle)
    done = percentiles(figures.done_ms)
    floor_figures = percentiles(figures.floor_ms)
    result = {
        "done_to_opponent_page_ms": done,
        "roll_to_own_page_ms": percentiles(figures.roll_ms),
        "act_answer_ms": percentiles(figures.answer_ms),
        "floor_state_round_trip_ms": floor_figures,
        "done_median_over_floor_median": round(done["median"] / floor_figures["median"], 1),
        "memory_per_open_page_kb": rss,
        "memory_per_open_page_pss_kb": pss,
        "memory_per_idle_stream_kb": idle_rss,
        "memory_per_idle_stream_pss_kb": idle_pss,
        "memory_kb": memory,
        "idle_streams": arguments.idle,
        "matches": arguments.matches,
        "open_pages": pages,
        "matches_finished": figures.finished,
        "refused_actions": len(figures.refused),
        "refusals_seen": sorted(set(figures.refused))[:5],
        "play_seconds": round(found["played_s"], 1),
        "bot_cpu_seconds_during_play": found["cpu_s"],
        "benchmark_seconds": round(time.perf_counter() - began, 1),
        "cores": os.cpu_count(),
        "machine_speed_10M_additions_s": round(speed, 2),
    }
    print(
        f"done -> opponent's page: {done}\nfloor GET /play/state: {floor_figures}\n"
        f"memory per open page: {rss} KB RSS ({pss} KB PSS); per idle stream: {idle_rss} KB"
    )
    if arguments.samples:
        first = min(figures.done_at, default=0.0)
        pairs = zip(figures.done_at, figures.done_ms, strict=True)
        samples = [[round(at - first, 3), round(ms, 1)] for at, ms in pairs]
        Path(arguments.samples).write_text(json.dumps(samples))
    print(json.dumps(result))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=DEFAULT_URL, help="the PostgreSQL server to use")
    parser.add_argument("--matches", type=int, default=100, help="matches played at once")
    parser.add_argument("--seconds", type=float, default=75.0, help="seconds of play")
    parser.add_argument("--idle", type=int, default=1000, help="idle streams opened at the end")
    parser.add_argument("--samples", help="a file for every [Done]'s start (s) and time (ms)")
    asyncio.run(main(parser.parse_args()))
