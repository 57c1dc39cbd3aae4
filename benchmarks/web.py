"""The web pages and replays: how fast the server answers, what a replay costs, and how long
the browser takes to check 10,000 rolls.

    python benchmarks/web.py [--requests 300] [--no-browser] [--flood 3000] [--at-once 64]
                             [--chat-lines 160] [--rounds 3] [--flood-niceness 0]
                             [--flood-only]

- A match page, the replay page and the check page of a finished 5-point match served on
  loopback by the bot's web server (sequential requests, keep-alive): median and p99, each
  made anew and (``_kept``) sent again as the server keeps it for a few seconds.
- The animated replay (GIF) of a 60-play game drawn by the painter's function: build time
  (median of 5) and bytes; and one replay frame as a PNG.
- The dice check of 10,000 rolls in headless Chromium (Debian's chromium, if installed):
  from ``benchmarks/web_check.py``.
- The chats during a stranger's flood of the web port (``--flood`` requests of pages and replay
  pictures in all languages, ``--at-once`` at a time, from ``benchmarks/web_flood.py`` in a
  process of its own, at ``--flood-niceness``): the milliseconds a chat
  line takes (two players of another match roll and move, one line after the other), median
  and p90 with the web port idle and during the flood, and their ratio
  (``chat_flood_ratio_median``: 1.0 means the flood costs the chats nothing). Idle lines and
  parts of the flood take turns (``--rounds``), so other work on a shared machine weighs on
  both alike. ``--flood-only`` measures only this (about a minute).

The last line is one JSON object with the figures.
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
from argparse import Namespace
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from benchmarks.chat_player import PLATFORM, Player  # noqa: E402
from bot.core.info.replays import ReplayFrames  # noqa: E402
from bot.core.model import ChatRef  # noqa: E402
from bot.core.service import Core  # noqa: E402
from bot.core.text.i18n import LOCALES  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from gammon.actions import Move, OpeningRoll, Roll  # noqa: E402
from gammon.fair_dice import roll  # noqa: E402
from gammon.flow import Phase, advance, new_match  # noqa: E402
from gammon.match_rules import MatchRules  # noqa: E402
from gammon.replay import GameReplay, replay_games  # noqa: E402
from rendering.replay import render_replay_animation, render_replay_frame  # noqa: E402
from storage import Database  # noqa: E402

Figures = dict[str, object]


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _p99(values: list[float]) -> float:
    return _percentile(values, 0.99)


async def _next_line(core: Core, people: dict[str, Player], match_id: int) -> float | None:
    """One chat line of the match's player to act (the first legal play); its milliseconds,
    or None once the match has ended."""
    info = await core.ports.repositories.matches.match_info(match_id)
    if info.status != "active":
        return None
    state = (await core.ports.repositories.matches.load_match(match_id)).state
    seat = state.turn if state.turn is not None else state.player_on_roll
    player = people[
        (await core.ports.repositories.users.get_user(info.player_ids[seat])).platform_user_id
    ]
    if state.phase is Phase.ROLLING:
        return await player.say("roll")
    if state.phase is Phase.MOVING:
        return await player.say("move", str(state.legal_plays()[0]))
    if state.phase is Phase.DOUBLED:
        return await player.say("take")
    raise RuntimeError(f"unexpected phase {state.phase}")


async def _new_match(core: Core, chat: ChatRef, names: tuple[str, str], length: int) -> Chat:
    people = {name: Player(core, chat, name) for name in names}
    played = Chat(core, chat, people, 0, length)
    await played.start()
    return played


@dataclass
class Chat:
    """Two players of a match in a chat, playing it one line at a time (a new match when it
    ends)."""

    core: Core
    ref: ChatRef
    people: dict[str, Player]
    match_id: int
    length: int

    async def start(self) -> None:
        """The first player challenges the second, who accepts: a new match."""
        first, second = self.people.values()
        await first.say("challenge", str(self.length), mention=second.actor.user_id)
        await second.say("accept")
        chat_row = await self.core.ports.repositories.chats.upsert_chat(PLATFORM, self.ref.chat_id)
        user = await self.core.ports.repositories.users.upsert_user(
            PLATFORM, first.actor.user_id, first.actor.name
        )
        loaded = await self.core.ports.repositories.matches.active_match_for(chat_row.id, user.id)
        assert loaded is not None
        self.match_id = loaded.info.id

    async def line(self) -> float:
        """The milliseconds of the next chat line."""
        spent = await _next_line(self.core, self.people, self.match_id)
        if spent is None:
            await self.start()
            return await self.line()
        return spent


async def _finished_match(core: Core, chat: ChatRef) -> int:
    """Anna and Bob play a 5-point match to the end, each taking the first legal play; its id."""
    played = await _new_match(core, chat, ("anna", "bob"), 5)
    for _step in range(5000):
        if await _next_line(core, played.people, played.match_id) is None:
            return played.match_id
    raise RuntimeError("the match did not end")


def _flood_urls(base: str, frames: int) -> list[str]:
    """The match's pages and its first game's pictures, in every language (the pictures are
    kept per language, so a stranger's flood in turn asks for ones not drawn yet)."""
    paths = ["", "/replay", "/verify"] + [f"/replay/1/{frame}.png" for frame in range(frames)]
    return [f"{base}{path}?lang={lang}" for lang in LOCALES for path in paths]


async def _chats_under_flood(core: Core, base: str, frames: int, args: Namespace) -> Figures:
    """Chat lines one after the other, in ``--rounds`` rounds of some with the web port idle
    and some during a part of the flood, and a last idle part: the machine's other work drifts
    (it is shared), and so it weighs on both alike."""
    chat = await _new_match(core, ChatRef("bench", "other-room"), ("carl", "dana"), 25)
    for _ in range(10):  # warm up: the first lines load what the rest reuse
        await chat.line()
    idle: list[float] = []
    flooded: list[float] = []
    statuses: Counter[str] = Counter()
    seconds = 0.0
    urls = _flood_urls(base, frames)
    for _round in range(args.rounds):
        idle += [await chat.line() for _ in range(args.chat_lines // (args.rounds + 1))]
        answered = await _flood_while(chat, flooded, urls, args.flood // args.rounds, args)
        statuses.update(answered["statuses"])
        seconds += answered["seconds"]
    idle += [await chat.line() for _ in range(args.chat_lines // (args.rounds + 1))]
    median_idle, median_flooded = statistics.median(idle), statistics.median(flooded)
    return {
        "chat_idle_ms_median": round(median_idle, 2),
        "chat_idle_ms_p90": round(_percentile(idle, 0.9), 2),
        "chat_flood_ms_median": round(median_flooded, 2),
        "chat_flood_ms_p90": round(_percentile(flooded, 0.9), 2),
        "chat_flood_lines": len(flooded),
        "chat_flood_ratio_median": round(median_flooded / median_idle, 2),
        "flood_seconds": round(seconds, 2),
        "flood_statuses": dict(statuses),
    }


async def _flood_while(
    chat: Chat, times: list[float], urls: list[str], total: int, args: Namespace
) -> dict[str, Any]:
    """Chat lines (their times added to ``times``) while ``total`` requests flood the pages;
    what the flood's client says."""
    flood = await asyncio.create_subprocess_exec(
        "nice",
        "-n",
        str(args.flood_niceness),
        sys.executable,
        str(ROOT / "benchmarks" / "web_flood.py"),
        "--total",
        str(total),
        "--at-once",
        str(args.at_once),
        *urls,
        stdout=asyncio.subprocess.PIPE,
    )
    assert flood.stdout is not None
    await flood.stdout.readline()  # its imports done, the flood begins
    waiting = asyncio.ensure_future(flood.communicate())
    while not waiting.done():
        times.append(await chat.line())
    output, _ = await waiting
    answered: dict[str, Any] = json.loads(output.decode().splitlines()[-1])
    return answered


async def _serve(args: Namespace) -> Figures:
    figures: Figures = {}
    with tempfile.TemporaryDirectory() as folder:
        database = Database(f"sqlite+aiosqlite:///{folder}/web.db")
        await database.migrate()
        played = Core(database, render_images=False, web_base_url="http://127.0.0.1")
        match_id = await _finished_match(played, ChatRef("bench", "room"))
        played.ports.workers.computer.close()
        # Served as the bot serves them: with pictures, drawn by the painter's processes.
        core = Core(database, web_base_url="http://127.0.0.1")
        await core.ports.workers.start()
        slug = (await core.ports.repositories.matches.match_info(match_id)).slug
        server = WebServer(core.ports.pages, "127.0.0.1", 0)
        await server.start()
        base = f"http://127.0.0.1:{server.bound_port}/m/{slug}"
        try:
            if not args.flood_only:
                figures.update(await _page_times(core, base, args.requests, match_id))
            if args.flood:
                matches = core.ports.repositories.matches
                games = await ReplayFrames(matches).games(await matches.match_info(match_id))
                frames = len(games[0].frames)
                figures.update(await _chats_under_flood(core, base, frames, args))
        finally:
            await server.stop()
            core.ports.workers.painter.close()
            core.ports.workers.computer.close()
            await database.close()
    return figures


async def _page_times(core: Core, base: str, requests: int, match_id: int) -> Figures:
    """Each page made anew (another query each time: the server keeps pages by address) and
    sent again as kept."""
    figures: Figures = {}
    async with aiohttp.ClientSession() as session:
        for name, path in (("match", ""), ("replay", "/replay"), ("check", "/verify")):
            for kind, query in (("", "?n={}"), ("_kept", "")):
                times = []
                for number in range(requests):
                    started = time.perf_counter()
                    async with session.get(base + path + query.format(number)) as response:
                        await response.read()
                        assert response.status == 200
                    times.append((time.perf_counter() - started) * 1000)
                figures[f"{name}_page{kind}_ms_median"] = round(statistics.median(times), 2)
                figures[f"{name}_page{kind}_ms_p99"] = round(_p99(times), 2)
    figures["match_plays"] = len(
        [a for a in await core.ports.repositories.matches.history(match_id) if isinstance(a, Move)]
    )
    return figures


def _game_of(plays: int, seed: int = 11) -> GameReplay:
    """The first ``plays`` plays of a money game between two random players (a game that
    ends sooner is skipped for the next seed)."""
    rules = MatchRules(length=0)
    for attempt in range(200):
        rng = random.Random(seed + attempt)
        state = new_match(rules)
        actions = []
        server = rng.randbytes(32)
        moves = 0
        while state.phase is not Phase.FINISHED and not state.games and moves < plays:
            if state.phase is Phase.OPENING:
                action = OpeningRoll(roll(server, "bench", state.dice_events))
            elif state.phase is Phase.ROLLING:
                action = Roll(state.player_on_roll, roll(server, "bench", state.dice_events))
            else:
                play = rng.choice(state.legal_plays())
                action = Move(state.player_on_roll, str(play), play)
                moves += 1
            state, recorded = advance(state, action)
            actions += recorded
        if moves >= plays:
            return replay_games(rules, actions)[0]
    raise RuntimeError(f"no game of {plays} plays")


def _replay_figures() -> dict[str, float]:
    game = _game_of(60)
    names = ["Anna", "Bob"]
    times, size = [], 0
    for _ in range(5):
        started = time.perf_counter()
        size = len(render_replay_animation(game, names=names))
        times.append(time.perf_counter() - started)
    frame_times = []
    for frame in game.frames[:20]:
        started = time.perf_counter()
        render_replay_frame(frame, names=names)
        frame_times.append((time.perf_counter() - started) * 1000)
    return {
        "replay_60_plays_frames": len(game.frames),
        "replay_60_plays_build_s_median": round(statistics.median(times), 3),
        "replay_60_plays_bytes": size,
        "replay_frame_png_ms_median": round(statistics.median(frame_times), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--flood", type=int, default=3000, help="requests; 0: no flood")
    parser.add_argument("--at-once", type=int, default=64)
    parser.add_argument(
        "--flood-niceness",
        type=int,
        default=0,
        help="the flood's client's priority: 0 takes the cores from the bot as the hostile "
        "run's client did, 19 (the lowest) as if it ran on another machine",
    )
    parser.add_argument("--chat-lines", type=int, default=160, help="timed with the port idle")
    parser.add_argument("--rounds", type=int, default=3, help="of idle lines and flood")
    parser.add_argument(
        "--flood-only", action="store_true", help="only the chats under the flood (short)"
    )
    args = parser.parse_args()
    figures: Figures = {}
    figures.update(asyncio.run(_serve(args)))
    print("pages", figures, flush=True)
    if args.flood_only:
        print(json.dumps(figures))
        return
    figures.update(_replay_figures())
    print("replay", figures, flush=True)
    if not args.no_browser:
        from benchmarks.web_check import browser_check_figures

        figures.update(browser_check_figures())
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
