"""A match clock over Telegram: the board's caption shows both reserves, and a clock that ran
out is told in the group once, though two bot processes (over one Bot API) look at it at the
same moment (fake time; ``clock=10s+1m``; with the fixed seeds and the accept's id as Bob's
client seed, Anna opens)."""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.service import Core
from bot.telegram_app import TelegramAdapter
from storage import Database
from tests.fakes.telegram_bot_api import FakeBotApi, FakeRequest
from tests.seeds import fixed_seeds
from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness, settings, unlimited


class FakeTime:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def _process(url: str, api: FakeBotApi, time: FakeTime) -> tuple[Harness, Database]:
    database = Database(url)
    core = Core(database, render_images=False, clock=time, server_seeds=fixed_seeds())
    adapter = TelegramAdapter(
        core,
        settings=settings(),
        request=FakeRequest(api),
        updates_request=FakeRequest(api),
        rate_limiter=unlimited(),
    )
    await adapter.initialize()
    return Harness(api, adapter, core), database


@pytest.fixture
async def two(migrated_url: str) -> AsyncIterator[tuple[Harness, Harness, FakeTime]]:
    api, time = FakeBotApi(), FakeTime()
    first, first_db = await _process(migrated_url, api, time)
    second, second_db = await _process(migrated_url, api, time)
    yield first, second, time
    for harness, database in ((first, first_db), (second, second_db)):
        await harness.adapter.application.shutdown()
        await database.close()


def _said(harness: Harness) -> list[str]:
    return [
        html.unescape(stored.data.get("text", stored.data.get("caption", "")))
        for stored in harness.api.in_chat(GROUP)
    ]


async def test_a_time_out_is_told_once_in_the_group(
    two: tuple[Harness, Harness, FakeTime],
) -> None:
    first, second, time = two
    await first.say(BOB, GROUP, "/help")  # so the bot knows who @bob is
    await first.say(ANNA, GROUP, "/challenge @bob 3 clock=10s+1m")
    await first.press_label(BOB, GROUP, "Accept")
    assert any("Clock: Anna 1:00 · Bob 1:00" in text for text in _said(first))
    time.now += timedelta(seconds=70)
    told = await asyncio.gather(first.core.ports.clock.clocks(), second.core.ports.clock.clocks())
    await first.adapter.deliver(told[0])
    await second.adapter.deliver(told[1])
    lost = [text for text in _said(first) if "Anna's time ran out" in text]
    assert len(lost) == 1
    assert "the match is lost on time. Bob wins the match: Anna ran out of time." in lost[0]
    # Anna's move comes too late: the match is over, and nothing more is recorded.
    late = await second.say(ANNA, GROUP, "/move 13/10 24/22")
    assert any("You have no match in this chat" in str(call) for call in late)
