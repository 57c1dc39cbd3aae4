"""The Bot API calls over aiohttp: what reaches the (fake) Bot API over real HTTP, and the
errors python-telegram-bot expects from a transport."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, NetworkError, TimedOut

from bot.telegram_app.transport import AiohttpRequest
from tests.fakes.telegram_bot_api import TOKEN, FakeBotApi, FakeBotServer

CHAT = -100
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 64


async def _bot(base_url: str, request: AiohttpRequest) -> Bot:
    bot = Bot(TOKEN, base_url=base_url, request=request, get_updates_request=AiohttpRequest())
    await bot.initialize()
    return bot


async def test_calls_reach_the_bot_api_as_forms_and_uploads() -> None:
    api = FakeBotApi()
    with FakeBotServer(api) as server:
        bot = await _bot(server.base_url, AiohttpRequest())
        try:
            keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Roll", callback_data="r")]])
            sent = await bot.send_message(CHAT, "Ünïcode & more", reply_markup=keyboard)
            photo = await bot.send_photo(CHAT, PNG, caption="a board", filename="board.png")
            with pytest.raises(BadRequest, match=r"(?i)message to edit not found"):
                await bot.edit_message_text("x", chat_id=CHAT, message_id=99)
        finally:
            await bot.shutdown()
    assert sent.text == "Ünïcode & more"
    assert sent.reply_markup == keyboard
    assert photo.caption == "a board"
    (message,) = api.of("sendMessage")
    assert message.params["reply_markup"] == {
        "inline_keyboard": [[{"text": "Roll", "callback_data": "r"}]]
    }
    (upload,) = api.of("sendPhoto")
    assert upload.files == {"photo": PNG}
    assert upload.params["caption"] == "a board"


async def test_a_refused_connection_is_a_network_error() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    request = AiohttpRequest()
    await request.initialize()
    try:
        with pytest.raises(NetworkError) as raised:
            await request.post(f"http://127.0.0.1:{port}/bot{TOKEN}/getMe")
        assert not isinstance(raised.value, TimedOut)
    finally:
        await request.shutdown()


@pytest.fixture
async def silent_server() -> AsyncIterator[int]:
    """A server that takes connections and never answers: its port."""

    async def hold(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read(1 << 20)
        await asyncio.sleep(60)

    server = await asyncio.start_server(hold, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()


async def test_no_answer_within_the_read_timeout_is_timed_out(silent_server: int) -> None:
    request = AiohttpRequest(read_timeout=0.2)
    await request.initialize()
    try:
        with pytest.raises(TimedOut):
            await request.post(f"http://127.0.0.1:{silent_server}/bot{TOKEN}/getMe")
        with pytest.raises(TimedOut):  # a timeout given for the call wins over the default
            await AiohttpRequest.post(
                request, f"http://127.0.0.1:{silent_server}/bot{TOKEN}/getMe", read_timeout=0.1
            )
    finally:
        await request.shutdown()


async def test_a_request_not_initialised_refuses_to_call() -> None:
    with pytest.raises(RuntimeError, match="not initialized"):
        await AiohttpRequest().do_request("http://127.0.0.1:1/", "POST")


def test_the_proxy_comes_from_the_environment_once_per_host(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.example:3128")
    monkeypatch.setenv("NO_PROXY", "local.example")
    request = AiohttpRequest()
    assert request._proxy(f"https://api.telegram.org/bot{TOKEN}/getMe") == (
        "http://proxy.example:3128"
    )
    assert request._proxy("https://local.example/bot/getMe") is None
    monkeypatch.delenv("HTTPS_PROXY")  # read once: the host's answer stays
    assert request._proxy(f"https://api.telegram.org/bot{TOKEN}/sendMessage") == (
        "http://proxy.example:3128"
    )
