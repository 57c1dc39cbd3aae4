"""Telegram's part in the system tests: the Bot API the processes call (the tests' fake, over
HTTP), the updates people cause, and the webhook calls that deliver them.

Telegram delivers an update to the webhook address until it gets a 200; behind a proxy that
spreads the calls over several processes, a call that fails (connection refused or reset, no
answer, another status) goes to the next process. :class:`Webhooks` does just that, round-robin,
and remembers which process acknowledged each update.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import aiohttp

from bot.telegram_app.webhook import SECRET_HEADER
from tests.fakes.telegram_bot_api import Call, FakeBotApi

DELIVERY_TIMEOUT_S = 90.0  # Telegram tries far longer; a test that waits this long has failed
CALL_TIMEOUT_S = 30.0  # an answer later than this counts as none: the call goes elsewhere
MAX_CONNECTIONS = 40  # Telegram's default for a webhook: calls in flight at once
RETRY_PAUSE_S = 0.05  # after every process refused once: a moment before the next round


class _CallsWithoutFiles(list[Call]):
    """The API's log of calls without the uploaded files' bytes: thousands of boards would
    keep hundreds of megabytes alive for nothing (the stored messages keep their sizes)."""

    def append(self, call: Call) -> None:
        super().append(Call(call.method, call.params, {}))


class LeanBotApi(FakeBotApi):
    """The tests' fake Bot API, lighter for thousands of calls."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = _CallsWithoutFiles()

    def newest_button(self, chat_id: int, label: str) -> tuple[int, str] | None:
        """The newest message of the bot in the chat with a callback button labelled
        ``label``: (its message id, the button's data); newest first, without sorting every
        message of every chat."""
        with self.condition:
            newest = self.last_message_id.get(chat_id, 0)
            for message_id in range(newest, 0, -1):
                stored = self.messages.get((chat_id, message_id))
                if stored is None:
                    continue
                for row in stored.data.get("reply_markup", {}).get("inline_keyboard", []):
                    for button in row:
                        if button.get("text") == label and "callback_data" in button:
                            return message_id, str(button["callback_data"])
        return None

    def recent(self, chat_id: int, count: int = 3) -> list[str]:
        """The texts (or captions) of the chat's newest messages, for a failure's message."""
        with self.condition:
            newest = self.last_message_id.get(chat_id, 0)
            found = [self.messages.get((chat_id, n)) for n in range(newest, newest - count, -1)]
        return [str(s.data.get("text", s.data.get("caption", ""))) for s in found if s is not None]

    def toasts(self) -> list[str]:
        """What the bot answered to button presses, where it said something (refusals)."""
        return [
            str(c.params["text"]) for c in self.of("answerCallbackQuery") if c.params.get("text")
        ]

    def text_with_mention(
        self, sender: dict[str, Any], chat_id: int, text: str, mentioned: dict[str, Any]
    ) -> dict[str, Any]:
        """``text`` naming ``mentioned`` by first name as a text mention (the user attached,
        as Telegram sends it for someone picked from the member list): every process knows
        whom it means, where an @username is known only to a process that saw it before."""
        update = self.text(sender, chat_id, text)
        name = mentioned["first_name"]
        entities = update["message"]["entities"]
        offset = text.index(name)
        entities.append(
            {"type": "text_mention", "offset": offset, "length": len(name), "user": mentioned}
        )
        return update


@dataclass(frozen=True)
class Delivery:
    """An update acknowledged by process ``process``; ``posted_at`` when the first attempt
    began (wall clock, to compare with the database's times)."""

    update_id: int
    process: int
    posted_at: datetime


class Webhooks:
    """POSTs updates to the processes' webhooks round-robin, each until one answers 200."""

    def __init__(
        self, hooks: Sequence[str], secret: str, max_connections: int = MAX_CONNECTIONS
    ) -> None:
        self.hooks = list(hooks)
        self._connections = asyncio.Semaphore(max_connections)
        self.headers = {SECRET_HEADER: secret}
        self.deliveries: dict[int, Delivery] = {}
        self.attempts: dict[int, list[int]] = {}  # update id -> the processes called, in order
        self.failures: Counter[str] = Counter()  # why calls failed
        self._turn = itertools.count()
        self._client: aiohttp.ClientSession | None = None  # made on the first call's loop
        self._max_connections = max_connections

    async def deliver(self, update: dict[str, Any]) -> Delivery:
        """Deliver ``update``; what acknowledged it."""
        update_id = int(update["update_id"])
        posted_at = datetime.now(UTC)
        tried = self.attempts.setdefault(update_id, [])
        process = next(self._turn) % len(self.hooks)
        deadline = time.monotonic() + DELIVERY_TIMEOUT_S
        while time.monotonic() < deadline:
            tried.append(process)
            if await self._post(self.hooks[process], update):
                delivery = Delivery(update_id, process, posted_at)
                self.deliveries[update_id] = delivery
                return delivery
            process = (process + 1) % len(self.hooks)
            if len(tried) % len(self.hooks) == 0:  # every process refused once
                await asyncio.sleep(RETRY_PAUSE_S)
        raise AssertionError(f"no process acknowledged update {update_id}")

    async def _post(self, hook: str, update: dict[str, Any]) -> bool:
        try:
            async with (
                self._connections,
                self._session().post(hook, json=update, headers=self.headers) as answer,
            ):
                await answer.read()
                status = answer.status
        except (aiohttp.ClientError, TimeoutError) as error:  # refused, reset, timed out
            self.failures[f"{type(error).__name__}: {error}"] += 1
            return False
        if status != 200:
            self.failures[f"HTTP {status}"] += 1
        return status == 200

    def _session(self) -> aiohttp.ClientSession:
        """The client (aiohttp's, whose compiled parser costs the harness little CPU: the
        machine's cores are what the processes measured share)."""
        if self._client is None:
            self._client = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._max_connections),
                timeout=aiohttp.ClientTimeout(total=CALL_TIMEOUT_S),
            )
        return self._client

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
