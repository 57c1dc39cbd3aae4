"""Telegram's webhook, served so that several bot processes behind one address handle every
update exactly once.

python-telegram-bot's own webhook server answers Telegram before the update is handled: a
process that dies meanwhile loses the update. Here each update is first stored in the
database's inbox (:class:`storage.InboxRepository`), then acknowledged, then handled:

- Telegram sends an update again when it got no answer in time, possibly to another process;
  the inbox stores each update id once, so only its first arrival is handled.
- An update stored by a process that died before handling it stays unhandled; every process
  looks for such updates now and then and takes them over, one process per update.
  (Long polling, by contrast, is one process's: Telegram gives updates to one reader.)

The handling itself is python-telegram-bot's (``Application.process_update``), as for long
polling, so the adapter's handlers do not know which way an update came.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
from datetime import timedelta
from typing import Any

from aiohttp import web
from telegram import Update
from telegram.ext import Application

from bot.core.runtime.inbox import UpdateInbox

logger = logging.getLogger(__name__)

PLATFORM = "telegram"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE_BYTES = 1 << 20  # an update is a few KB; Telegram's largest are far below this
STALE_AFTER = timedelta(minutes=2)  # an update claimed this long ago and unhandled is orphaned
SWEEP_SECONDS = 20.0


class WebhookServer:
    """Listens at ``path`` on ``host``:``port`` for updates carrying ``secret``."""

    def __init__(
        self,
        application: Application,  # type: ignore[type-arg]
        inbox: UpdateInbox,
        *,
        host: str,
        port: int,
        path: str,
        secret: str | None,
        sweep_seconds: float = SWEEP_SECONDS,
        stale_after: timedelta = STALE_AFTER,
    ) -> None:
        self.application = application
        self.inbox = inbox
        self.host, self.port = host, port
        self.path = "/" + path.strip("/")
        self.secret = secret
        self.sweep_seconds = sweep_seconds
        self.stale_after = stale_after
        self._runner: web.AppRunner | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._handling: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        app = web.Application(client_max_size=MAX_UPDATE_BYTES)
        app.router.add_post(self.path, self.receive)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, self.host, self.port).start()
        self._runner = runner
        self._sweeper = asyncio.create_task(self._sweep_now_and_then())
        logger.info("telegram webhook listening on %s:%d", self.host, self.bound_port())

    def bound_port(self) -> int:
        """The port actually listened on (``port`` 0 lets the system choose: tests)."""
        assert self._runner is not None
        for address in self._runner.addresses:
            return int(address[1])
        raise RuntimeError("the webhook server does not listen")

    async def receive(self, request: web.Request) -> web.Response:
        """Store the update, acknowledge it, then handle it (unless it came before)."""
        if self.secret is not None and not hmac.compare_digest(
            request.headers.get(SECRET_HEADER, "").encode(), self.secret.encode()
        ):
            return web.Response(status=403)
        try:
            payload: Any = await request.json()
            update_id = int(payload["update_id"])
        except (ValueError, TypeError, KeyError):
            return web.Response(status=400)
        if await self.inbox.receive(PLATFORM, update_id, payload):
            self._handle_soon(update_id, payload)
        return web.Response(status=200)

    def _handle_soon(self, update_id: int, payload: dict[str, Any]) -> None:
        task = asyncio.create_task(self._handle(update_id, payload))
        self._handling.add(task)
        task.add_done_callback(self._handling.discard)

    async def _handle(self, update_id: int, payload: dict[str, Any]) -> None:
        try:
            update = Update.de_json(payload, self.application.bot)
            await self.application.process_update(update)
        except Exception:
            # The handlers answer their own errors; this is an update that cannot be read.
            logger.exception("telegram update %d could not be handled", update_id)
        await self.inbox.handled(PLATFORM, update_id)

    async def _sweep_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_seconds)
            try:
                await self.sweep()
            except Exception:  # the database away for a moment: try again next time
                logger.exception("looking for orphaned telegram updates failed")

    async def sweep(self) -> int:
        """Take over the updates another process stored and never handled. How many."""
        taken = await self.inbox.take_over(PLATFORM, self.stale_after)
        for update_id, payload in taken:
            logger.info("taking over telegram update %d", update_id)
            self._handle_soon(update_id, payload)
        return len(taken)

    async def stop(self) -> None:
        """Stop listening, then let the updates being handled finish."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.drain()

    async def drain(self) -> None:
        """Wait until the updates being handled are handled (and marked so)."""
        while self._handling:
            await asyncio.gather(*self._handling, return_exceptions=True)
