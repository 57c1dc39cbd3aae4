"""The Discord adapter against the fake Discord on 127.0.0.1 (tests/fakes/discord_server.py).

A real discord.py client logs in to the fake; times are from the moment the fake sends an
interaction over the gateway to the moment the bot's answer reaches the fake's REST routes
(both run in this one process and event loop, as a bot and a nearby Discord would not; the
figures are the adapter's own share, without the internet).

1. Acknowledgement: ``/board`` (which renders the board picture after the ``defer``), one at a
   time, then in bursts of 20 at once.
2. Autocomplete of ``/move`` in a position with 335 legal plays (gnubg position
   ``+ww0CCTgFRzJDA`` with 3-3): the stored match is read as usual, and its position is
   swapped for that one on the way out of the repository. The first answer (move generation
   not cached yet) is reported apart.

Prints one JSON object as its last line.

    python benchmarks/discord_adapter.py [--rounds 200]
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import SecretStr

from bot.config import Settings
from bot.core.service import Core
from bot.discord_app import DiscordAdapter
from gammon import Position
from gammon.flow import Phase
from storage import Database
from tests.fakes.discord_server import CHANNEL_ID, GUILD_ID, Call, FakeDiscord

ANNA, BOB = 700000000000000001, 700000000000000002
WIDE_POSITION, WIDE_DICE = "+ww0CCTgFRzJDA", (3, 3)
TYPED = ("", "2", "24/", "13/1", "8/5", "6/3", "21", "13/10 1")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def summary(prefix: str, values: list[float]) -> dict[str, float]:
    return {
        f"{prefix}_ms_median": round(statistics.median(values) * 1000, 2),
        f"{prefix}_ms_p99": round(percentile(values, 0.99) * 1000, 2),
    }


def is_callback(call: Call, interaction_id: int) -> bool:
    return call.path == f"/interactions/{interaction_id}/token-{interaction_id}/callback"


async def ack_time(fake: FakeDiscord, sent: Any, mark: int) -> float:
    call = await fake.wait_for(lambda call: is_callback(call, sent.id), after=mark, timeout=30)
    return float(call.at - sent.sent_at)


async def finished(fake: FakeDiscord, token: str, mark: int) -> None:
    """A slash answer with only public messages ends by removing its placeholder."""
    await fake.wait_for(
        lambda call: call.method == "DELETE" and token in call.path, after=mark, timeout=60
    )


async def start_match(fake: FakeDiscord) -> None:
    mark = len(fake.calls)
    user = {"id": str(BOB), "username": "bob", "discriminator": "0", "avatar": None}
    await fake.slash(
        ANNA,
        "challenge",
        [{"name": "opponent", "type": 6, "value": str(BOB)}],
        resolved={"users": {str(BOB): user}},
    )
    offer = await fake.wait_for(
        lambda call: (
            call.path == f"/channels/{CHANNEL_ID}/messages"
            and "challenges" in str((call.json or {}).get("content", ""))
        ),  # type: ignore[union-attr]
        after=mark,
    )
    assert isinstance(offer.json, dict)
    assert offer.created is not None
    accept = offer.json["components"][0]["components"][0]["custom_id"]
    mark = len(fake.calls)
    await fake.click(BOB, offer.created, accept)
    await fake.wait_for(
        lambda call: " to play " in str((call.json or {}).get("content", "")),  # type: ignore[union-attr]
        after=mark,
    )


async def acknowledgements(fake: FakeDiscord, rounds: int) -> dict[str, float]:
    one_by_one = []
    for _round in range(rounds):
        mark = len(fake.calls)
        sent = await fake.slash(ANNA, "board")
        one_by_one.append(await ack_time(fake, sent, mark))
        await finished(fake, sent.token, mark)
    bursts = []
    for _burst in range(max(1, rounds // 20)):
        mark = len(fake.calls)
        sent_all = [await fake.slash(ANNA, "board") for _ in range(20)]
        bursts += [await ack_time(fake, sent, mark) for sent in sent_all]
        for sent in sent_all:
            await finished(fake, sent.token, mark)
    return {**summary("ack_sequential", one_by_one), **summary("ack_burst20", bursts)}


async def autocomplete(fake: FakeDiscord, core: Core, rounds: int) -> dict[str, float]:
    stored = core.matches.active_match_for

    async def wide(chat_id: int, user_id: int) -> Any:
        loaded = await stored(chat_id, user_id)
        if loaded is None:
            return None
        player = loaded.info.player_index(user_id)
        state = dataclasses.replace(
            loaded.state,
            phase=Phase.MOVING,
            position=Position.from_id(WIDE_POSITION),
            dice=WIDE_DICE,
            player_on_roll=player,
        )
        return dataclasses.replace(loaded, state=state)

    core.matches.active_match_for = wide  # type: ignore[method-assign]
    plays = len((await wide_state(core, wide)).legal_plays())
    times = []
    counts = []
    for index in range(rounds + 1):
        mark = len(fake.calls)
        sent = await fake.autocomplete(ANNA, "move", "play", TYPED[index % len(TYPED)])
        call = await fake.wait_for(lambda call, asked=sent.id: is_callback(call, asked), after=mark)
        assert isinstance(call.json, dict)
        counts.append(len(call.json["data"]["choices"]))
        times.append(call.at - sent.sent_at)
    first = times.pop(0)
    return {
        "autocomplete_legal_plays": plays,
        "autocomplete_first_ms": round(first * 1000, 2),
        **summary("autocomplete", times),
        "autocomplete_choices_max": max(counts),
    }


async def wide_state(core: Core, wide: Any) -> Any:
    chat = await core.chats.find_chat("discord", str(CHANNEL_ID))
    user = await core.users.find_user("discord", str(ANNA))
    assert chat is not None
    assert user is not None
    return (await wide(chat.id, user.id)).state


async def run(folder: Path, rounds: int) -> dict[str, Any]:
    fake = FakeDiscord()
    await fake.start()
    fake.add_user(ANNA, "Anna")
    fake.add_user(BOB, "Bob")
    database = Database(f"sqlite+aiosqlite:///{folder / 'bench.db'}")
    await database.migrate()
    core = Core(database)
    await core.painter.start()  # as the host does at start
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=SecretStr("fake-token"),
        discord_guild_id=GUILD_ID,
    )
    adapter = DiscordAdapter(core, settings=settings, client_options={"guild_ready_timeout": 0})
    with fake.routed():
        await adapter.start()
        try:
            await start_match(fake)
            result: dict[str, Any] = {"rounds": rounds}
            result.update(await acknowledgements(fake, rounds))
            result.update(await autocomplete(fake, core, rounds))
        finally:
            await adapter.stop()
            await fake.stop()
            await database.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=200)
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as name:
        result = asyncio.run(run(Path(name), arguments.rounds))
    result["seconds"] = round(time.perf_counter() - started, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
