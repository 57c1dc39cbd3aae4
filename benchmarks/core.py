"""The command layer end to end on SQLite: single moves, and 200 matches played at once.

1. One match, one move after another (``/move`` with a legal play: parse, validate, store,
   drive the opponent's automatic roll, render, effects), with and without board pictures.
2. 200 matches started together and driven to their end by scripted players, concurrently,
   with pictures: requests per second, latency p50/p99, and the longest stall of the event
   loop (a watcher task that asks to wake every 5 ms).

Prints one JSON object as its last line.

    python benchmarks/core.py [--matches 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo, and benchmarks/

from benchmarks.chat_player import PLATFORM, Player
from bot.core.model import ChatRef
from bot.core.service import Core
from bot.runtime import freeze_startup_objects
from gammon.flow import Phase
from storage import Database


async def start_match(
    core: Core, chat: ChatRef, first: str, second: str
) -> tuple[Player, Player, int]:
    one, two = Player(core, chat, first), Player(core, chat, second)
    await one.say("challenge", f"@{second} 1", mention=second)
    await two.say("accept")
    chat_row = await core.chats.upsert_chat(PLATFORM, chat.chat_id)
    user = await core.users.upsert_user(PLATFORM, first, first.title())
    loaded = await core.matches.active_match_for(chat_row.id, user.id)
    assert loaded is not None
    return one, two, loaded.info.id


async def play(
    core: Core, players: dict[int, Player], match_id: int, rng: random.Random, timings: list[float]
) -> None:
    for _ in range(5000):
        loaded = await core.matches.load_match(match_id)
        if loaded.info.status != "active":
            return
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        player = players[loaded.info.player_ids[actor]]
        if state.phase is Phase.MOVING:
            timings.append(await player.say("move", str(rng.choice(state.legal_plays()))))
        elif state.phase is Phase.ROLLING:
            timings.append(await player.say("roll"))
        else:
            raise RuntimeError(f"unexpected phase {state.phase}")
    raise RuntimeError("match did not end")


async def single_moves(folder: Path, render: bool) -> list[float]:
    database = Database(f"sqlite+aiosqlite:///{folder / f'single-{render}.db'}")
    await database.migrate()
    core = Core(database, render_images=render)
    await core.painter.start()  # as the host does at start
    timings: list[float] = []
    rng = random.Random(1)
    for number in range(6):
        chat = ChatRef(PLATFORM, f"single-{number}")
        one, two, match_id = await start_match(core, chat, f"a{number}", f"b{number}")
        users = {
            (
                await core.users.upsert_user(PLATFORM, player.actor.user_id, player.actor.name)
            ).id: player
            for player in (one, two)
        }
        moves: list[float] = []
        await play(core, users, match_id, rng, moves)
        timings += moves
    await database.close()
    return timings


async def many_matches(folder: Path, count: int) -> dict[str, float]:
    database = Database(f"sqlite+aiosqlite:///{folder / 'many.db'}")
    await database.migrate()
    core = Core(database, render_images=True)
    stalls: list[float] = []
    stop = asyncio.Event()

    async def watch() -> None:
        while not stop.is_set():
            started = time.perf_counter()
            await asyncio.sleep(0.005)
            stalls.append((time.perf_counter() - started) * 1000 - 5)

    setups = []
    for number in range(count):
        chat = ChatRef(PLATFORM, f"room-{number}")
        one, two, match_id = await start_match(core, chat, f"p{number}", f"q{number}")
        users = {
            (
                await core.users.upsert_user(PLATFORM, player.actor.user_id, player.actor.name)
            ).id: player
            for player in (one, two)
        }
        setups.append((users, match_id))
    timings: list[float] = []
    watcher = asyncio.create_task(watch())
    started = time.perf_counter()
    await asyncio.gather(
        *(
            play(core, users, match_id, random.Random(match_id), timings)
            for users, match_id in setups
        )
    )
    elapsed = time.perf_counter() - started
    stop.set()
    await watcher
    await database.close()
    timings.sort()
    return {
        "concurrent_matches": count,
        "concurrent_requests": len(timings),
        "concurrent_requests_per_second": round(len(timings) / elapsed, 1),
        "concurrent_latency_ms_median": round(statistics.median(timings), 1),
        "concurrent_latency_ms_p99": round(timings[int(len(timings) * 0.99)], 1),
        "event_loop_longest_stall_ms": round(max(stalls), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    arguments = parser.parse_args()
    freeze_startup_objects()  # as the bot does once it has started
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        with_pictures = sorted(asyncio.run(single_moves(folder, True)))
        without = sorted(asyncio.run(single_moves(folder, False)))
        result: dict[str, object] = {
            "single_requests": len(with_pictures),
            "request_ms_median_with_render": round(statistics.median(with_pictures), 2),
            "request_ms_p99_with_render": round(with_pictures[int(len(with_pictures) * 0.99)], 2),
            "request_ms_median_without_render": round(statistics.median(without), 2),
            "request_ms_p99_without_render": round(without[int(len(without) * 0.99)], 2),
        }
        result.update(asyncio.run(many_matches(folder, arguments.matches)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
