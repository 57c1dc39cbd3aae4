"""[Open board] on Telegram: a Mini App button in a private chat, the bot's Mini App by its
direct link in a group (with ``TELEGRAM_MINI_APP``), otherwise a button whose answer is the
player's private link; none without web pages."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.core.service import Core
from bot.telegram_app import TelegramAdapter
from bot.telegram_app.commands import register_commands
from storage import Database
from tests.fakes.telegram_bot_api import BOT_USERNAME, FakeBotApi, FakeRequest
from tests.seeds import fixed_seeds
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness, settings, unlimited

BASE = "https://gammon.example.org"


async def _harness(url: str, web: bool, mini_app: str | None) -> Harness:
    core = Core(
        Database(url),
        render_images=False,
        server_seeds=fixed_seeds(),
        web_base_url=BASE if web else None,
    )
    api = FakeBotApi()
    adapter = TelegramAdapter(
        core,
        settings=settings(telegram_mini_app=mini_app),
        request=FakeRequest(api),
        updates_request=FakeRequest(api),
        rate_limiter=unlimited(),
    )
    await adapter.application.initialize()
    await register_commands(adapter.application.bot)
    return Harness(api, adapter, core)


@pytest.fixture
async def made(migrated_url: str) -> AsyncIterator[list[Harness]]:
    harnesses: list[Harness] = []
    yield harnesses
    for harness in harnesses:
        await harness.adapter.application.shutdown()


async def _group_match(harness: Harness) -> str:
    await harness.say(BOB, GROUP, "/help")
    await harness.say(ANNA, GROUP, "/challenge @bob 1")
    await harness.press_label(BOB, GROUP, "Accept")
    info = await harness.stores.matches.match_info(1)
    return info.slug


def _open_board(harness: Harness, chat_id: int) -> dict[str, Any]:
    for stored in reversed(harness.api.in_chat(chat_id)):
        for row in stored.data.get("reply_markup", {}).get("inline_keyboard", []):
            for button in row:
                if button["text"] == "Open board":
                    return dict(button)
    raise AssertionError("no [Open board]")


async def test_a_group_opens_the_mini_app_by_its_direct_link(
    migrated_url: str, made: list[Harness]
) -> None:
    harness = await _harness(migrated_url, web=True, mini_app="board")
    made.append(harness)
    slug = await _group_match(harness)
    button = _open_board(harness, GROUP)
    assert button == {
        "text": "Open board",
        "url": f"https://t.me/{BOT_USERNAME}/board?startapp={slug}",
    }


async def test_a_group_without_a_mini_app_opens_the_private_chat_with_the_link(
    migrated_url: str, made: list[Harness]
) -> None:
    harness = await _harness(migrated_url, web=True, mini_app=None)
    made.append(harness)
    slug = await _group_match(harness)
    button = _open_board(harness, GROUP)
    prefix = f"https://t.me/{BOT_USERNAME}?start="
    assert set(button) == {"text", "url"}
    assert button["url"].startswith(prefix)
    payload = button["url"].removeprefix(prefix)
    group_before = [stored.data.get("text") for stored in harness.api.in_chat(GROUP)]
    calls = await harness.say(ANNA, 11, f"/start {payload}")  # Start pressed in the chat
    (sent,) = [call for call in calls if call.method == "sendMessage"]
    assert sent.params["chat_id"] == 11
    assert f"{BASE}/m/{slug}/play#key=k1." in sent.params["text"]
    (row,) = sent.params["reply_markup"]["inline_keyboard"]
    assert row == [{"text": "Open board", "web_app": {"url": f"{BASE}/m/{slug}/play"}}]
    # Nothing of it reached the group, and Bob's link is his own.
    assert [stored.data.get("text") for stored in harness.api.in_chat(GROUP)] == group_before
    calls = await harness.say(BOB, 22, f"/start {payload}")
    (sent_to_bob,) = [call for call in calls if call.method == "sendMessage"]
    assert sent_to_bob.params["text"].split("#key=")[1] != sent.params["text"].split("#key=")[1]


async def test_a_stranger_gets_the_address_to_watch(migrated_url: str, made: list[Harness]) -> None:
    harness = await _harness(migrated_url, web=True, mini_app=None)
    made.append(harness)
    slug = await _group_match(harness)
    payload = _open_board(harness, GROUP)["url"].split("?start=")[1]
    calls = await harness.say(CARL, 33, f"/start {payload}")
    (sent,) = [call for call in calls if call.method == "sendMessage"]
    assert f"{BASE}/m/{slug}/play" in sent.params["text"]
    assert "#key=" not in sent.params["text"]


async def test_a_private_chat_opens_the_page_as_a_mini_app(
    migrated_url: str, made: list[Harness]
) -> None:
    harness = await _harness(migrated_url, web=True, mini_app=None)
    made.append(harness)
    await harness.say(ANNA, 11, "/play 1")
    await harness.press_label(ANNA, 11, "Start")
    info = await harness.stores.matches.match_info(1)
    button = _open_board(harness, 11)
    assert button == {"text": "Open board", "web_app": {"url": f"{BASE}/m/{info.slug}/play"}}


async def test_no_button_without_web_pages(migrated_url: str, made: list[Harness]) -> None:
    harness = await _harness(migrated_url, web=False, mini_app="board")
    made.append(harness)
    await _group_match(harness)
    with pytest.raises(AssertionError, match="no \\[Open board\\]"):
        _open_board(harness, GROUP)
