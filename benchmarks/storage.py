"""Storage speed on a big database: appending an action and loading an active match.

Builds a SQLite database holding 100,000 finished matches and 1,000 active ones (events and
snapshots copied from seeded self-play matches, so every row is a real, replayable record),
then times an append (the rules engine applying the action, then storage's version check,
event insert, snapshot update and commit) and ``load_match`` on the active matches. Prints one
JSON object as its last line: medians and p99 in ms, and the database size per finished match
as the database grows.

It also times the append along one long money session, at move 10 and at move 400: the
snapshot leaves the history to the event log, so both should cost the same. Each point is a
few hundred copies of the session cut there (one append timed on each, its state in memory as
for a match being played), in a small database of its own. ``--long-match-only`` runs just
that part, in seconds.

    python benchmarks/storage.py [--finished 100000] [--active 1000] [--keep PATH [--reuse]]
    python benchmarks/storage.py --long-match-only [--samples 300]
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

from gammon.actions import Action, action_to_dict
from gammon.fair_dice import commitment
from gammon.flow import MatchState, Phase, plan, replay
from gammon.match_rules import MatchRules
from gammon.position import Variant
from gammon.serialization import state_to_dict
from storage import ConflictError, Database, DiceRepository, MatchRepository
from tests.gammon.selfplay import play_random_match
from tests.storage.players import next_action


def _no_dice(nonce: int) -> tuple[int, int]:
    raise AssertionError("the actions carry their own dice")


TEMPLATES = 40
SAMPLES = 400
LONG_MATCH_MOVES = (10, 400)
LONG_MATCH_SAMPLES = 300
NOW = datetime(2026, 11, 29, tzinfo=UTC).replace(tzinfo=None).isoformat(sep=" ")


Case = tuple[MatchRules, MatchState, list[str], str | None]


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def case(rules: MatchRules, state: MatchState) -> Case:
    """A match's rows as storage writes them: its events, and a snapshot without the history
    (none once the match is finished)."""
    finished = state.phase is Phase.FINISHED
    return (
        rules,
        state,
        [compact(action_to_dict(action)) for action in state.actions],
        None if finished else compact(state_to_dict(state, with_actions=False)),
    )


def cut(rules: MatchRules, actions: tuple[Action, ...], count: int) -> MatchState:
    """The state after the first ``count`` actions (one more when the last is a roll that
    cannot be played: a roll and its dance are written together)."""
    prefix = replay(rules, actions[:count])
    if prefix.phase is Phase.MOVING and not prefix.legal_plays():
        prefix = replay(rules, actions[: count + 1])
    return prefix


def templates(rng: random.Random) -> list[tuple[MatchRules, MatchState]]:
    found = []
    for number in range(TEMPLATES):
        rules = MatchRules(
            length=rng.choice([1, 3, 5]),
            variant=Variant.LONG_NARDY if number % 8 == 7 else Variant.BACKGAMMON,
        )
        found.append((rules, play_random_match(rng, length=rules.length, rules=rules)))
    return found


def insert_matches(
    connection: sqlite3.Connection,
    first_id: int,
    count: int,
    cases: list[Case],
    status: str,
) -> None:
    match_rows = []
    event_rows: list[tuple[int, int, None, str, str]] = []
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


def open_filled(path: Path) -> sqlite3.Connection:
    """The migrated database, opened for bulk inserts, with the users and chats that the
    inserted matches refer to."""
    asyncio.run(_migrate(path))
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=OFF")
    connection.executemany(
        "INSERT INTO users (id, platform, platform_user_id, display_name, locale, preferences, "
        "created_at) VALUES (?,?,?,?,?,?,?)",
        [
            (user, "telegram", str(user), f"Player {user}", None, "{}", NOW)
            for user in range(1, 2001)
        ],
    )
    connection.executemany(
        "INSERT INTO chats (id, platform, platform_chat_id, locale, settings, created_at) "
        "VALUES (?,?,?,?,?,?)",
        [(chat, "telegram", str(-chat), None, "{}", NOW) for chat in range(1, 501)],
    )
    return connection


def build(path: Path, finished: int, active: int, rng: random.Random) -> list[tuple[int, int]]:
    """Fill the database; returns (finished matches, bytes) as it grows."""
    done = templates(rng)
    finished_cases = [case(rules, state) for rules, state in done]
    active_cases = []
    for rules, state in done:
        prefix = cut(rules, state.actions, rng.randint(1, max(1, len(state.actions) - 1)))
        if prefix.phase is not Phase.FINISHED:
            active_cases.append(case(rules, prefix))
    connection = open_filled(path)
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
    dice = DiceRepository(database)
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
        action = await next_action(dice, match_id, loaded.state, rng)
        started = time.perf_counter()
        try:
            await matches.append(
                match_id, loaded.info.version, plan(loaded.state, action, None, _no_dice)
            )
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


def long_match(folder: Path, samples: int, rng: random.Random) -> dict[str, float]:
    """The append at move 10 and at move 400 of one long money session: ``samples`` copies of
    the session cut at each point, one append timed on each."""
    rules = MatchRules(length=0)
    session = play_random_match(rng, length=0, rules=rules, max_games=100)
    if len(session.actions) <= max(LONG_MATCH_MOVES) + 1:
        raise RuntimeError("the money session is too short; try another seed")
    path = folder / "long.db"
    connection = open_filled(path)
    first_ids = {}
    result: dict[str, float] = {}
    for number, move in enumerate(LONG_MATCH_MOVES):
        first_ids[move] = 1 + number * samples
        state = cut(rules, session.actions, move)
        insert_matches(connection, first_ids[move], samples, [case(rules, state)], "active")
        # The snapshot still holds one short result per finished game.
        result[f"finished_games_at_move_{move}"] = len(state.games)
    connection.commit()
    connection.close()
    result.update(asyncio.run(_time_long_match(path, first_ids, samples, rng)))
    return result


async def _time_long_match(
    path: Path, first_ids: dict[int, int], samples: int, rng: random.Random
) -> dict[str, float]:
    database = Database(f"sqlite+aiosqlite:///{path}")
    matches = MatchRepository(database)
    dice = DiceRepository(database)
    times: dict[int, list[float]] = {move: [] for move in first_ids}
    for index in range(samples):
        for move, first_id in first_ids.items():  # the two points take turns: same conditions
            match_id = first_id + index
            loaded = await matches.load_match(match_id)  # in memory, as for a match in play
            action = await next_action(dice, match_id, loaded.state, rng)
            started = time.perf_counter()
            await matches.append(
                match_id, loaded.info.version, plan(loaded.state, action, None, _no_dice)
            )
            times[move].append((time.perf_counter() - started) * 1000)
    await database.close()
    result: dict[str, float] = {}
    with sqlite3.connect(path) as connection:
        for move, first_id in first_ids.items():
            found = times[move]
            found.sort()
            size, version = connection.execute(
                "SELECT length(snapshot), version FROM matches WHERE id = ?", (first_id,)
            ).fetchone()
            result[f"append_ms_median_at_move_{move}"] = round(statistics.median(found), 3)
            result[f"append_ms_p99_at_move_{move}"] = round(found[int(len(found) * 0.99)], 3)
            result[f"snapshot_bytes_after_append_at_move_{move}"] = size
            result[f"version_after_append_at_move_{move}"] = version
    result["appends_measured_per_move"] = samples
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--keep", type=Path, help="build the database here and keep it")
    parser.add_argument(
        "--reuse", action="store_true", help="with --keep: measure an existing database again"
    )
    parser.add_argument(
        "--long-match-only",
        action="store_true",
        help="time only the appends at move 10 and 400 of one long match (seconds)",
    )
    parser.add_argument(
        "--samples", type=int, default=LONG_MATCH_SAMPLES, help="appends timed at each move"
    )
    arguments = parser.parse_args()
    rng = random.Random(7)
    folder = tempfile.TemporaryDirectory()
    if arguments.long_match_only:
        print(json.dumps(long_match(Path(folder.name), arguments.samples, random.Random(8))))
        folder.cleanup()
        return
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
    result.update(long_match(Path(folder.name), arguments.samples, random.Random(8)))
    print(json.dumps(result))
    folder.cleanup()


if __name__ == "__main__":
    main()
