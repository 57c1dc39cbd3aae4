"""Ratings at scale: ``/top`` and ``/stats`` with 100,000 players and 1,000,000 rated matches,
and ``gammonbot ratings rebuild`` over them.

The data is made here, seeded: ``--players`` people in ``--chats`` chats (each player belongs
to one chat and meets its other members), ``--matches`` finished matches between two members of
a chat (lengths 1, 3, 5, 7; one in ten long nardy), the winner drawn from hidden strengths, rated
in order with the FIBS formula (``gammon.rating``) and written as the bot writes them: the
match rows, the rated matches with the standings before and after, the ratings, who played
rated in which chat, and each player's result. Then, through ``Core.handle`` as a chat platform
calls it, with the board pictures on (the leaderboard picture is drawn by the painter's
process): ``/stats`` of random players (half of them naming another player) and ``/top`` of
random chats (one in four ``/top all``), one request at a time; and the rebuild, timed, which
must find every stored number identical.

Prints a short summary and, as its last line, one JSON object.

    python benchmarks/ratings.py [--players 100000] [--matches 1000000] [--url sqlite:///…]
    python benchmarks/ratings.py --players 2000 --matches 20000     # a minute
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import sqlalchemy as sa

from benchmarks.chat_player import PLATFORM
from bot.core.model import Actor, ChatRef, Request
from bot.core.service import Core
from bot.runtime import freeze_startup_objects
from gammon.rating import Standing, rate
from storage import Database, RatingRepository
from storage.ratings import ladder_counts
from storage.schema import (
    chats,
    matches,
    player_results,
    rated_matches,
    rated_players,
    rating_ladder,
    ratings,
    users,
)

CHUNK = 20_000  # rows per INSERT batch
LENGTHS = (1, 3, 5, 7)
LENGTH_WEIGHTS = (2, 4, 3, 1)
START = datetime(2025, 1, 1, tzinfo=UTC)
REQUESTS = 500  # of each kind


def chunks(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start : start + CHUNK]


class World:
    """The seeded players, chats and matches, rated in order as the bot rates them."""

    def __init__(self, players: int, chat_count: int, match_count: int, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.players = players
        self.chat_count = chat_count
        self.match_count = match_count
        self.strength = [self.rng.gauss(0, 1) for _ in range(players)]
        self.members: list[list[int]] = [[] for _ in range(chat_count)]
        for player in range(players):
            self.members[player % chat_count].append(player)

    def user_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "id": player + 1,
                "platform": PLATFORM,
                "platform_user_id": f"p{player}",
                "display_name": f"Player {player}",
                "preferences": {},
                "created_at": START,
            }
            for player in range(self.players)
        ]

    def chat_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "id": chat + 1,
                "platform": PLATFORM,
                "platform_chat_id": f"c{chat}",
                "settings": {},
                "created_at": START,
            }
            for chat in range(self.chat_count)
        ]

    def play(self) -> dict[str, list[dict[str, Any]]]:
        """Every match, rated in order: the rows of each table."""
        standings: dict[tuple[int, str], Standing] = {}
        tables: dict[str, list[dict[str, Any]]] = {
            "matches": [],
            "rated_matches": [],
            "player_results": [],
        }
        seen: set[tuple[int, str, int]] = set()
        for number in range(self.match_count):
            chat = self.rng.randrange(self.chat_count)
            first, second = self.rng.sample(self.members[chat], 2)
            length = self.rng.choices(LENGTHS, LENGTH_WEIGHTS)[0]
            game = "nardy" if self.rng.random() < 0.1 else "backgammon"
            edge = (self.strength[first] - self.strength[second]) * math.sqrt(length) / 2
            first_wins = self.rng.random() < 1 / (1 + math.exp(-edge))
            winner, loser = (first, second) if first_wins else (second, first)
            moment = START + timedelta(seconds=30 * number)
            match_id = number + 1
            before_w = standings.get((winner, game), Standing())
            before_l = standings.get((loser, game), Standing())
            change = rate(before_w, before_l, length)
            standings[(winner, game)], standings[(loser, game)] = change.winner, change.loser
            tables["matches"].append(
                self._match(match_id, chat, first, second, length, game, moment)
            )
            tables["rated_matches"].append(
                {
                    "id": match_id,
                    "match_id": match_id,
                    "chat_id": chat + 1,
                    "game": game,
                    "length": length,
                    "winner_id": winner + 1,
                    "loser_id": loser + 1,
                    "winner_rating_before": before_w.rating,
                    "winner_experience_before": before_w.experience,
                    "loser_rating_before": before_l.rating,
                    "loser_experience_before": before_l.experience,
                    "winner_rating_after": change.winner.rating,
                    "loser_rating_after": change.loser.rating,
                    "finished_at": moment,
                }
            )
            for player, opponent in ((winner, loser), (loser, winner)):
                seen.add((chat, game, player))
                tables["player_results"].append(
                    self._result(match_id, chat, game, player, opponent, player == winner, moment)
                )
        tables["ratings"] = [
            {
                "user_id": player + 1,
                "game": game,
                "rating": standing.rating,
                "experience": standing.experience,
                "updated_at": START,
            }
            for (player, game), standing in standings.items()
        ]
        ladder = ladder_counts(standings)
        tables["rating_ladder"] = [
            {"game": game, "bucket": band, "players": count}
            for (game, band), count in sorted(ladder.items())
        ]
        tables["rated_players"] = [
            {"chat_id": chat + 1, "game": game, "user_id": player + 1}
            for chat, game, player in sorted(seen)
        ]
        return tables

    @staticmethod
    def _match(
        match_id: int, chat: int, first: int, second: int, length: int, game: str, moment: datetime
    ) -> dict[str, Any]:
        variant = "long_nardy" if game == "nardy" else "backgammon"
        return {
            "id": match_id,
            "chat_id": chat + 1,
            "player0_id": first + 1,
            "player1_id": second + 1,
            "variant": variant,
            "rules": {"length": length, "variant": variant},
            "status": "finished",
            "version": 100,
            "dice_commitment": "0" * 64,
            "server_seed": "0" * 64,
            "client_seed0": "a",
            "client_seed1": "b",
            "board_messages": {},
            "created_at": moment - timedelta(minutes=20),
            "updated_at": moment,
            "finished_at": moment,
            "rated": True,
        }

    def _result(
        self,
        match_id: int,
        chat: int,
        game: str,
        player: int,
        opponent: int,
        won: bool,
        moment: datetime,
    ) -> dict[str, Any]:
        rng = self.rng
        return {
            "match_id": match_id,
            "user_id": player + 1,
            "chat_id": chat + 1,
            "game": game,
            "opponent_id": opponent + 1,
            "bot_level": None,
            "length": 3,
            "rated": True,
            "won": won,
            "singles_won": rng.randrange(3),
            "gammons_won": rng.randrange(2),
            "backgammons_won": int(rng.random() < 0.05),
            "games_lost": rng.randrange(3),
            "doubles_offered": rng.randrange(3),
            "doubles_taken": rng.randrange(2),
            "doubles_dropped": rng.randrange(2),
            "finished_at": moment,
            "error_rate": round(rng.uniform(2, 20), 2) if rng.random() < 0.5 else None,
        }


def load(database: Database, world: World) -> float:
    """Write the world into the database; the seconds it took."""
    started = time.perf_counter()
    tables = world.play()
    order = [
        (users, world.user_rows()),
        (chats, world.chat_rows()),
        (matches, tables["matches"]),
        (rated_matches, tables["rated_matches"]),
        (ratings, tables["ratings"]),
        (rating_ladder, tables["rating_ladder"]),
        (rated_players, tables["rated_players"]),
        (player_results, tables["player_results"]),
    ]
    engine = database.engine.sync_engine
    for table, rows in order:
        for batch in chunks(rows):
            with engine.begin() as connection:
                connection.execute(sa.insert(table), batch)
        print(f"  {table.name}: {len(rows):,} rows", flush=True)
    _reset_sequences(engine)
    return time.perf_counter() - started


def _reset_sequences(engine: sa.Engine) -> None:
    """PostgreSQL: the id sequences after the ids written here (SQLite needs nothing)."""
    if engine.dialect.name != "postgresql":
        return
    with engine.begin() as connection:
        for table in (users, chats, matches, rated_matches):
            connection.execute(
                sa.text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                    f"(SELECT max(id) FROM {table.name}))"
                )
            )


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def timed_requests(core: Core, world: World, command: str) -> list[float]:
    rng = random.Random(hash(command) & 0xFFFF)
    timings = []
    for number in range(REQUESTS):
        chat = rng.randrange(world.chat_count)
        player = rng.choice(world.members[chat])
        mentions: tuple[Actor, ...] = ()
        argument = ""
        if command == "stats" and number % 2:
            other = rng.choice(world.members[chat])
            mentions = (Actor(PLATFORM, f"p{other}", f"Player {other}"),)
            argument = f"@p{other}"
        if command == "top" and number % 4 == 0:
            argument = "all"
        if number % 10 == 0:
            argument += " nardy"
        request = Request(
            Actor(PLATFORM, f"p{player}", f"Player {player}"),
            ChatRef(PLATFORM, f"c{chat}"),
            command=command,
            argument=argument.strip(),
            event_id=f"{command}-{number}",
            mentions=mentions,
        )
        started = time.perf_counter()
        answer = await core.handle(request)
        timings.append((time.perf_counter() - started) * 1000)
        assert answer, request
        assert not answer[0].private_to, answer[0].text
    return timings


async def run(url: str, world: World) -> dict[str, Any]:
    database = Database(url)
    await database.migrate()
    print(f"writing {world.players:,} players and {world.match_count:,} rated matches", flush=True)
    load_seconds = load(database, world)
    core = Core(database, render_images=True)
    await core.ports.workers.start()
    figures: dict[str, Any] = {
        "players": world.players,
        "rated_matches": world.match_count,
        "chats": world.chat_count,
        "load_seconds": round(load_seconds, 1),
    }
    for command in ("stats", "top"):
        await timed_requests(core, world, command)  # warm: caches, the painter, plans
        timings = await timed_requests(core, world, command)
        figures[f"{command}_ms_median"] = round(statistics.median(timings), 2)
        figures[f"{command}_ms_p99"] = round(p99(timings), 2)
    started = time.perf_counter()
    report = await RatingRepository(database).rebuild(rate)
    figures["rebuild_seconds"] = round(time.perf_counter() - started, 1)
    figures["rebuild_identical"] = report.identical
    figures["rebuild_matches"] = report.matches
    core.ports.workers.painter.close()
    await database.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--chats", type=int, default=2_000)
    parser.add_argument("--url", help="a database URL (default: a new SQLite file)")
    arguments = parser.parse_args()
    freeze_startup_objects()
    world = World(arguments.players, arguments.chats, arguments.matches)
    with tempfile.TemporaryDirectory() as folder:
        url = arguments.url or f"sqlite:///{Path(folder) / 'ratings.db'}"
        figures = asyncio.run(run(url, world))
    for key, value in figures.items():
        print(f"  {key}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
