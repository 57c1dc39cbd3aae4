"""The adapter as `gammonbot run` starts it: long polling over real HTTP, against the fake Bot
API listening on 127.0.0.1 (TELEGRAM_BASE_URL), so the wire format is exercised: form fields
with JSON-encoded objects, multipart photo uploads, callback answers."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr

from bot.cli import _adapter_factories
from bot.config import Settings
from bot.core.service import Core
from bot.core.text.i18n import LOCALES
from bot.hosting import host
from bot.telegram_app import TelegramAdapter
from storage import Database
from tests.fakes.telegram_bot_api import TOKEN, FakeBotApi, FakeBotServer
from tests.seeds import fixed_seeds
from tests.telegram_app.conftest import ANNA, BOB, GROUP, settings, unlimited


def _texts(api: FakeBotApi) -> list[str]:
    return [stored.data.get("text", "") for stored in api.in_chat(GROUP)]


async def test_long_polling_over_http_plays_the_first_turn(
    migrated_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    database = Database(migrated_url)
    api = FakeBotApi()
    with FakeBotServer(api) as server:
        adapter = TelegramAdapter(
            Core(database, server_seeds=fixed_seeds()),
            settings=settings(telegram_base_url=server.base_url),
            rate_limiter=unlimited(),
        )
        await adapter.start()
        try:
            assert api.of("getMe")
            assert [call.params.get("language_code", "") for call in api.of("setMyCommands")] == [
                "",
                *LOCALES[1:],
            ]
            api.text(BOB, GROUP, "/help", queue=True)
            await api.until(lambda: any("/challenge" in text for text in _texts(api)))
            api.text(ANNA, GROUP, "/challenge @bob 1", queue=True)
            await api.until(lambda: any("Anna challenges Bob" in text for text in _texts(api)))

            offer = next(s for s in api.in_chat(GROUP) if "challenges" in s.data.get("text", ""))
            accept = offer.data["reply_markup"]["inline_keyboard"][0][0]
            assert accept["text"] == "Accept"
            press = api.press(BOB, GROUP, offer.data["message_id"], accept["callback_data"], True)
            query_id = press["callback_query"]["id"]
            await api.until(lambda: bool(api.of("sendPhoto")))
        finally:
            api.close()
            await adapter.stop()
    await database.close()

    methods = [call.method for call in api.calls]
    answer = methods.index("answerCallbackQuery")
    assert answer < methods.index("sendPhoto")
    assert api.queries[query_id] == 1
    photo = api.of("sendPhoto")[0]
    assert photo.files["photo"].startswith(b"\x89PNG")  # a multipart upload
    assert photo.params["parse_mode"] == "HTML"
    assert photo.params["reply_markup"]["force_reply"] is True  # JSON-encoded on the wire
    offers = [call for call in api.of("sendMessage") if "challenges" in call.params["text"]]
    assert offers[0].params["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == (
        "bg1:accept:c1:0"
    )
    assert any(call.params.get("offset", 0) > 0 for call in api.of("getUpdates"))
    assert "HTTP" in caplog.text or "getUpdates" in caplog.text  # the libraries did log
    assert TOKEN.split(":")[1] not in caplog.text  # but never the token


def _webhook_port(adapter: TelegramAdapter) -> int:
    """The port the adapter's webhook server was given by the OS (it listens on port 0).

    Asking the OS for a free port first and binding it later races with every other process
    on the machine; binding port 0 and reading the port back does not."""
    assert adapter.webhook is not None
    return adapter.webhook.bound_port()


def _webhook_settings(server: FakeBotServer) -> Settings:
    webhook = settings(
        telegram_base_url=server.base_url,
        telegram_webhook_url="https://bot.example.org/telegram/hook",
        telegram_webhook_listen="127.0.0.1",
        telegram_webhook_secret=SecretStr("s3cret"),
    )
    # Port 0 (the OS picks a free one when the server binds) is below what the setting
    # validates (1..65535), so it is set past validation.
    return webhook.model_copy(update={"telegram_webhook_port": 0})


async def test_webhook_mode_takes_updates_that_carry_the_secret(migrated_url: str) -> None:
    database = Database(migrated_url)
    api = FakeBotApi()
    with FakeBotServer(api) as server:
        webhook = _webhook_settings(server)
        adapter = TelegramAdapter(
            Core(database, server_seeds=fixed_seeds()), settings=webhook, rate_limiter=unlimited()
        )
        await adapter.start()
        try:
            port = _webhook_port(adapter)
            assert port != 0
            assert api.webhook["url"] == "https://bot.example.org/telegram/hook"
            assert api.webhook["secret_token"] == "s3cret"
            hook = f"http://127.0.0.1:{port}/telegram/hook"
            async with httpx.AsyncClient() as client:
                forged = await client.post(
                    hook,
                    json=api.text(ANNA, GROUP, "/rules"),
                    headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"},
                )
                real = await client.post(
                    hook,
                    json=api.text(ANNA, GROUP, "/help"),
                    headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"},
                )
            assert forged.status_code == 403
            assert real.status_code == 200
            await api.until(lambda: bool(api.of("sendMessage")))
        finally:
            await adapter.stop()
    await database.close()
    answers = api.of("sendMessage")
    assert len(answers) == 1
    assert "/challenge" in answers[0].params["text"]  # the help, not the rules


@pytest.mark.both_databases
async def test_two_processes_behind_one_webhook_handle_an_update_once(migrated_url: str) -> None:
    """Telegram sends an update again when its answer was late, here to the other process:
    only its first arrival is handled. An update stored by a process that died before handling
    it is taken over by another process, once."""
    databases = [Database(migrated_url), Database(migrated_url)]
    api = FakeBotApi()
    with FakeBotServer(api) as server:
        adapters = [
            TelegramAdapter(
                Core(database, server_seeds=fixed_seeds()),
                settings=_webhook_settings(server),
                rate_limiter=unlimited(),
            )
            for database in databases
        ]
        for adapter in adapters:
            await adapter.start()
        try:
            hooks = [f"http://127.0.0.1:{_webhook_port(a)}/telegram/hook" for a in adapters]
            update = api.text(ANNA, GROUP, "/help")
            headers = {"X-Telegram-Bot-Api-Secret-Token": "s3cret"}
            async with httpx.AsyncClient() as client:
                answers = [await client.post(hook, json=update, headers=headers) for hook in hooks]
                assert [answer.status_code for answer in answers] == [200, 200]
                malformed = await client.post(hooks[0], content=b"{", headers=headers)
                assert malformed.status_code == 400
            await api.until(lambda: bool(api.of("sendMessage")))
            # A process stored this update and died before handling it.
            orphan = api.text(BOB, GROUP, "/rules")
            assert await adapters[0].core.inbox.receive("telegram", orphan["update_id"], orphan)
            sweepers = [adapter.webhook for adapter in adapters if adapter.webhook is not None]
            for sweeper in sweepers:
                await sweeper.drain()  # the first update marked handled, not only answered
                sweeper.stale_after = timedelta(0)  # orphaned at once, for the test
            assert await sweepers[1].sweep() == 1
            await sweepers[1].drain()
            assert len(api.of("sendMessage")) == 2
            assert [await sweeper.sweep() for sweeper in sweepers] == [0, 0]  # handled: done
        finally:
            for adapter in adapters:
                await adapter.stop()
    for database in databases:
        await database.close()
    texts = [answer.params["text"] for answer in api.of("sendMessage")]
    assert len(texts) == 2
    assert "/challenge" in texts[0]  # the help, once
    assert "/challenge" not in texts[1]  # then the rules


async def test_gammonbot_run_hosts_the_adapter_until_stopped(tmp_path: Path) -> None:
    """What `gammonbot run` does with TELEGRAM_TOKEN and TELEGRAM_BASE_URL set."""
    api = FakeBotApi()
    stop = asyncio.Event()
    with FakeBotServer(api) as server:
        factories = _adapter_factories(settings(telegram_base_url=server.base_url))
        assert len(factories) == 1
        running = asyncio.create_task(
            host(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", factories, stop=stop)
        )
        await api.until(lambda: bool(api.of("getUpdates")))
        api.text(ANNA, GROUP, "/help", queue=True)
        await api.until(lambda: bool(api.of("sendMessage")))
        api.close()
        stop.set()
        await asyncio.wait_for(running, timeout=30)
    assert "/challenge" in api.of("sendMessage")[0].params["text"]


def test_a_request_cut_off_by_a_dying_client_is_not_handled() -> None:
    """A bot process killed mid-request leaves half a body; the fake, like the real server,
    must not act on it (a half-read sendMessage once arrived without its chat_id)."""
    import socket

    api = FakeBotApi()
    with FakeBotServer(api) as server:
        host, port = server.server.server_address[:2]
        body = b"text=hello&chat_id=-100"
        head = (
            f"POST /bot{TOKEN}/sendMessage HTTP/1.1\r\nHost: x\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        with socket.create_connection((str(host), int(port))) as client:
            client.sendall(head + body[:10])
            client.shutdown(socket.SHUT_WR)
            assert client.recv(1024) == b""
        whole = httpx.post(
            f"{server.base_url}{TOKEN}/sendMessage", data={"chat_id": "-100", "text": "hi"}
        )
        assert whole.json()["ok"] is True
    assert [call.params["text"] for call in api.of("sendMessage")] == ["hi"]


def test_the_fake_keeps_a_connection_open_from_one_call_to_the_next() -> None:
    """Telegram's servers keep a client's connection open; a fake that closed it after every
    call would make the bot connect anew for each one, work it never does in production."""
    api = FakeBotApi()
    with FakeBotServer(api) as server, httpx.Client() as client:
        ports = set()
        for text in ("one", "two", "three"):
            answer = client.post(
                f"{server.base_url}{TOKEN}/sendMessage",
                data={"chat_id": "-100", "text": text},
            )
            assert answer.json()["ok"] is True
            assert answer.http_version == "HTTP/1.1"
            ports.add(answer.extensions["network_stream"].get_extra_info("client_addr"))
    assert len(ports) == 1
    assert [call.params["text"] for call in api.of("sendMessage")] == ["one", "two", "three"]


def test_the_fake_reads_multipart_uploads_as_a_client_encodes_them() -> None:
    """Fields and files exactly as httpx encodes them, bytes that look like a boundary or a
    header's end included, with a text field that spans lines."""
    api = FakeBotApi()
    png = b"\x89PNG\r\n\x1a\n" + b"\r\n--\r\n\r\n" + bytes(range(256)) * 40 + b"\r\n"
    with FakeBotServer(api) as server:
        answer = httpx.post(
            f"{server.base_url}{TOKEN}/sendPhoto",
            data={"chat_id": "-100", "caption": "a board\r\n\r\nsecond line", "parse_mode": ""},
            files={"photo": ("board.png", png, "image/png")},
        )
    assert answer.json()["ok"] is True
    (call,) = api.of("sendPhoto")
    assert call.params == {
        "chat_id": -100,
        "caption": "a board\r\n\r\nsecond line",
        "parse_mode": "",
    }
    assert call.files == {"photo": png}
