"""The Telegram adapter under Telegram's limits: API calls per half-turn, and click to board.

A real python-telegram-bot ``Application`` with ``AIORateLimiter()`` at its defaults (30 calls
a second overall, 20 a minute per group) talks to the fake Bot API of the tests in-process;
boards are drawn as in production (pictures on, the painter started), the server seeds are
the tests' fixed ones and the players' choices come from a seeded RNG, so runs repeat.
Scripted people play 3-point matches with the cube (see ``benchmarks/budget.py``), each acting
``--pace`` seconds after the board they need appeared; every update is handed to the bot in a
task of its own (as with ``concurrent_updates``), so a slow answer does not hold up the next.

Scenarios (``--scenarios``):

- ``one``: one match in a group. Per half-turn (the run of consecutive updates of one player:
  [Roll] and ``/move``, or [Double], or [Take]), the calls the group's limit counts: every
  method whose ``chat_id`` is the group (sendMessage, sendPhoto, sendAnimation,
  sendDocument, editMessage*, ...; not answerCallbackQuery), and the private notifications
  (messages to the players' private chats). Also the time from each update to the board the
  next player needs.
- ``two``: two matches in the same group at once (four people): click to board.
- ``private``: ``/play 1`` against the bot in a private chat: calls to that chat per
  half-turn.

Prints a short summary and, as its last line, one JSON object.

    python benchmarks/telegram_adapter.py [--pace 5] [--half-turns 0] [--scenarios one,two,private]
    python benchmarks/telegram_adapter.py --pace 1 --half-turns 40    # a few minutes
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import logging
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import SecretStr
from telegram import Update as TelegramUpdate
from telegram.ext import AIORateLimiter
from telegram.request import RequestData

from benchmarks.budget import (
    CAUSE,
    Driver,
    Ledger,
    Options,
    Referee,
    Seat,
    Sent,
    Table,
    Update,
    add_arguments,
    half_turn_lines,
    options_from,
    play_scenarios,
    scenario_figures,
    summary_lines,
)
from bot.config import Settings
from bot.core.service import Core
from bot.telegram_app import TelegramAdapter
from storage import Database
from tests.fakes.telegram_bot_api import TOKEN, FakeBotApi, FakeRequest, decode_fields, user
from tests.seeds import fixed_seeds

PLATFORM = "telegram"
GROUP_ONE, GROUP_TWO = -100501, -100502
NOT_CHAT_LIMITED = frozenset({"answerCallbackQuery", "getMe", "setMyCommands", "getUpdates"})
PICTURES = frozenset({"sendPhoto", "sendAnimation", "editMessageMedia"})


def seat(user_id: int, name: str) -> Seat:
    return Seat(str(user_id), name, name.lower())


class Wire(FakeRequest):
    """The in-process transport: each call reaches the fake API and is logged with the update
    that caused it (the context variable travels with the handler's task)."""

    def __init__(self, api: FakeBotApi, ledger: Ledger) -> None:
        super().__init__(api)
        self.ledger = ledger

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
        arrived = time.perf_counter()
        name = url.rsplit("/", 1)[-1]
        status, body = await super().do_request(url, method, request_data)
        if name != "getUpdates":
            raw = request_data.json_parameters if request_data else {}
            sent = describe(name, decode_fields(raw), body, arrived)
            sent.ok = status == 200
            self.ledger.add(sent)
        return status, body


def describe(method: str, params: dict[str, Any], body: bytes, arrived: float) -> Sent:
    chat_id = params.get("chat_id")
    chat = None if chat_id is None or method in NOT_CHAT_LIMITED else str(chat_id)
    media = params.get("media") if isinstance(params.get("media"), dict) else {}
    text = str(params.get("caption") or params.get("text") or (media or {}).get("caption") or "")
    message = params.get("message_id")
    try:
        result = json.loads(body).get("result")
    except ValueError:
        result = None
    if isinstance(result, dict) and "message_id" in result:
        message = result["message_id"]
    markup = params.get("reply_markup") or {}
    labels = tuple(
        button["text"]
        for row in (markup.get("inline_keyboard") or [])
        for button in row
        if "callback_data" in button
    )
    kind = method
    if method == "editMessageReplyMarkup" and not labels:
        kind = "editMessageReplyMarkup (strip buttons)"
    return Sent(
        at=arrived,
        cause=CAUSE.get(),
        chat=chat,
        private=chat is not None and chat.isdigit(),  # users' chats: positive ids
        kind=kind,
        image=method in PICTURES,
        text=text,
        message=None if message is None else str(message),
        labels=labels,
    )


class TelegramBench:
    platform = PLATFORM

    def __init__(self, api: FakeBotApi, adapter: TelegramAdapter, ledger: Ledger) -> None:
        self.api = api
        self.adapter = adapter
        self.ledger = ledger
        self.tasks: dict[int, asyncio.Task[None]] = {}

    def _feed(self, update: Update, body: dict[str, Any]) -> None:
        """Hand one update to the bot, in a task of its own tagged with its number."""
        application = self.adapter.application
        context = contextvars.copy_context()
        context.run(CAUSE.set, update.number)
        parsed = TelegramUpdate.de_json(body, application.bot)
        update.sent_at = time.perf_counter()
        self.tasks[update.number] = asyncio.create_task(
            application.process_update(parsed), context=context
        )

    def _say(self, update: Update, text: str) -> None:
        sender = self._user(update.seat)
        self._feed(update, self.api.text(sender, int(update.table.chat), text))

    @staticmethod
    def _user(seat: Seat) -> dict[str, Any]:
        return user(int(seat.user_id), seat.name, seat.username)

    async def challenge(self, update: Update, opponent: Seat, length: int) -> None:
        self._say(update, f"/challenge @{opponent.username} {length}")

    async def play_bot(self, update: Update, length: int) -> None:
        self._say(update, f"/play {length}")

    async def move(self, update: Update, play: str) -> None:
        self._say(update, f"/move {play}")

    async def press(self, update: Update, label: str, near: Sent | None) -> None:
        chat = int(update.table.chat)
        message_id, data = self._button(update.table, label, near)
        self._feed(update, self.api.press(self._user(update.seat), chat, message_id, data))

    def _button(self, table: Table, label: str, near: Sent | None) -> tuple[int, str]:
        """The button with this label: on the board the player looks at, else the newest in
        the chat on a message about this match, else the newest in the chat."""
        stored = list(reversed(self.api.in_chat(int(table.chat))))
        looked_at = [
            message
            for message in stored
            if near is not None and str(message.data["message_id"]) == near.message
        ]
        about = [
            message
            for message in stored
            if table.names_in(str(message.data.get("caption") or message.data.get("text")))
        ]
        for message in [*looked_at, *about, *stored]:
            for row in message.data.get("reply_markup", {}).get("inline_keyboard", []):
                for button in row:
                    if button["text"] == label and "callback_data" in button:
                        return message.data["message_id"], button["callback_data"]
        raise RuntimeError(f"no [{label}] button in chat {table.chat}")

    def settled(self, update: Update) -> bool:
        task = self.tasks.get(update.number)
        return task is not None and task.done()

    async def settle(self) -> None:
        await asyncio.gather(*self.tasks.values())


class ObservedLimiter(AIORateLimiter):
    """``AIORateLimiter()`` at its defaults; notes how long each call was held back."""

    def __init__(self) -> None:
        super().__init__()
        self.waits: list[float] = []

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        entered = time.perf_counter()

        async def timed(*inner: Any, **named: Any) -> Any:
            self.waits.append(time.perf_counter() - entered)
            return await callback(*inner, **named)

        return await super().process_request(timed, args, kwargs, endpoint, data, rate_limit_args)


async def run(folder: Path, options: Options, scenarios: set[str]) -> dict[str, Any]:
    started = time.perf_counter()
    database = Database(f"sqlite+aiosqlite:///{folder / 'bench.db'}")
    await database.migrate()
    core = Core(database, server_seeds=fixed_seeds())  # pictures on, as in production
    await core.ports.workers.start()  # as the host does at start
    api = FakeBotApi()
    ledger = Ledger()
    limiter = ObservedLimiter()
    adapter = TelegramAdapter(
        core,
        settings=Settings(_env_file=None, telegram_token=SecretStr(TOKEN)),  # type: ignore[call-arg]
        request=Wire(api, ledger),
        updates_request=FakeRequest(api),
        rate_limiter=limiter,
    )
    initialize = getattr(adapter, "initialize", None)  # logs in and names the bot's account
    await (initialize() if initialize is not None else adapter.application.initialize())
    bench = TelegramBench(api, adapter, ledger)
    driver = Driver(bench, Referee(database, PLATFORM), options)
    anna, bob = seat(11, "Anna"), seat(22, "Bob")
    carl, dora, emil, fred = seat(33, "Carl"), seat(44, "Dora"), seat(55, "Emil"), seat(66, "Fred")
    gina = seat(77, "Gina")
    # The bot learns @usernames from what people write; they write /help to it privately.
    for person in (bob, dora, fred):
        sender = user(int(person.user_id), person.name, person.username)
        update = TelegramUpdate.de_json(
            api.text(sender, int(person.user_id), "/help"), adapter.application.bot
        )
        await adapter.application.process_update(update)
    one = [Table("one", str(GROUP_ONE), (anna, bob))] if "one" in scenarios else []
    two = (
        [Table("two-a", str(GROUP_TWO), (carl, dora)), Table("two-b", str(GROUP_TWO), (emil, fred))]
        if "two" in scenarios
        else []
    )
    private = [Table("private", gina.user_id, (gina,), against_bot=True)]
    private = private if "private" in scenarios else []
    try:
        await play_scenarios(driver, core.ports.workers.computer, one, two, private)
    finally:
        await adapter.application.shutdown()
        core.ports.workers.computer.close()
        core.ports.workers.painter.close()
        await database.close()
    figures: dict[str, Any] = {"platform": PLATFORM, "pace_s": options.pace}
    figures["half_turn_limit"] = options.half_turns or None
    figures.update(scenario_figures(ledger, one, two, private))
    if options.verbose:
        print("\n".join(half_turn_lines(ledger, [*one, *two, *private])), file=sys.stderr)
    waits = sorted(limiter.waits)
    figures["limiter_held_calls"] = sum(1 for wait in waits if wait > 0.05)
    figures["limiter_wait_ms_max"] = round(waits[-1] * 1000) if waits else None
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    options, scenarios = options_from(parser.parse_args())
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("benchmarks").setLevel(logging.WARNING)  # a board that never came
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(Path(folder), options, scenarios))
    for line in summary_lines(figures):
        print(line)
    print(
        f"limiter: {figures['limiter_held_calls']} calls held back, longest "
        f"{figures['limiter_wait_ms_max']} ms; {figures['seconds']} s in all"
    )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
