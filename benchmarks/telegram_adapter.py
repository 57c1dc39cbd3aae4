"""The Telegram adapter offline: from an update arriving to the bot's first API call.

A real python-telegram-bot ``Application`` (rate limiter on, per-group limit off) talks to the
fake Bot API of the tests in-process; two scripted players play 1-point matches through
``/move`` and button presses (fed with ``process_update``), boards drawn as in production.
Measured per update: the time to the first API call it causes (the callback answer for a
press, the first message for a typed move) and to the end of its handling; and the size of
each uploaded board picture.

Prints one JSON object as its last line.

    python benchmarks/telegram_adapter.py [--updates 400]
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import SecretStr
from telegram import Update
from telegram.ext import AIORateLimiter
from telegram.request import RequestData

from bot.config import Settings
from bot.core.service import Core
from bot.telegram_app import TelegramAdapter
from gammon.flow import Phase
from storage import Database
from tests.fakes.telegram_bot_api import TOKEN, FakeBotApi, FakeRequest, user

GROUP = -100500
PLAYERS = (user(11, "Anna", "anna"), user(22, "Bob", "bob"))


class TimedRequest(FakeRequest):
    """The in-process transport, noting when each API call leaves the bot."""

    def __init__(self, api: FakeBotApi) -> None:
        super().__init__(api)
        self.sent: list[tuple[float, str]] = []

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        self.sent.append((time.perf_counter(), url.rsplit("/", 1)[-1]))
        return await super().do_request(url, method, request_data)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


async def run(folder: Path, wanted: int) -> dict[str, object]:
    database = Database(f"sqlite+aiosqlite:///{folder / 'bench.db'}")
    await database.migrate()
    core = Core(database)
    await core.painter.start()  # as the host does at start
    api = FakeBotApi()
    transport = TimedRequest(api)
    adapter = TelegramAdapter(
        core,
        settings=Settings(_env_file=None, telegram_token=SecretStr(TOKEN)),  # type: ignore[call-arg]
        request=transport,
        updates_request=FakeRequest(api),
        rate_limiter=AIORateLimiter(overall_max_rate=0, group_max_rate=0),
    )
    application = adapter.application
    await application.initialize()
    samples: dict[str, list[float]] = {"press": [], "move": [], "done": []}

    async def feed(update: dict[str, Any], kind: str) -> None:
        before = len(transport.sent)
        started = time.perf_counter()
        await application.process_update(Update.de_json(update, application.bot))
        finished = time.perf_counter()
        samples["done"].append((finished - started) * 1000)
        if len(transport.sent) > before:
            samples[kind].append((transport.sent[before][0] - started) * 1000)

    def newest_button(label: str) -> tuple[int, str]:
        for stored in reversed(api.in_chat(GROUP)):
            for row in stored.data.get("reply_markup", {}).get("inline_keyboard", []):
                for button in row:
                    if button["text"] == label:
                        return stored.data["message_id"], button["callback_data"]
        raise RuntimeError(f"no [{label}] button")

    await feed(api.text(PLAYERS[1], GROUP, "/help"), "move")
    matches = 0
    while len(samples["done"]) < wanted:
        matches += 1
        await feed(api.text(PLAYERS[0], GROUP, "/challenge @bob 1 nocube"), "move")
        message_id, data = newest_button("Accept")
        await feed(api.press(PLAYERS[1], GROUP, message_id, data), "press")
        chat = await core.chats.find_chat("telegram", str(GROUP))
        anna = await core.users.find_user("telegram", "11")
        assert chat is not None
        assert anna is not None
        while (loaded := await core.matches.active_match_for(chat.id, anna.id)) is not None:
            state = loaded.state
            actor = state.turn if state.turn is not None else state.player_on_roll
            player = PLAYERS[actor]
            if state.phase is Phase.ROLLING:
                message_id, data = newest_button("Roll")
                await feed(api.press(player, GROUP, message_id, data), "press")
            elif state.phase is Phase.MOVING:
                play = str(state.legal_plays()[0])
                await feed(api.text(player, GROUP, f"/move {play}"), "move")
            else:
                raise RuntimeError(f"unexpected phase {state.phase}")
    await application.shutdown()
    await database.close()
    photos = [len(call.files["photo"]) / 1024 for call in api.of("sendPhoto")]
    return {
        "matches": matches,
        "updates": len(samples["done"]),
        "move_to_first_call_ms_median": round(statistics.median(samples["move"]), 2),
        "move_to_first_call_ms_p99": round(percentile(samples["move"], 0.99), 2),
        "press_to_answer_ms_median": round(statistics.median(samples["press"]), 2),
        "press_to_answer_ms_p99": round(percentile(samples["press"], 0.99), 2),
        "update_handled_ms_median": round(statistics.median(samples["done"]), 2),
        "update_handled_ms_p99": round(percentile(samples["done"], 0.99), 2),
        "board_photos": len(photos),
        "board_photo_kb_median": round(statistics.median(photos), 1),
        "board_photo_kb_max": round(max(photos), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=400)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(run(Path(folder), arguments.updates))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
