"""On Telegram, as in the console, the end of a match is answered at once and its analysis is
posted when it is ready: the host's analysing task never holds up an answer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.core.service import Core
from bot.hosting import keep_analysing
from bot.telegram_app import TelegramAdapter
from bot.telegram_app.commands import register_commands
from storage import Database
from tests.bot.held_analyses import HeldAnalyses, until
from tests.fakes.telegram_bot_api import FakeBotApi, FakeRequest
from tests.seeds import fixed_seeds
from tests.telegram_app.conftest import ANNA, GROUP, Harness, settings, unlimited
from tests.telegram_app.test_computer_match import texts


@pytest.fixture
async def telegram(migrated_url: str) -> AsyncIterator[tuple[Harness, HeldAnalyses]]:
    database = Database(migrated_url)
    engine = HeldAnalyses()
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), computer=engine)
    api = FakeBotApi()
    adapter = TelegramAdapter(
        core,
        settings=settings(),
        request=FakeRequest(api),
        updates_request=FakeRequest(api),
        rate_limiter=unlimited(),
    )
    await adapter.initialize()
    await register_commands(adapter.application.bot)
    analysing = asyncio.create_task(keep_analysing(core.ports.analyst, [adapter], every=0.01))
    try:
        yield Harness(api, adapter, core), engine
    finally:
        engine.released.set()
        analysing.cancel()
        await adapter.application.shutdown()
        engine.close()
        await database.close()


async def test_the_end_is_answered_before_the_analysis_is_posted(
    telegram: tuple[Harness, HeldAnalyses],
) -> None:
    harness, engine = telegram
    await harness.say(ANNA, GROUP, "/play 1")
    await harness.press_label(ANNA, GROUP, "Start")
    await harness.say(ANNA, GROUP, "/resign")
    ended = texts(await harness.press_label(ANNA, GROUP, "Resign"))  # the bot accepts at once
    assert any("Match over" in text for text in ended), ended
    await asyncio.wait_for(engine.entered.wait(), 60)  # the analysis has begun meanwhile
    assert not any("Analysis of match" in text for text in texts(harness.api.calls))
    engine.released.set()
    await until(
        lambda: any(text.startswith("Analysis of match 1") for text in texts(harness.api.calls)),
        "the analysis was never posted",
    )
