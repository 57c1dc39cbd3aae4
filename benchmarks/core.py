"""The command layer end to end on SQLite with board pictures, in four phases.

1. single: one 1-point match at a time, one request after another (``/roll``, ``/move`` with
   a legal play: parse, validate, store, drive the automatic rolls, draw, effects), with and
   without pictures: how long one request takes (``request_ms_*``).
2. floor: the boards those requests drew, drawn again alone: through the bot's painter with
   the processes it draws boards with, on the same cores, with enough boards in flight to keep
   them busy (``floor_boards_per_second``). A request draws one board, so this is the most
   requests with a picture per second the machine allows. A game's animation (drawn when a
   game ends, by the painter's process for long drawings) is timed alone too, and counted
   in boards: how many boards could have been drawn meanwhile (``animation_in_boards``).
3. saturation: ``--matches`` matches at once for ``--saturation-seconds``, driven as fast as
   they are answered (a closed loop, no think time): requests per second
   (``concurrent_requests_per_second``) and their share of the floor
   (``throughput_share_of_floor``). The speed of a virtual machine drifts by a tenth and more
   within minutes, so the window is played in slices with the floor drawn again before, between
   and after them (``slice_floors_boards_per_second``; the last one is
   ``floor_boards_per_second_after``): each slice's requests a second
   (``slice_requests_per_second``) are taken against the mean of the floors on either side
   (``slice_shares_of_floor``), and the share is the median of those. With what a request drew
   (``boards_per_request``, ``animations_per_request``, and both in boards:
   ``drawing_in_boards_per_request``); the latency, which is about matches ÷ throughput
   whatever the bot does; the longest stall of the event loop (a watcher task that asks to
   wake every 5 ms); and the cores used meanwhile, by the bot (its process and its drawing
   processes) and by anything else on the machine (``concurrent_cores_others``: another
   program running then makes the run count for less, Linux only).
   The matches are at every stage, as a bot's are: each of the ``--matches`` places plays
   three 1-point matches one after another, the first from a point drawn at random (a bot
   that draws nothing plays them there before the clock starts), so games end, each with
   its animation, all through the window. Matches started together would all end together
   near the end, with one core idle until then. The players send requests recorded in a
   first pass by random players (a bot started with the same seeds rolls the same dice), so
   no player's own work (reading the match, choosing a play) runs in the bot's process.
4. paced: ``--matches`` new matches at once, every player acting a human-like moment after
   its turn came (a think time drawn from 3 to 7 s: a play every 5 s, the human pace the
   adapter benchmarks use too) for ``--paced-seconds``:
   the offered load (``paced_offered_requests_per_second``), the latency and the longest
   stall of the event loop. Matches still going at the end of the window are left unfinished:
   a 1-point match is about 80 requests, 400 s at this pace, so none ends in the window (match
   ends, with their animations, are in phase 3).

Dice, plays and think times are seeded. Prints one JSON object as its last line; ten to sixteen
minutes on two cores.

    python benchmarks/core.py [--matches 200] [--saturation-seconds 90] [--paced-seconds 45]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo, and benchmarks/

import bot.core.runtime.painter as painter_module
from benchmarks.chat_player import PLATFORM, Player
from bot.core.model import ChatRef
from bot.core.runtime.painter import Drawing, Painter
from bot.core.service import Core
from bot.runtime import freeze_startup_objects
from gammon.fair_dice import SEED_BYTES
from gammon.flow import Phase
from storage import Database

SINGLE_MATCHES = 4
FLOOR_BOARDS = 800
FLOOR_IN_FLIGHT = 8  # per drawing process: more changes nothing measurable
THINK_SECONDS = (3.0, 7.0)  # uniform: 5 s on average, as the adapter benchmarks' pace
STALL_TICK = 0.005
SATURATION_SEED = 2
ROUNDS = 3  # matches each place of phase 3 has ready: ample for its window at any pace seen
SLICES = 6  # phase 3's window in slices, the floor measured between them
SLICE_FLOOR_BOARDS = 400


class CountingPainter(Painter):
    """The bot's painter, counting what it draws (and keeping drawings for the floor): boards
    (a board, a replay frame) and games' animations."""

    def __init__(self) -> None:
        super().__init__()
        self.boards = 0
        self.animations = 0
        self.kept_boards: list[Drawing] = []
        self.kept_animations: list[Drawing] = []

    async def paint(self, drawing: Drawing, *, aside: bool = False) -> bytes:
        function = drawing.func if isinstance(drawing, partial) else drawing
        name = getattr(function, "__name__", "")
        if name in ("render_replay_animation", "render_game_animation"):
            self.animations += 1
            self.kept_animations.append(drawing)
        elif name in ("render_board", "render_replay_frame"):
            self.boards += 1
            if len(self.kept_boards) < FLOOR_BOARDS:
                self.kept_boards.append(drawing)
        return await super().paint(drawing, aside=aside)

    def counts(self) -> tuple[int, int]:
        return self.boards, self.animations


class StallWatch:
    """How late a task that asks to wake every 5 ms wakes: how long the loop was blocked."""

    def __init__(self) -> None:
        self.stalls: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(STALL_TICK)
            self.stalls.append((time.perf_counter() - started - STALL_TICK) * 1000)

    def start(self) -> None:
        self._task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)

    def longest(self) -> float:
        return round(max(self.stalls), 1)

    def over(self, milliseconds: float) -> int:
        return sum(stall > milliseconds for stall in self.stalls)


class CoresUsed:
    """The cores used between :meth:`start` and :meth:`stop`, over every such window: by this
    process, by its drawing processes, by the whole machine (``/proc``; zeros where there is
    none)."""

    def __init__(self) -> None:
        self._started: tuple[float, float, dict[int, float]] = (0.0, 0.0, {})
        self._at = 0.0
        self._wall = self._own = self._drawing = self._machine = 0.0

    @staticmethod
    def _now() -> tuple[float, float, dict[int, float]]:
        own = os.times()
        return own.user + own.system, _machine_busy_seconds(), _children_seconds()

    def start(self) -> None:
        self._started, self._at = self._now(), time.perf_counter()

    def stop(self) -> None:
        (own, machine, children), wall = self._now(), time.perf_counter() - self._at
        own_before, machine_before, children_before = self._started
        self._wall += wall
        self._own += own - own_before
        self._drawing += sum(
            seconds - children_before.get(pid, 0.0) for pid, seconds in children.items()
        )
        self._machine += machine - machine_before

    def used(self) -> dict[str, float]:
        wall = self._wall or 1.0
        others = max(0.0, self._machine - self._own - self._drawing)
        return {
            "concurrent_cores_bot_process": round(self._own / wall, 2),
            "concurrent_cores_child_processes": round(self._drawing / wall, 2),
            "concurrent_cores_others": round(others / wall, 2),
        }


def _machine_busy_seconds() -> float:
    """CPU seconds the machine has been busy (all cores, not idle nor waiting for I/O)."""
    try:
        fields = [int(field) for field in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    except OSError:
        return 0.0
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def _children_seconds() -> dict[int, float]:
    """CPU seconds of each live child process (the drawing processes), by pid."""
    seconds = {}
    for child in multiprocessing.active_children():
        try:
            stat = Path(f"/proc/{child.pid}/stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()  # the name in parentheses may hold spaces
        seconds[child.pid or 0] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seconds


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def seeded(seed: int) -> Callable[[], bytes]:
    """Server seeds from a seeded generator: the same dice in every run."""
    rng = random.Random(seed)
    return lambda: rng.randbytes(SEED_BYTES)


async def start_match(
    core: Core, chat: ChatRef, first: str, second: str
) -> tuple[dict[int, Player], int]:
    """A 1-point match between two new players: who plays, by user id, and the match's id."""
    one, two = Player(core, chat, first), Player(core, chat, second)
    await one.say("challenge", f"@{second} 1", mention=second)
    await two.say("accept")
    chat_row = await core.ports.repositories.chats.upsert_chat(PLATFORM, chat.chat_id)
    users = {}
    for player in (one, two):
        user = await core.ports.repositories.users.upsert_user(
            PLATFORM, player.actor.user_id, player.actor.name
        )
        users[user.id] = player
    loaded = await core.ports.repositories.matches.active_match_for(chat_row.id, min(users))
    assert loaded is not None
    return users, loaded.info.id


async def start_matches(core: Core, count: int, prefix: str) -> list[tuple[dict[int, Player], int]]:
    return [
        await start_match(
            core, ChatRef(PLATFORM, f"{prefix}-{n}"), f"{prefix}a{n}", f"{prefix}b{n}"
        )
        for n in range(count)
    ]


async def play(
    core: Core,
    players: Mapping[int, Player | Recorder],
    match_id: int,
    rng: random.Random,
    timings: list[float],
    think: Callable[[], float] | None = None,
    deadline: float = float("inf"),
) -> None:
    """Play the match to its end (or until ``deadline``), each request ``think()`` seconds
    after the answer to the one before."""
    for _ in range(5000):
        if think is not None:
            await asyncio.sleep(think())
        if time.perf_counter() >= deadline:
            return
        loaded = await core.ports.repositories.matches.load_match(match_id)
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


Script = list[tuple[str, str, str]]
"""One match's requests in order: who sends it (the account), the command and its argument."""


class Recorder:
    """Stands in for a player in :func:`play`, writing down what it sends."""

    def __init__(self, player: Player, script: Script) -> None:
        self.player = player
        self.script = script

    async def say(self, command: str, argument: str = "", mention: str | None = None) -> float:
        self.script.append((self.player.actor.user_id, command, argument))
        return await self.player.say(command, argument, mention)


async def record(
    core: Core, players: dict[int, Player], match_id: int, rng: random.Random
) -> Script:
    """Play the match to its end as :func:`play` does, and say what was sent."""
    script: Script = []
    recorders = {user: Recorder(player, script) for user, player in players.items()}
    await play(core, recorders, match_id, rng, [])
    return script


async def scripts(folder: Path, count: int, seed: int) -> list[Script]:
    """The requests of ``count`` matches played to their end by random players, recorded by a
    bot that draws nothing, in the order the matches were started: a bot started with the same
    seed that starts the same matches in the same order rolls the same dice in them."""
    database, core = await open_core(folder, "recorded", False, seed)
    setups = await start_matches(core, count, "sat")
    recorded = await asyncio.gather(
        *(record(core, players, match_id, random.Random(match_id)) for players, match_id in setups)
    )
    await database.close()
    return list(recorded)


async def send(players: Mapping[str, Player], steps: Script, timings: list[float]) -> None:
    """Send the steps in order, each once the one before was answered."""
    for account, command, argument in steps:
        timings.append(await players[account].say(command, argument))


async def open_core(folder: Path, name: str, render: bool, seed: int) -> tuple[Database, Core]:
    database = Database(f"sqlite+aiosqlite:///{folder / f'{name}.db'}")
    await database.migrate()
    core = Core(database, render_images=render, server_seeds=seeded(seed))
    await core.ports.workers.start()  # as the host does at start
    return database, core


async def single_requests(folder: Path, render: bool) -> list[float]:
    """Phase 1: the milliseconds of each request, one after another."""
    database, core = await open_core(folder, f"single-{render}", render, seed=1)
    timings: list[float] = []
    rng = random.Random(1)
    for players, match_id in await start_matches(core, SINGLE_MATCHES, "single"):
        await play(core, players, match_id, rng, timings)
    await database.close()
    return timings


async def floor_rate(painter: CountingPainter, boards: int = SLICE_FLOOR_BOARDS) -> float:
    """Boards a second drawn alone, as :func:`floor` draws them (``boards`` of them)."""
    drawings = painter.kept_boards
    numbers = iter(range(boards))

    async def draw() -> None:
        for number in numbers:
            await Painter.paint(painter, drawings[number % len(drawings)])

    started = time.perf_counter()
    await asyncio.gather(*(draw() for _ in range(FLOOR_IN_FLIGHT * max(1, painter.processes))))
    return boards / (time.perf_counter() - started)


async def floor(painter: CountingPainter) -> dict[str, float]:
    """Phase 2: boards per second drawn alone, and an animation's time counted in boards."""
    in_flight = FLOOR_IN_FLIGHT * max(1, painter.processes)
    for drawing in painter.kept_boards[:in_flight]:  # every process warm
        await Painter.paint(painter, drawing)
    per_second = await floor_rate(painter, FLOOR_BOARDS)
    animation_seconds = []
    for drawing in painter.kept_animations:
        started = time.perf_counter()
        await Painter.paint(painter, drawing)
        animation_seconds.append(time.perf_counter() - started)
    animation = statistics.median(animation_seconds)
    return {
        "floor_processes": painter.processes,
        "floor_boards_in_flight": in_flight,
        "floor_boards_per_second": round(per_second, 1),
        "animation_ms_median": round(animation * 1000, 1),
        "animation_in_boards": round(animation * per_second, 1),
    }


async def saturation(
    folder: Path, count: int, painter: CountingPainter, recorded: list[Script], seconds: float
) -> tuple[dict[str, float], dict[str, list[float]]]:
    """Phase 3: ``count`` matches at once, for ``seconds``, as fast as they are answered.

    A bot with many matches going has them at every stage, so their ends (each with its
    game's animation) come spread over time. Matches all started together would end together
    (no animation for the first minutes, then all of them), so each of the ``count`` places
    plays :data:`ROUNDS` recorded matches one after the other, the first one from a point
    drawn at random: a bot that draws nothing starts all the matches and plays each place's
    first match up to its point before the clock starts.

    Then the bot that draws plays on in :data:`SLICES` slices of the window, the floor drawn
    again before the first and after each (:data:`SLICE_FLOOR_BOARDS` boards): the speed of a
    virtual machine drifts by a tenth and more within minutes, so each slice's requests a
    second are taken against the mean of the floors on either side of it, and the share is
    the median of the slices'. In a slice every place plays until its time is up; requests
    under way then are answered and counted (a request that ends a game is answered with its
    animation, so nothing a slice asked for is drawn during the floor after it)."""
    setup_database, setup_core = await open_core(folder, "saturation", False, SATURATION_SEED)
    setups = await start_matches(setup_core, count * ROUNDS, "sat")
    rng = random.Random(SATURATION_SEED)
    starts = [rng.randrange(len(script)) for script in recorded[:count]]
    places = [
        {player.actor.user_id: player for player in setups[place][0].values()}
        for place in range(count)
    ]
    await asyncio.gather(
        *(send(places[place], recorded[place][: starts[place]], []) for place in range(count))
    )
    await setup_database.close()
    database, core = await open_core(folder, "saturation", True, SATURATION_SEED)
    for players, _match_id in setups:
        for player in players.values():
            player.core = core

    def steps_of(place: int) -> Iterator[tuple[dict[str, Player], tuple[str, str, str]]]:
        for round_ in range(ROUNDS):
            number = place + round_ * count
            players = {player.actor.user_id: player for player in setups[number][0].values()}
            for step in recorded[number][starts[place] if round_ == 0 else 0 :]:
                yield players, step

    queues = [steps_of(place) for place in range(count)]
    ran_out: set[int] = set()

    async def keep_playing(place: int, deadline: float, timings: list[float]) -> None:
        while time.perf_counter() < deadline:
            following = next(queues[place], None)
            if following is None:
                ran_out.add(place)
                return
            players, step = following
            await send(players, [step], timings)

    timings: list[float] = []
    slice_rates: list[float] = []
    elapsed = 0.0
    floors = [await floor_rate(painter)]
    before = painter.counts()
    watch = StallWatch()
    cores = CoresUsed()
    for _slice in range(SLICES):
        slice_timings: list[float] = []
        deadline = time.perf_counter() + seconds / SLICES
        watch.start()
        cores.start()
        started = time.perf_counter()
        await asyncio.gather(
            *(keep_playing(place, deadline, slice_timings) for place in range(count))
        )
        took = time.perf_counter() - started
        cores.stop()
        await watch.stop()
        floors.append(await floor_rate(painter))
        elapsed += took
        timings += slice_timings
        slice_rates.append(len(slice_timings) / took)
    await database.close()
    boards, animations = (now - then for now, then in zip(painter.counts(), before, strict=True))
    shares = [
        rate / statistics.mean(floors[index : index + 2]) for index, rate in enumerate(slice_rates)
    ]
    figures = {
        "concurrent_matches": count,
        "concurrent_requests": len(timings),
        "concurrent_seconds": round(elapsed, 1),
        "concurrent_places_that_ran_out_of_matches": len(ran_out),
        "concurrent_requests_per_second": round(len(timings) / elapsed, 1),
        "boards_per_request": round(boards / len(timings), 3),
        "animations_per_request": round(animations / len(timings), 4),
        "concurrent_latency_ms_median": round(statistics.median(timings), 1),
        "concurrent_latency_ms_p99": round(p99(timings), 1),
        "concurrent_event_loop_longest_stall_ms": watch.longest(),
        "concurrent_event_loop_stalls_over_50ms": watch.over(50),
        **cores.used(),
        "floor_boards_per_second_after": round(floors[-1], 1),
        "throughput_share_of_floor": round(statistics.median(shares), 3),
    }
    slices = {
        "slice_requests_per_second": [round(rate, 1) for rate in slice_rates],
        "slice_floors_boards_per_second": [round(rate, 1) for rate in floors],
        "slice_shares_of_floor": [round(share, 3) for share in shares],
    }
    return figures, slices


async def paced(folder: Path, count: int, seconds: float) -> dict[str, float]:
    """Phase 4: ``count`` matches at once, each player thinking before it acts."""
    database, core = await open_core(folder, "paced", True, seed=3)
    setups = await start_matches(core, count, "paced")
    timings: list[float] = []
    watch = StallWatch()
    watch.start()
    deadline = time.perf_counter() + seconds
    await asyncio.gather(
        *(
            play(
                core,
                players,
                match_id,
                random.Random(match_id),
                timings,
                think=partial(random.Random(-match_id).uniform, *THINK_SECONDS),
                deadline=deadline,
            )
            for players, match_id in setups
        )
    )
    await watch.stop()
    await database.close()
    return {
        "paced_matches": count,
        "paced_seconds": seconds,
        "paced_think_seconds_mean": statistics.mean(THINK_SECONDS),
        "paced_requests": len(timings),
        "paced_offered_requests_per_second": round(len(timings) / seconds, 1),
        "paced_latency_ms_median": round(statistics.median(timings), 1),
        "paced_latency_ms_p99": round(p99(timings), 1),
        "paced_latency_ms_max": round(max(timings), 1),
        "paced_event_loop_longest_stall_ms": watch.longest(),
        "paced_event_loop_stalls_over_50ms": watch.over(50),
    }


@contextmanager
def counting_painter() -> Iterator[CountingPainter]:
    """The painter every core of this run shares, as the bot's cores share theirs."""
    painter = CountingPainter()
    painter_module._SHARED = painter
    try:
        yield painter
    finally:
        painter.close()
        painter_module._SHARED = None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--saturation-seconds", type=float, default=90.0)
    parser.add_argument("--paced-seconds", type=float, default=45.0)
    arguments = parser.parse_args()
    freeze_startup_objects()  # as the bot does once it has started
    result: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as name, counting_painter() as painter:
        folder = Path(name)
        with_pictures = asyncio.run(single_requests(folder, True))
        without = asyncio.run(single_requests(folder, False))
        result.update(
            {
                "single_requests": len(with_pictures),
                "request_ms_median_with_render": round(statistics.median(with_pictures), 2),
                "request_ms_p99_with_render": round(p99(with_pictures), 2),
                "request_ms_median_without_render": round(statistics.median(without), 2),
                "request_ms_p99_without_render": round(p99(without), 2),
            }
        )
        drawn = asyncio.run(floor(painter))
        result.update(drawn)
        recorded = asyncio.run(scripts(folder, arguments.matches * ROUNDS, SATURATION_SEED))
        busy, slices = asyncio.run(
            saturation(folder, arguments.matches, painter, recorded, arguments.saturation_seconds)
        )
        result.update(busy)
        result.update(slices)
        # The recorded requests (hundreds of thousands of objects) are this benchmark's own:
        # a bot has none of them, nor the collector's passes over them in phase 4.
        del recorded
        result["drawing_in_boards_per_request"] = round(
            busy["boards_per_request"]
            + busy["animations_per_request"] * drawn["animation_in_boards"],
            3,
        )
        result.update(asyncio.run(paced(folder, arguments.matches, arguments.paced_seconds)))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
