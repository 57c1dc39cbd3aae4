"""``/accept`` with no other open challenge in the chat, and with 5,000 open (challenge spam):
the lookup is one indexed read, so the two should be close.

Prints one JSON object as its last line.

    python benchmarks/challenges.py [--open 5000] [--accepts 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.core.model import Actor, ChatRef, Request
from bot.core.service import Core
from gammon.match_rules import MatchRules
from storage import ChallengeLimits, Database

PLATFORM = "bench"


async def accept_times(core: Core, chat_name: str, spam: int, accepts: int) -> list[float]:
    """Milliseconds of each ``/accept`` of a fresh challenge, with ``spam`` other challenges
    open in the chat (made straight in storage, to other users)."""
    chat = ChatRef(PLATFORM, chat_name)
    row = await core.ports.repositories.chats.upsert_chat(PLATFORM, chat_name)
    spammer = await core.ports.repositories.users.upsert_user(PLATFORM, "spammer", "Spammer")
    for number in range(spam):
        target = await core.ports.repositories.users.upsert_user(
            PLATFORM, f"target{number}", f"Target {number}"
        )
        await core.ports.repositories.challenges.create_challenge(
            chat_id=row.id,
            challenger_id=spammer.id,
            challenged_id=target.id,
            rules=MatchRules(length=1),
            move_time_limit=None,
            server_seed=bytes(32),
        )
    timings = []
    for number in range(accepts):
        challenger = Actor(PLATFORM, f"{chat_name}-a{number}", "A")
        accepter = Actor(PLATFORM, f"{chat_name}-b{number}", "B")
        offer = Request(challenger, chat, command="challenge", argument="1", mentions=(accepter,))
        await core.handle(offer)
        started = time.perf_counter()
        answer = await core.handle(Request(accepter, chat, command="accept", event_id=str(number)))
        timings.append((time.perf_counter() - started) * 1000)
        assert answer[0].text.startswith("Match "), answer[0].text
    return timings


def p99(values: list[float]) -> float:
    return sorted(values)[max(0, round(len(values) * 0.99) - 1)]


async def main(spam: int, accepts: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        database = Database(f"sqlite:///{Path(folder) / 'bench.db'}")
        await database.migrate()
        unlimited = ChallengeLimits(per_user=10**9, per_chat=10**9)
        core = Core(database, render_images=False, challenge_limits=unlimited)
        quiet = await accept_times(core, "quiet", 0, accepts)
        crowded = await accept_times(core, "crowded", spam, accepts)
        await database.close()
    return {
        "accepts": accepts,
        "open_challenges_in_crowded_chat": spam,
        "accept_ms_median_none_open": round(statistics.median(quiet), 2),
        "accept_ms_p99_none_open": round(p99(quiet), 2),
        "accept_ms_median_crowded": round(statistics.median(crowded), 2),
        "accept_ms_p99_crowded": round(p99(crowded), 2),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--open", type=int, default=5000)
    parser.add_argument("--accepts", type=int, default=30)
    options = parser.parse_args()
    print(json.dumps(asyncio.run(main(options.open, options.accepts))))
