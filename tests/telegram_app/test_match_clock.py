"""A match clock over Telegram: the board's caption shows both reserves, and a clock that ran
out is told in the group once, though two bot processes (over one Bot API) look at it at the
same moment (fake time; ``clock=10s+1m``; with the fixed seeds and the accept's id as Bob's
client seed, Anna opens)."""

from __future__ import annotations

import asyncio
import html
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from tests.bot.test_clock import FakeTime
from tests.fakes.telegram_bot_api import FakeBotApi
from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness, Process


@pytest.fixture
async def two(migrated_url: str) -> AsyncIterator[tuple[Harness, Harness, FakeTime]]:
    """Two bot processes over one Bot API, on one database and one fake time."""
    api, time = FakeBotApi(), FakeTime()
    processes = [Process(migrated_url, api, clock=time) for _ in range(2)]
    first, second = [await process.open() for process in processes]
    yield first, second, time
    for process in processes:
        await process.close()


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
