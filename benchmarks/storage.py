"""Storage speed on a big database: appending an action and loading an active match.

Builds a SQLite database holding 100,000 finished matches and 1,000 active ones (events and
snapshots copied from seeded self-play matches, so every row is a real, replayable record),
then times ``append_action`` (load, version check, engine, event insert, snapshot update,
commit) and ``load_match`` on the active matches. Prints one JSON object as its last line:
medians and p99 in ms, and the database size per finished match as the database grows.

    python benchmarks/storage.py [--finished 100000] [--active 1000] [--keep PATH [--reuse]]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gammon.actions import action_to_dict
from gammon.fair_dice import commitment
from gammon.flow import MatchState, replay
from gammon.match_rules import MatchRules
from gammon.serialization import state_to_dict
from storage import ConflictError, Database, MatchRepository
from tests.gammon.selfplay import play_random_match
from tests.storage.players import next_action

TEMPLATES = 40
SAMPLES = 400
NOW = datetime(2026, 11, 29, tzinfo=UTC).replace(tzinfo=None).isoformat(sep=" ")


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def templates(rng: random.Random) -> list[tuple[MatchRules, MatchState]]:
    found = []
    for number in range(TEMPLATES):
        rules = MatchRules(
            length=rng.choice([1, 3, 5]), variant="long_nardy" if number % 8 == 7 else "backgammon"
        )
        found.append((rules, play_random_match(rng, length=rules.length, rules=rules)))
    return found


def insert_matches(
    connection: sqlite3.Connection,
    first_id: int,
    count: int,
    cases: list[tuple[MatchRules, MatchState, list[str], str]],
    status: str,
) -> None:
    match_rows = []
    event_rows = []
    for offset in range(count):
        match_id = first_id + offset
        rules, state, events, snapshot = cases[offset % len(cases)]
        players = (1 + (2 * match_id) % 2000, 2 + (2 * match_id) % 2000)
        seed = os.urandom(32)
        match_rows.append(
            (
                match_id,
                1 + match_id % 500,
                players[0],
                players[1],
                rules.variant.value,
                json.dumps(rules.to_dict()),
                status,
                len(events),
                snapshot,
                len(events),
                players[state.turn] if status == "active" and state.turn is not None else None,
                commitment(seed),
                seed.hex(),
                "seed-a",
                "seed-b",
                None,
                None,
                "{}",
                NOW,
                NOW,
                NOW if status == "finished" else None,
            )
        )
        event_rows.extend((match_id, seq, None, action, NOW) for seq, action in enumerate(events))
    connection.executemany("INSERT INTO matches VALUES (" + ",".join("?" * 21) + ")", match_rows)
    connection.executemany("INSERT INTO match_events VALUES (?,?,?,?,?)", event_rows)


def build(path: Path, finished: int, active: int, rng: random.Random) -> list[tuple[int, int]]:
    """Fill the database; returns (finished matches, bytes) as it grows."""
    asyncio.run(_migrate(path))
    done = templates(rng)
    finished_cases = [
        (
            rules,
            state,
            [compact(action_to_dict(action)) for action in state.actions],
            compact(state_to_dict(state)),
        )
        for rules, state in done
    ]
    active_cases = []
    for rules, state in done:
        cut = rng.randint(1, max(1, len(state.actions) - 1))
        prefix = replay(rules, state.actions[:cut])
        if prefix.phase.value == "moving" and not prefix.legal_plays():
            prefix = replay(rules, state.actions[: cut + 1])  # a roll and its dance go together
        if prefix.phase.value != "finished":
            active_cases.append(
                (
                    rules,
                    prefix,
                    [compact(action_to_dict(action)) for action in prefix.actions],
                    compact(state_to_dict(prefix)),
                )
            )
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=OFF")
    connection.executemany(
        "INSERT INTO users VALUES (?,?,?,?,?,?,?)",
        [
            (user, "telegram", str(user), f"Player {user}", None, "{}", NOW)
            for user in range(1, 2001)
        ],
    )
    connection.executemany(
        "INSERT INTO chats VALUES (?,?,?,?,?,?)",
        [(chat, "telegram", str(-chat), None, "{}", NOW) for chat in range(1, 501)],
    )
    growth = []
    batch = 10_000
    for start in range(0, finished, batch):
        insert_matches(
            connection, 1 + start, min(batch, finished - start), finished_cases, "finished"
        )
        connection.commit()
        if (start + batch) in (10_000, 50_000) or start + batch >= finished:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            growth.append((min(start + batch, finished), path.stat().st_size))
    insert_matches(connection, 1 + finished, active, active_cases, "active")
    connection.commit()
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connection.execute("ANALYZE")
    connection.close()
    return growth


async def _migrate(path: Path) -> None:
    database = Database(f"sqlite+aiosqlite:///{path}")
    await database.migrate()
    await database.close()


async def measure(path: Path, finished: int, active: int, rng: random.Random) -> dict[str, float]:
    database = Database(f"sqlite+aiosqlite:///{path}")
    matches = MatchRepository(database)
    active_ids = list(range(1 + finished, 1 + finished + active))
    loads: list[float] = []
    appends: list[float] = []
    for _ in range(SAMPLES):
        match_id = rng.choice(active_ids)
        started = time.perf_counter()
        loaded = await matches.load_match(match_id)
        loads.append((time.perf_counter() - started) * 1000)
        if loaded.info.status != "active":
            continue
        action = await next_action(matches, match_id, loaded.state, rng)
        started = time.perf_counter()
        try:
            await matches.append_action(match_id, loaded.info.version, action)
        except ConflictError:
            continue
        appends.append((time.perf_counter() - started) * 1000)
    await database.close()
    loads.sort()
    appends.sort()
    return {
        "append_ms_median": round(statistics.median(appends), 3),
        "append_ms_p99": round(appends[int(len(appends) * 0.99)], 3),
        "load_active_ms_median": round(statistics.median(loads), 3),
        "load_active_ms_p99": round(loads[int(len(loads) * 0.99)], 3),
        "appends_measured": len(appends),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--keep", type=Path, help="build the database here and keep it")
    parser.add_argument(
        "--reuse", action="store_true", help="with --keep: measure an existing database again"
    )
    arguments = parser.parse_args()
    rng = random.Random(7)
    folder = tempfile.TemporaryDirectory()
    path = arguments.keep or Path(folder.name) / "bench.db"
    started = time.perf_counter()
    if arguments.reuse and arguments.keep and path.exists():
        growth = [(arguments.finished, path.stat().st_size)]
    else:
        growth = build(path, arguments.finished, arguments.active, rng)
    build_seconds = time.perf_counter() - started
    result: dict[str, object] = {
        "finished_matches": arguments.finished,
        "active_matches": arguments.active,
        "build_seconds": round(build_seconds, 1),
    }
    result.update(asyncio.run(measure(path, arguments.finished, arguments.active, rng)))
    for count, size in growth:
        result[f"bytes_per_finished_match_at_{count}"] = round(size / count)
    result["database_mb"] = round(path.stat().st_size / 2**20, 1)
    with sqlite3.connect(path) as connection:
        events = connection.execute("SELECT count(*) FROM match_events").fetchone()[0]
    result["events"] = events
    result["events_per_finished_match"] = round(events / (arguments.finished + arguments.active))
    result["bytes_per_event"] = round(path.stat().st_size / events)
    print(json.dumps(result))
    folder.cleanup()


if __name__ == "__main__":
    main()
