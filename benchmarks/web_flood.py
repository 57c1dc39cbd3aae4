"""A stranger's flood of page requests: ``--total`` requests, ``--at-once`` of them in flight.

    python benchmarks/web_flood.py [--total 3000] [--at-once 64] URL...

Run by ``benchmarks/web.py`` as a process of its own, so the flood's client takes no time from
the bot's event loop it measures. The URLs are asked for in turn; each request has a
connection of its own (as many different visitors would), and waits for the whole answer.
Prints ``flooding`` as it begins, and at the end one JSON object: how many answers of each
status, and seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import time
from collections import Counter

import aiohttp


async def flood(urls: list[str], total: int, at_once: int) -> dict[str, object]:
    statuses: Counter[str] = Counter()
    turns = iter(itertools.islice(itertools.cycle(urls), total))
    timeout = aiohttp.ClientTimeout(total=120)

    async def visitor() -> None:
        connector = aiohttp.TCPConnector(force_close=True)
        async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
            for url in turns:
                try:
                    async with session.get(url) as response:
                        await response.read()
                        statuses[str(response.status)] += 1
                except (aiohttp.ClientError, TimeoutError):
                    statuses["failed"] += 1

    print("flooding", flush=True)  # the caller times its chats from here
    started = time.perf_counter()
    await asyncio.gather(*(visitor() for _ in range(at_once)))
    return {"statuses": dict(statuses), "seconds": round(time.perf_counter() - started, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, default=3000)
    parser.add_argument("--at-once", type=int, default=64)
    parser.add_argument("urls", nargs="+")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(flood(args.urls, args.total, args.at_once))), flush=True)


if __name__ == "__main__":
    main()
