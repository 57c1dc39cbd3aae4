"""A separate process that keeps appending random actions, printing each acknowledged version.

    python -m tests.storage.writer URL SEED SECONDS MATCH_ID [MATCH_ID ...]

Prints ``ack MATCH VERSION`` after every committed append (flushed at once), so a parent that
kills it knows exactly what was acknowledged. Ends after SECONDS, or sooner once none of its
matches is active any more.

With ``GAMMONBOT_TEST_WRITER_BARRIER=1`` it prints ``ready`` once it can write and waits for a
line on its standard input before it starts: a parent starts several writers at the same
moment, however long each took to start (a busy machine starts processes slowly).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time

from storage import ConflictError
from tests.storage.players import append_action, next_action, open_table


async def main(url: str, seed: int, seconds: float, match_ids: list[int]) -> None:
    table = await open_table(url, migrate=False)
    if os.environ.get("GAMMONBOT_TEST_WRITER_BARRIER") == "1":
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    active = list(match_ids)
    while active and time.monotonic() < deadline:
        match_id = rng.choice(active)
        loaded = await table.matches.load_match(match_id)
        if loaded.info.status != "active":
            active.remove(match_id)
            continue
        action = await next_action(table.dice, match_id, loaded.state, rng)
        try:
            appended = await append_action(table.matches, match_id, loaded.info.version, action)
        except ConflictError:
            continue
        print(f"ack {match_id} {appended.match.info.version}", flush=True)
    await table.database.close()


if __name__ == "__main__":
    asyncio.run(
        main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), list(map(int, sys.argv[4:])))
    )
