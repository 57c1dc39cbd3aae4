"""Small pieces of the adapter: deep-link payloads, URLs, escaping, slots of clock messages."""

from __future__ import annotations

import re

import pytest
from telegram import Update

from bot.core.model import Button, ChatRef, Message, Public, Slot
from bot.core.service import Core
from bot.core.tokens import Token, format_token
from bot.telegram_app.adapter import TelegramAdapter, file_url_for
from bot.telegram_app.links import challenge_payload, parse_challenge_payload
from storage import Database
from tests.fakes.telegram_bot_api import FakeBotApi, FakeRequest
from tests.seeds import fixed_seeds
from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness, settings


@pytest.mark.parametrize("challenge", [1, 12, 999_999_999_999])
def test_challenge_payloads_fit_telegrams_start_parameter(challenge: int) -> None:
    payload = challenge_payload(challenge)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload)
    assert parse_challenge_payload(payload) == challenge


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "notify",
        "bg1_take_m3_4",
        "bg1_accept_m3_0",
        "bg1_accept_c3",
        "x" * 65,
        "bg1:accept:c3:0",
    ],
)
def test_other_start_payloads_accept_nothing(payload: str) -> None:
    assert parse_challenge_payload(payload) is None


def test_the_file_url_follows_the_base_url() -> None:
    assert file_url_for("http://127.0.0.1:8081/bot") == "http://127.0.0.1:8081/file/bot"
    assert file_url_for("https://api.example.org") == "https://api.example.org/file/bot"


async def test_names_and_texts_are_escaped_for_html(telegram: Harness) -> None:
    eve = {"id": 55, "is_bot": False, "first_name": "<b>Eve</b> & co", "username": "eve"}
    await telegram.say(eve, GROUP, "/help")
    calls = await telegram.say(ANNA, GROUP, "/challenge @eve 3")
    text = calls[0].params["text"]
    assert '<a href="tg://user?id=55">&lt;b&gt;Eve&lt;/b&gt; &amp; co</a>' in text
    assert "<b>" not in text


async def test_clock_messages_in_one_slot_edit_or_replace(telegram: Harness) -> None:
    group = ChatRef("telegram", str(GROUP))
    await telegram.say(BOB, GROUP, "/help")  # Bob is known, so he can be mentioned by name
    claim = format_token(Token("claim", "m", 1, 7))
    await telegram.adapter.deliver(
        [
            Message(
                group,
                "Bob's time is up.",
                (Button("Claim win", claim),),
                kind=Public(Slot("claim:1")),
            )
        ]
    )
    first = telegram.newest(GROUP)
    assert telegram.button(GROUP, "Claim win") == (first.data["message_id"], claim)
    await telegram.adapter.deliver(
        [Message(group, "The match was claimed.", kind=Public(Slot("claim:1")))]
    )
    assert telegram.newest(GROUP) is first  # edited in place: nobody needs to be pinged
    assert first.data["text"] == "The match was claimed."
    assert "reply_markup" not in first.data
    await telegram.adapter.deliver(
        [Message(group, "Bob, your turn.", mention=("22",), kind=Public(Slot("claim:1")))]
    )
    assert telegram.newest(GROUP) is not first  # a mention needs a new message
    assert telegram.newest(GROUP).data["text"].startswith('<a href="tg://user?id=22">Bob</a>')


async def test_a_long_text_is_clipped_without_breaking_its_markup(telegram: Harness) -> None:
    group = ChatRef("telegram", str(GROUP))
    await telegram.adapter.deliver([Message(group, "&" * 5000)])
    text = telegram.newest(GROUP).data["text"]
    assert text.endswith("&amp;…")
    assert len(text.replace("&amp;", "&")) < 4096


async def test_a_message_telegram_refuses_for_flooding_is_sent_after_the_wait(
    migrated_url: str,
) -> None:
    """Several processes of one bot may pass Telegram's limits together: a 429 is waited out
    and the call made again, not lost."""
    database = Database(migrated_url)
    api = FakeBotApi()
    adapter = TelegramAdapter(
        Core(database, render_images=False, server_seeds=fixed_seeds()),
        settings=settings(),
        request=FakeRequest(api),
        updates_request=FakeRequest(api),
    )
    await adapter.application.initialize()
    try:
        api.floods = 1
        update = api.text(ANNA, 11, "/help")
        await adapter.application.process_update(Update.de_json(update, adapter.application.bot))
        sent = api.of("sendMessage")
        assert len(sent) == 2  # refused once, then sent
        assert "/challenge" in api.in_chat(11)[-1].data["text"]
    finally:
        await adapter.application.shutdown()
        await database.close()
