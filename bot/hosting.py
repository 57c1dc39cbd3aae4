"""Runs the chat platforms around one command layer: start, the minute clock, stop.

Each platform adapter (``bot.discord_app``, ``bot.telegram_app``) implements :class:`Adapter`.
Messages the clock produces (reminders, expired challenges, claims) are handed to the adapter
of the platform their chat belongs to.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from bot.core.computer.analyst import Analyst
from bot.core.model import Message
from bot.core.ports import ChatFrontEnd, ChatRequests
from bot.core.scheduler import Clock
from bot.core.service import Core
from bot.runtime import freeze_startup_objects, reclaim_frozen_garbage
from bot.web.limits import WebLimits
from storage import Database

if TYPE_CHECKING:
    from bot.core.bootstrap import Ports
    from bot.web.play_actions import Deliver
    from bot.web.server import WebServer

logger = logging.getLogger(__name__)

TICK_SECONDS = 60.0
CLOCK_POLL_SECONDS = 2.0  # match clocks: how often the database is asked for deadlines
RECLAIM_TICKS = 60
ANALYSIS_SECONDS = 3.0  # how often the queue of finished matches to analyse is looked at


class Adapter(Protocol):
    """A chat platform as the host sees it."""

    platform: str

    async def start(self) -> None:
        """Connect and begin answering updates; return once running."""

    async def deliver(self, messages: Sequence[Message]) -> None:
        """Post messages nobody asked for in this moment (the clock's)."""

    async def stop(self) -> None:
        """Stop receiving updates and close connections."""


AdapterFactory = Callable[[ChatFrontEnd], Adapter]  # given the chat front-ends' port


class StartError(RuntimeError):
    """A platform could not start (unreachable, token refused); ``platform`` says which."""

    def __init__(self, platform: str, cause: BaseException) -> None:
        super().__init__(f"{platform} did not start: {type(cause).__name__}: {cause}")
        self.platform = platform


async def dispatch(adapters: Sequence[Adapter], messages: Sequence[Message]) -> None:
    """Hand each message to the adapter of its chat's platform; one failing platform does not
    keep the others from getting theirs."""
    for adapter in adapters:
        mine = [message for message in messages if message.chat.platform == adapter.platform]
        if not mine:
            continue
        try:
            await adapter.deliver(mine)
        except Exception:
            logger.exception(
                "delivering %d clock messages on %s failed", len(mine), adapter.platform
            )


async def keep_time(
    clock: Clock,
    adapters: Sequence[Adapter],
    every: float = TICK_SECONDS,
    idle: Callable[[], bool] = lambda: True,
) -> None:
    """Tick at once (deadlines that passed while the bot was down), then every ``every`` s;
    about once an hour, at a tick when no request is being answered, reclaim the garbage the
    collector has been told to leave alone (see :mod:`bot.runtime`)."""
    ticks = 0
    while True:
        try:
            await dispatch(adapters, await clock.tick())
        except Exception:
            logger.exception("clock tick failed")
        ticks += 1
        if ticks >= RECLAIM_TICKS and idle():
            freed = reclaim_frozen_garbage()
            logger.info("reclaimed %d objects of frozen garbage", freed)
            ticks = 0
        await asyncio.sleep(every)


async def keep_clocks(
    clock: Clock, adapters: Sequence[Adapter], every: float = CLOCK_POLL_SECONDS
) -> None:
    """Match clocks to the second: every ``every`` s ask the database for the nearest
    deadline of the next ``every`` s (another process may have started it; one that already
    passed counts too), sleep to it, then apply what ran out. An idle round is one read. Any
    process may apply a time-out; the version check makes it once."""
    while True:
        try:
            nearest = await clock.next_clock(timedelta(seconds=every))
        except Exception:
            logger.exception("the match clocks failed")
            nearest = None
        await asyncio.sleep(seconds_until(nearest, clock.now(), every))
        if nearest is None:
            continue
        try:
            await dispatch(adapters, await clock.clocks())
        except Exception:
            logger.exception("the match clocks failed")


def seconds_until(nearest: datetime | None, now: datetime, every: float) -> float:
    """How long the timer sleeps: to ``nearest`` (a little after it), at most ``every`` s.

    >>> from datetime import UTC
    >>> now = datetime(2026, 1, 1, tzinfo=UTC)
    >>> [seconds_until(at, now, 2.0) for at in (None, now + timedelta(seconds=0.5), now)]
    [2.0, 0.51, 0.01]
    """
    if nearest is None:
        return every
    return min(every, max(0.0, (nearest - now).total_seconds()) + 0.01)


async def keep_analysing(
    analyst: Analyst, adapters: Sequence[Adapter], every: float = ANALYSIS_SECONDS
) -> None:
    """Analyse finished matches as they come (the work runs in the engine's low-priority
    worker) and post each analysis to its match's chat."""
    await analyst.start()
    while True:
        try:
            await dispatch(adapters, await analyst.work())
        except Exception:
            logger.exception("analysing finished matches failed")
        await asyncio.sleep(every)


@dataclass(frozen=True)
class WebSettings:
    """Where the web pages are served (``WEB_HOST``, ``WEB_PORT``) and found (``WEB_BASE_URL``),
    and what a stranger may take of the process through them (``WEB_MAX_CONNECTIONS``, ...)."""

    base_url: str
    host: str = "127.0.0.1"
    port: int = 8080
    limits: WebLimits = field(default_factory=WebLimits)
    # Who acts on the board page: Telegram's Mini App data is checked with the bot's token
    # (``TELEGRAM_TOKEN``, ``TELEGRAM_INIT_DATA_MAX_AGE``); a page's key lasts as long as a
    # private link (``PAGE_LINK_HOURS``).
    telegram_token: str | None = field(default=None, repr=False)
    init_data_max_age: float = 86400.0
    key_hours: float = 24.0


async def host(
    database_url: str,
    factories: Sequence[AdapterFactory],
    stop: asyncio.Event | None = None,
    tick_seconds: float = TICK_SECONDS,
    web: WebSettings | None = None,
) -> None:
    """Open the database, start every adapter, the clock and (given ``web``) the web pages,
    and run until ``stop`` is set (by default: until SIGINT or SIGTERM)."""
    database = Database(database_url)
    await database.migrate()
    core = Core(
        database,
        web_base_url=web.base_url if web else None,
        page_link_hours=web.key_hours if web else 24.0,
    )
    stop = stop or _stop_on_signals()
    started: list[Adapter] = []
    ticking: asyncio.Task[None] | None = None
    timing: asyncio.Task[None] | None = None
    analysing: asyncio.Task[None] | None = None
    ports = core.ports

    async def deliver(messages: Sequence[Message]) -> None:  # a board page's, to its chat
        await dispatch(started, messages)

    pages = web_server(ports, web, core, deliver)
    try:
        await ports.workers.start()
        if pages is not None:
            try:
                await pages.start()
            except OSError as error:
                raise StartError("web", error) from error
        adapters = [factory(core) for factory in factories]
        for adapter in adapters:
            try:
                await adapter.start()
            except Exception as error:
                await _stop_quietly(adapter)
                raise StartError(adapter.platform, error) from error
            started.append(adapter)
            logger.info("%s is running", adapter.platform)
        freeze_startup_objects()
        await ports.workers.warm_up()
        ticking = asyncio.create_task(keep_time(ports.clock, started, tick_seconds, core.idle))
        timing = asyncio.create_task(keep_clocks(ports.clock, started))
        analysing = asyncio.create_task(keep_analysing(ports.analyst, started))
        await stop.wait()
    finally:
        for task in (ticking, timing, analysing):
            if task is not None:
                task.cancel()
        for adapter in reversed(started):
            await _stop_quietly(adapter)
        if pages is not None:
            await pages.stop()
        ports.workers.close()  # here, not at interpreter exit: host() may be run again
        await database.close()


def web_server(
    ports: Ports, web: WebSettings | None, requests: ChatRequests, deliver: Deliver
) -> WebServer | None:
    """The web pages' server on their read model, with the board page acting through
    ``requests`` and handing what the chats get to ``deliver``; imported only when they are
    served (Jinja2 and the pages would add to every start of the command line otherwise)."""
    if web is None:
        return None
    from bot.web.board import board_pages
    from bot.web.server import WebServer

    board = board_pages(
        ports.boards,
        requests,
        deliver,
        telegram_token=web.telegram_token,
        init_data_max_age=web.init_data_max_age,
        key_seconds=web.key_hours * 3600,
    )
    return WebServer(ports.pages, web.host, web.port, web.limits, board)


async def _stop_quietly(adapter: Adapter) -> None:
    try:
        await adapter.stop()
    except Exception:
        logger.exception("stopping %s failed", adapter.platform)


def _stop_on_signals() -> asyncio.Event:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for name in ("SIGINT", "SIGTERM"):
        loop.add_signal_handler(getattr(signal, name), stop.set)
    return stop
