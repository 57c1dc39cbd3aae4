"""A real python-telegram-bot ``Application`` wired to the fake Bot API in-process; updates are
fed with ``process_update``, so each step is finished when the call returns."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import pytest
from pydantic import SecretStr
from telegram import Update
from telegram.ext import AIORateLimiter

from bot.config import Settings
from bot.core.bootstrap import Repositories
from bot.core.service import Core
from bot.telegram_app import TelegramAdapter
from bot.telegram_app.commands import register_commands
from storage import Database
from tests.fakes.telegram_bot_api import TOKEN, Call, FakeBotApi, FakeRequest, Stored, user
from tests.seeds import fixed_seeds

GROUP = -100123
ANNA = user(11, "Anna", "anna")
BOB = user(22, "Bob", "bob")
CARL = user(33, "Carl", "carl")


def settings(**values: Any) -> Settings:
    return Settings(_env_file=None, telegram_token=SecretStr(TOKEN), **values)  # type: ignore[call-arg]


def unlimited() -> AIORateLimiter:
    """The real limiter with Telegram's per-group limit off: a test match sends more than 20
    messages a minute to one group."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0)


def fake_adapter(core: Core, api: FakeBotApi) -> TelegramAdapter:
    """Our adapter of ``core``, talking to the fake Bot API ``api`` in-process."""
    return TelegramAdapter(
        core,
        settings=settings(),
        request=FakeRequest(api),
        updates_request=FakeRequest(api),
        rate_limiter=unlimited(),
    )


@dataclass
class Harness:
    api: FakeBotApi
    adapter: TelegramAdapter
    core: Core

    @property
    def stores(self) -> Repositories:
        """The bot's repositories: what the database holds, to set up or look at."""
        return self.core.ports.repositories

    async def say(
        self,
        sender: dict[str, Any],
        chat_id: int,
        text: str,
        reply_to: int | None = None,
        topic: int | None = None,
    ) -> list[Call]:
        before = len(self.api.calls)
        update = self.api.text(sender, chat_id, text, reply_to, topic=topic)
        await self.adapter.application.process_update(
            Update.de_json(update, self.adapter.application.bot)
        )
        return self.api.calls[before:]

    async def press(
        self, sender: dict[str, Any], chat_id: int, message_id: int, data: str
    ) -> list[Call]:
        before = len(self.api.calls)
        update = self.api.press(sender, chat_id, message_id, data)
        await self.adapter.application.process_update(
            Update.de_json(update, self.adapter.application.bot)
        )
        return self.api.calls[before:]

    async def press_label(self, sender: dict[str, Any], chat_id: int, label: str) -> list[Call]:
        message_id, data = self.button(chat_id, label)
        return await self.press(sender, chat_id, message_id, data)

    def button(self, chat_id: int, label: str) -> tuple[int, str]:
        """The newest callback button with this label in the chat."""
        for stored in reversed(self.api.in_chat(chat_id)):
            for row in stored.data.get("reply_markup", {}).get("inline_keyboard", []):
                for button in row:
                    if button["text"] == label and "callback_data" in button:
                        return stored.data["message_id"], button["callback_data"]
        raise AssertionError(f"no [{label}] button in chat {chat_id}")

    def newest(self, chat_id: int, kind: str | None = None) -> Stored:
        found = [s for s in self.api.in_chat(chat_id) if kind is None or s.kind == kind]
        assert found, f"no {kind or ''} message in chat {chat_id}"
        return found[-1]


@dataclass
class Process:
    """The bot as a process: a core and an adapter on the database, over one fake Bot API
    that outlives it (the chat keeps its messages across a restart)."""

    url: str
    api: FakeBotApi
    harness: Harness | None = None
    database: Database | None = None
    clock: Callable[[], datetime] | None = None  # a fake time for the core

    async def open(self) -> Harness:
        self.database = Database(self.url)
        core = Core(
            self.database, render_images=False, clock=self.clock, server_seeds=fixed_seeds()
        )
        adapter = fake_adapter(core, self.api)
        await adapter.initialize()
        self.harness = Harness(self.api, adapter, core)
        return self.harness

    async def close(self) -> None:
        assert self.harness is not None
        assert self.database is not None
        await self.harness.adapter.application.shutdown()
        await self.database.close()

    async def restart(self) -> Harness:
        """The process stops and a new one starts on the same database."""
        await self.close()
        return await self.open()


@pytest.fixture
async def bot(migrated_url: str) -> AsyncIterator[Process]:
    """A bot that draws no pictures, as a process that the test may restart."""
    running = Process(migrated_url, FakeBotApi())
    await running.open()
    yield running
    await running.close()


@pytest.fixture
async def telegram(migrated_url: str) -> AsyncIterator[Harness]:
    database = Database(migrated_url)
    core = Core(database, server_seeds=fixed_seeds())
    api = FakeBotApi()
    adapter = fake_adapter(core, api)
    await adapter.application.initialize()
    await register_commands(adapter.application.bot)
    yield Harness(api, adapter, core)
    await adapter.application.shutdown()
    await database.close()
