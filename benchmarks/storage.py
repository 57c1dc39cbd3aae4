"""Storage speed on a big database: appending an action and loading an active match.

Builds a database holding 100,000 finished matches and 1,000 active ones (events and
snapshots copied from seeded self-play matches, so every row is a real, replayable record),
then times an append (the rules engine applying the action, then storage's version check,
event insert, snapshot update and commit) and ``load_match`` on the active matches. Prints one
JSON object as its last line: medians and p99 in ms, and the database size per finished match
as the database grows.

``--url`` chooses the database: a SQLite file (default: one in a temporary folder), or a
PostgreSQL server, on which a database of its own is created (``gammonbot_bench_<pid>``, next
to the one the URL names) and dropped at the end. SQLite is filled with executemany, PostgreSQL
on the server itself: the self-play matches are loaded once into temporary tables and copied
by ``INSERT ... SELECT`` over ``generate_series``, with the foreign-key triggers off while it
fills (the rows are consistent by construction), which builds 1,000,000 matches in minutes.
``--design`` chooses how storage talks to the database: ``threaded`` (storage's own thread
facade, storage/threaded.py) or ``asyncio`` (the standard stack it was measured against, see
:class:`StandardStack`).

It also times the append along one long money session, at move 10 and at move 400: the
snapshot leaves the history to the event log, so both should cost the same. Each point is a
few hundred copies of the session cut there (one append timed on each, its state in memory as
for a match being played), in a small database of its own. ``--long-match-only`` runs just
that part, in seconds.

    python benchmarks/storage.py [--url URL] [--design threaded|asyncio]
        [--finished 100000] [--active 1000] [--keep] [--reuse URL]
    python benchmarks/storage.py --long-match-only [--url URL] [--samples 300]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import secrets
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg
import sqlalchemy as sa
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.events import match_then
from gammon.actions import Action, action_to_dict
from gammon.fair_dice import commitment
from gammon.flow import MatchState, Phase, plan, replay
from gammon.match_rules import MatchRules
from gammon.position import Variant
from gammon.serialization import state_to_dict
from storage import ConflictError, Database, DiceRepository, MatchRepository
from storage.database import _sqlite_pragmas
from storage.results import BufferedResult
from tests.gammon.selfplay import play_random_match
from tests.storage.players import next_action


def _no_dice(nonce: int) -> tuple[int, int]:
    raise AssertionError("the actions carry their own dice")


TEMPLATES = 40
SAMPLES = 400
LONG_MATCH_MOVES = (10, 400)
LONG_MATCH_SAMPLES = 300
USERS, CHATS = 2000, 500
NOW = datetime(2026, 11, 29)  # naive UTC, as storage.schema.UtcDateTime stores it
MATCH_COLUMNS = (
    "id, chat_id, player0_id, player1_id, variant, rules, status, version, snapshot, "
    "snapshot_version, turn_user_id, dice_commitment, server_seed, client_seed0, client_seed1, "
    "board_messages, created_at, updated_at, finished_at, hints, slug"
)

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


def players(match_id: int) -> tuple[int, int]:
    return 1 + (2 * match_id) % USERS, 2 + (2 * match_id) % USERS


class SqliteLoader:
    """Fills a SQLite file with executemany on the plain driver, durability off meanwhile."""

    def __init__(self, url: str) -> None:
        self.path = Path(make_url(url).database or "")
        self.connection = sqlite3.connect(self.path)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=OFF")

    async def people(self) -> None:
        now = NOW.isoformat(sep=" ")
        self.connection.executemany(
            "INSERT INTO users (id, platform, platform_user_id, display_name, preferences, "
            "created_at) VALUES (?,?,?,?,?,?)",
            [(user, "telegram", str(user), f"P{user}", "{}", now) for user in range(1, USERS + 1)],
        )
        self.connection.executemany(
            "INSERT INTO chats (id, platform, platform_chat_id, settings, created_at) "
            "VALUES (?,?,?,?,?)",
            [(chat, "telegram", str(-chat), "{}", now) for chat in range(1, CHATS + 1)],
        )

    async def matches(self, first_id: int, count: int, cases: list[Case], status: str) -> None:
        now = NOW.isoformat(sep=" ")
        match_rows = []
        event_rows: list[tuple[int, int, str, str]] = []
        for offset in range(count):
            match_id = first_id + offset
            rules, state, events, snapshot = cases[offset % len(cases)]
            seated = players(match_id)
            seed = os.urandom(32)
            turn = state.turn if status == "active" else None
            match_rows.append(
                (
                    *(match_id, 1 + match_id % CHATS, *seated, rules.variant.value),
                    *(compact(rules.to_dict()), status, len(events), snapshot, len(events)),
                    *(None if turn is None else seated[turn], commitment(seed), seed.hex()),
                    *("seed-a", "seed-b", "{}", now, now, now if status == "finished" else None),
                    *(False, secrets.token_urlsafe(16)),
                )
            )
            event_rows.extend((match_id, seq, action, now) for seq, action in enumerate(events))
        marks = ",".join("?" * len(MATCH_COLUMNS.split(",")))
        self.connection.executemany(
            f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES ({marks})", match_rows
        )
        self.connection.executemany(
            "INSERT INTO match_events (match_id, seq, action, created_at) VALUES (?,?,?,?)",
            event_rows,
        )
        if status == "finished":
            self.connection.executemany(
                "INSERT INTO match_analyses (match_id, status, level, requested_at) "
                "VALUES (?, 'skipped', '', ?)",
                [(row[0], now) for row in match_rows],
            )
        self.connection.commit()

    async def size(self) -> int:
        self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return self.path.stat().st_size

    async def finish(self) -> None:
        self.connection.execute("ANALYZE")
        self.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.connection.close()


def libpq_url(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresLoader:
    """Fills a PostgreSQL database on the server: the cases go into temporary tables once,
    then every batch of matches is one ``INSERT ... SELECT`` per table."""

    def __init__(self, url: str) -> None:
        self.connection = psycopg.connect(libpq_url(url))
        self.connection.execute("SET synchronous_commit = off")
        try:  # no foreign-key triggers while filling (a superuser's setting)
            self.connection.execute("SET session_replication_role = replica")
        except psycopg.errors.InsufficientPrivilege:
            self.connection.rollback()
        self.connection.execute(
            "CREATE TEMP TABLE bench_cases (n int PRIMARY KEY, variant text, rules json, "
            "version int, snapshot json, turn int)"
        )
        self.connection.execute(
            "CREATE TEMP TABLE bench_events (n int, seq int, action json, PRIMARY KEY (n, seq))"
        )
        self._staged: int | None = None

    async def people(self) -> None:
        self.connection.execute(
            "INSERT INTO users (id, platform, platform_user_id, display_name, preferences, "
            "created_at) SELECT u, 'telegram', u::text, 'P' || u, '{}', %(now)s "
            "FROM generate_series(1, %(users)s::int) u",
            {"now": NOW, "users": USERS},
        )
        self.connection.execute(
            "INSERT INTO chats (id, platform, platform_chat_id, settings, created_at) "
            "SELECT c, 'telegram', (-c)::text, '{}', %(now)s "
            "FROM generate_series(1, %(chats)s::int) c",
            {"now": NOW, "chats": CHATS},
        )
        self.connection.commit()

    def _stage(self, cases: list[Case]) -> None:
        if self._staged == id(cases):
            return
        cursor = self.connection.cursor()
        cursor.execute("TRUNCATE bench_cases, bench_events")
        cursor.executemany(
            "INSERT INTO bench_cases VALUES (%s, %s, %s, %s, %s, %s)",
            [
                (
                    n,
                    rules.variant.value,
                    compact(rules.to_dict()),
                    len(events),
                    snapshot,
                    state.turn,
                )
                for n, (rules, state, events, snapshot) in enumerate(cases)
            ],
        )
        with cursor.copy("COPY bench_events (n, seq, action) FROM STDIN") as copy:
            for n, (_rules, _state, events, _snapshot) in enumerate(cases):
                for seq, action in enumerate(events):
                    copy.write_row((n, seq, action))
        self._staged = id(cases)

    async def matches(self, first_id: int, count: int, cases: list[Case], status: str) -> None:
        self._stage(cases)
        span = {
            "first": first_id,
            "last": first_id + count - 1,
            "cases": len(cases),
            "status": status,
            "chats": CHATS,
            "users": USERS,
            "now": NOW,
        }
        series = "FROM generate_series(%(first)s::int, %(last)s::int) g "
        self.connection.execute(
            f"INSERT INTO matches ({MATCH_COLUMNS}) "
            "SELECT g, 1 + g %% %(chats)s, 1 + (2 * g) %% %(users)s, 2 + (2 * g) %% %(users)s, "
            "c.variant, c.rules, %(status)s::varchar, c.version, c.snapshot, c.version, "
            "CASE WHEN %(status)s::varchar = 'active' THEN CASE c.turn "
            "WHEN 0 THEN 1 + (2 * g) %% %(users)s WHEN 1 THEN 2 + (2 * g) %% %(users)s END END, "
            "encode(sha256(decode(s.seed, 'hex')), 'hex'), s.seed, 'seed-a', 'seed-b', "
            "'{}', %(now)s, %(now)s, "
            "CASE WHEN %(status)s::varchar = 'finished' THEN %(now)s END, false, "
            "substr(md5(s.seed), 1, 22) "
            + series
            + "JOIN bench_cases c ON c.n = (g - %(first)s) %% %(cases)s "
            "CROSS JOIN LATERAL (SELECT md5(random()::text || g) || md5(g || random()::text) "
            "AS seed) s",
            span,
        )
        self.connection.execute(
            "INSERT INTO match_events (match_id, seq, action, created_at) "
            "SELECT g, e.seq, e.action, %(now)s "
            + series
            + ", LATERAL (SELECT seq, action FROM bench_events "
            "WHERE n = (g - %(first)s) %% %(cases)s ORDER BY seq) e",
            span,
        )
        if status == "finished":
            self.connection.execute(
                "INSERT INTO match_analyses (match_id, status, level, requested_at) "
                "SELECT g, 'skipped', '', %(now)s " + series,
                span,
            )
        self.connection.commit()

    async def size(self) -> int:
        found = self.connection.execute("SELECT pg_database_size(current_database())")
        row = found.fetchone()
        assert row is not None
        return int(row[0])

    async def finish(self) -> None:
        for table in ("users", "chats", "matches"):  # ids given here: move the sequences on
            self.connection.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        self.connection.execute("RESET session_replication_role")
        self.connection.commit()
        self.connection.autocommit = True
        self.connection.execute("VACUUM ANALYZE")
        self.connection.close()


async def open_loader(url: str) -> SqliteLoader | PostgresLoader:
    """The migrated database at ``url``, opened for bulk inserts, with its users and chats."""
    database = Database(url)
    await database.migrate()
    await database.close()
    sqlite = make_url(url).get_backend_name() == "sqlite"
    loader = SqliteLoader(url) if sqlite else PostgresLoader(url)
    await loader.people()
    return loader


async def build(url: str, finished: int, active: int, rng: random.Random) -> dict[str, Any]:
    """Fill the database; the build's figures (time, events, size as it grows)."""
    started = time.perf_counter()
    done = templates(rng)
    finished_cases = [case(rules, state) for rules, state in done]
    active_cases = []
    for rules, state in done:
        prefix = cut(rules, state.actions, rng.randint(1, max(1, len(state.actions) - 1)))
        if prefix.phase is not Phase.FINISHED:
            active_cases.append(case(rules, prefix))
    loader = await open_loader(url)
    figures: dict[str, Any] = {}
    batch = 10_000 if finished <= 100_000 else 50_000
    for start in range(0, finished, batch):
        count = min(batch, finished - start)
        await loader.matches(1 + start, count, finished_cases, "finished")
        done_count = start + count
        if done_count in (10_000, 100_000) or done_count == finished:
            size = await loader.size()
            figures[f"bytes_per_finished_match_at_{done_count}"] = round(size / done_count)
            print(f"{done_count} finished matches: {size / 2**20:.0f} MB", file=sys.stderr)
    await loader.matches(1 + finished, active, active_cases, "active")
    await loader.finish()
    events = sum(len(finished_cases[n % len(finished_cases)][2]) for n in range(finished))
    events += sum(len(active_cases[n % len(active_cases)][2]) for n in range(active))
    figures.update(
        build_seconds=round(time.perf_counter() - started, 1),
        events=events,
        events_per_finished_match=round(events / (finished + active)),
    )
    return figures


class StandardStack:
    """The design storage was measured against (``--design asyncio``): SQLAlchemy's asyncio
    engine with aiosqlite or asyncpg, behind the part of storage's engine interface that
    appending and loading use. Needs ``pip install aiosqlite asyncpg greenlet``."""

    def __init__(self, url: str) -> None:
        from sqlalchemy.ext.asyncio import create_async_engine

        parsed = make_url(url)
        sqlite = parsed.get_backend_name() == "sqlite"
        driver = "sqlite+aiosqlite" if sqlite else "postgresql+asyncpg"
        engine = create_async_engine(parsed.set(drivername=driver), json_serializer=compact)
        if sqlite:
            sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        self.engine = engine
        # Reads in autocommit on PostgreSQL (no BEGIN and ROLLBACK); SQLite's SELECT opens
        # no transaction, and switching costs aiosqlite two hand-overs.
        self.reader = engine if sqlite else engine.execution_options(isolation_level="AUTOCOMMIT")
        self.writer: Any = asyncio.Lock() if sqlite else contextlib.nullcontext()

    async def read(self, statement: Any, parameters: Any = None) -> BufferedResult:
        async with self.reader.connect() as connection:
            return BufferedResult.read(await connection.execute(statement, parameters))

    async def write(self, work: Any) -> Any:
        async with self.writer, self.engine.begin() as connection:
            return await connection.run_sync(work)

    async def dispose(self) -> None:
        await self.engine.dispose()


async def open_database(url: str, design: str) -> Database:
    """The database as storage opens it, or with the standard stack in place of its engine."""
    database = Database(url)
    if design == "asyncio":
        await database.engine.dispose()
        database.engine = StandardStack(url)  # type: ignore[assignment]
    return database


async def measure(url: str, design: str, rng: random.Random) -> dict[str, Any]:
    database = await open_database(url, design)
    matches = MatchRepository(database)
    dice = DiceRepository(database)
    found = await database.engine.read(
        sa.text("SELECT id FROM matches WHERE status = 'active' ORDER BY id")
    )
    active_ids = found.scalars()
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
            steps = plan(loaded.state, action, None, _no_dice)
            then = match_then(loaded.info, loaded.state, steps)  # as the bot writes a match's end
            await matches.append(match_id, loaded.info.version, steps, then=then)
        except ConflictError:
            continue
        appends.append((time.perf_counter() - started) * 1000)
    await database.close()
    return {
        **spread("append_ms", appends),
        **spread("load_active_ms", loads),
        "appends_measured": len(appends),
    }


def spread(name: str, times: list[float]) -> dict[str, float]:
    times = sorted(times)
    return {
        f"{name}_median": round(statistics.median(times), 3),
        f"{name}_p99": round(times[int(len(times) * 0.99)], 3),
    }


async def long_match(url: str, design: str, samples: int, rng: random.Random) -> dict[str, Any]:
    """The append at move 10 and at move 400 of one long money session: ``samples`` copies of
    the session cut at each point, one append timed on each."""
    rules = MatchRules(length=0)
    session = play_random_match(rng, length=0, rules=rules, max_games=100)
    if len(session.actions) <= max(LONG_MATCH_MOVES) + 1:
        raise RuntimeError("the money session is too short; try another seed")
    loader = await open_loader(url)
    first_ids = {}
    result: dict[str, Any] = {}
    for number, move in enumerate(LONG_MATCH_MOVES):
        first_ids[move] = 1 + number * samples
        state = cut(rules, session.actions, move)
        await loader.matches(first_ids[move], samples, [case(rules, state)], "active")
        # The snapshot still holds one short result per finished game.
        result[f"finished_games_at_move_{move}"] = len(state.games)
    await loader.finish()
    database = await open_database(url, design)
    matches = MatchRepository(database)
    dice = DiceRepository(database)
    times: dict[int, list[float]] = {move: [] for move in first_ids}
    for index in range(samples):
        for move, first_id in first_ids.items():  # the two points take turns: same conditions
            match_id = first_id + index
            loaded = await matches.load_match(match_id)  # in memory, as for a match in play
            action = await next_action(dice, match_id, loaded.state, rng)
            started = time.perf_counter()
            steps = plan(loaded.state, action, None, _no_dice)
            then = match_then(loaded.info, loaded.state, steps)
            await matches.append(match_id, loaded.info.version, steps, then=then)
            times[move].append((time.perf_counter() - started) * 1000)
    for move, first_id in first_ids.items():
        result.update(spread(f"append_ms_at_move_{move}", times[move]))
        row = (
            await database.engine.read(
                sa.text(
                    "SELECT length(CAST(snapshot AS TEXT)), version FROM matches WHERE id = :id"
                ),
                {"id": first_id},
            )
        ).one()
        result[f"snapshot_bytes_after_append_at_move_{move}"] = row[0]
        result[f"version_after_append_at_move_{move}"] = row[1]
    await database.close()
    result["appends_measured_per_move"] = samples
    return result


class Place:
    """Where a benchmark database lives: a SQLite file, or a PostgreSQL database created on
    the server that the URL names (and dropped by :meth:`remove`)."""

    def __init__(self, url: str, folder: Path, suffix: str) -> None:
        parsed = make_url(url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        self.server = url
        if self.sqlite:
            path = Path(parsed.database) if parsed.database else folder / f"bench{suffix}.db"
            if suffix:
                path = path.with_name(path.stem + suffix + path.suffix)
            self.url = f"sqlite:///{path}"
        else:
            self.name = f"gammonbot_bench_{os.getpid()}{suffix}"
            self.url = parsed.set(database=self.name).render_as_string(hide_password=False)

    def create(self) -> None:
        self.remove()
        if not self.sqlite:
            self._admin(f'CREATE DATABASE "{self.name}"')

    def remove(self) -> None:
        if not self.sqlite:
            self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            return
        path = Path(make_url(self.url).database or "")
        for suffix in ("", "-wal", "-shm", "-journal"):
            path.with_name(path.name + suffix).unlink(missing_ok=True)

    def _admin(self, statement: str) -> None:
        with psycopg.connect(libpq_url(self.server), autocommit=True) as admin:
            admin.execute(statement)


async def run(arguments: argparse.Namespace, folder: Path) -> dict[str, Any]:
    result: dict[str, Any] = {"design": arguments.design}
    if not arguments.long_match_only:
        if arguments.reuse:
            result.update(await measure(arguments.reuse, arguments.design, random.Random(7)))
        else:
            result.update(await measure_fresh(arguments, Place(arguments.url, folder, "")))
    long_place = Place(arguments.url, folder, "_long")
    long_place.create()
    try:
        samples, rng = arguments.samples, random.Random(8)
        result.update(await long_match(long_place.url, arguments.design, samples, rng))
    finally:
        long_place.remove()
    return result


async def measure_fresh(arguments: argparse.Namespace, place: Place) -> dict[str, Any]:
    """Build the big database, measure it, and remove it (unless ``--keep``)."""
    place.create()
    try:
        result = {
            "finished_matches": arguments.finished,
            "active_matches": arguments.active,
            **await build(place.url, arguments.finished, arguments.active, random.Random(7)),
        }
        result.update(await measure(place.url, arguments.design, random.Random(7)))
    finally:
        if arguments.keep:
            print(f"database kept: {place.url}", file=sys.stderr)
        else:
            place.remove()
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--url", default="sqlite://", help="a SQLite file, or a PostgreSQL server (see above)"
    )
    parser.add_argument("--design", choices=("threaded", "asyncio"), default="threaded")
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--active", type=int, default=1_000)
    parser.add_argument("--keep", action="store_true", help="keep the big database")
    parser.add_argument("--reuse", help="measure a database kept before (its URL) again")
    parser.add_argument(
        "--long-match-only",
        action="store_true",
        help="time only the appends at move 10 and 400 of one long match (seconds)",
    )
    parser.add_argument(
        "--samples", type=int, default=LONG_MATCH_SAMPLES, help="appends timed at each move"
    )
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        print(json.dumps(asyncio.run(run(arguments, Path(folder)))))


if __name__ == "__main__":
    main()
