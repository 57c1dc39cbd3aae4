"""The web pages and replays: how fast the server answers, what a replay costs, and how long
the browser takes to check 10,000 rolls.

    python benchmarks/web.py [--requests 300] [--no-browser]

- A match page, the replay page and the check page of a finished 5-point match served on
  loopback by the bot's web server (sequential requests, keep-alive): median and p99.
- The animated replay (GIF) of a 60-play game drawn by the painter's function: build time
  (median of 5) and bytes; and one replay frame as a PNG.
- The dice check of 10,000 rolls in headless Chromium (Debian's chromium, if installed):
  from ``benchmarks/web_check.py``.

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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402

from benchmarks.chat_player import Player  # noqa: E402
from bot.core.model import ChatRef  # noqa: E402
from bot.core.service import Core  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from gammon.actions import Move, OpeningRoll, Roll  # noqa: E402
from gammon.fair_dice import roll  # noqa: E402
from gammon.flow import Phase, advance, new_match  # noqa: E402
from gammon.match_rules import MatchRules  # noqa: E402
from gammon.replay import GameReplay, replay_games  # noqa: E402
from rendering.replay import render_replay_animation, render_replay_frame  # noqa: E402
from storage import Database  # noqa: E402


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


async def _finished_match(core: Core, chat: ChatRef) -> None:
    """Anna and Bob play a 5-point match to the end, each taking the first legal play."""
    anna, bob = Player(core, chat, "anna"), Player(core, chat, "bob")
    await anna.say("challenge", "5", mention="bob")
    await bob.say("accept")
    people = {"anna": anna, "bob": bob}
    for _step in range(5000):
        info = await core.matches.match_info(1)
        if info.status != "active":
            return
        loaded = await core.matches.load_match(1)
        state = loaded.state
        seat = state.turn if state.turn is not None else state.player_on_roll
        user = await core.users.get_user(info.player_ids[seat])
        player = people[user.platform_user_id]
        if state.phase is Phase.ROLLING:
            await player.say("roll")
        elif state.phase is Phase.MOVING:
            await player.say("move", str(state.legal_plays()[0]))
        elif state.phase is Phase.DOUBLED:
            await player.say("take")
        else:
            raise RuntimeError(f"unexpected phase {state.phase}")
    raise RuntimeError("the match did not end")


async def _serve(requests: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        database = Database(f"sqlite+aiosqlite:///{folder}/web.db")
        await database.migrate()
        core = Core(database, render_images=False, web_base_url="http://127.0.0.1")
        await _finished_match(core, ChatRef("bench", "room"))
        slug = (await core.matches.match_info(1)).slug
        server = WebServer(core, "127.0.0.1", 0)
        await server.start()
        base = f"http://127.0.0.1:{server.bound_port}/m/{slug}"
        try:
            async with aiohttp.ClientSession() as session:
                for name, path in (("match", ""), ("replay", "/replay"), ("check", "/verify")):
                    times = []
                    for _ in range(requests):
                        started = time.perf_counter()
                        async with session.get(base + path) as response:
                            await response.read()
                            assert response.status == 200
                        times.append((time.perf_counter() - started) * 1000)
                    figures[f"{name}_page_ms_median"] = round(statistics.median(times), 2)
                    figures[f"{name}_page_ms_p99"] = round(_p99(times), 2)
                figures["match_plays"] = len(
                    [a for a in await core.matches.history(1) if isinstance(a, Move)]
                )
        finally:
            await server.stop()
            core.painter.close()
            core.computer.close()
            await database.close()
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
    args = parser.parse_args()
    figures: dict[str, object] = {}
    figures.update(asyncio.run(_serve(args.requests)))
    print("pages", figures, flush=True)
    figures.update(_replay_figures())
    print("replay", figures, flush=True)
    if not args.no_browser:
        from benchmarks.web_check import browser_check_figures

        figures.update(browser_check_figures())
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
