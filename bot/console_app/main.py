"""Run the console chat on standard input and output."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bot.console_app.chat import ConsoleChat
from bot.core.scheduler import Clock
from bot.core.service import Core
from bot.runtime import freeze_startup_objects
from storage import Database

BANNER = (
    "gammonbot console. Type lines like  alice: /challenge @bob 3  then  bob: [Accept]\n"
    "/help lists the commands; Ctrl-D ends.\n"
)


async def run_console(database_url: str, image_dir: Path | None) -> None:
    database = Database(database_url)
    await database.migrate()
    core = Core(database)
    await core.painter.start()
    freeze_startup_objects()
    chat = ConsoleChat(core, sys.stdout, image_dir=image_dir)
    interactive = sys.stdin.isatty()
    if interactive:
        sys.stdout.write(BANNER)
    clock = Clock(core)
    for message in await clock.tick():  # deadlines that ran out while the bot was down
        chat.show(message)
    ticking = asyncio.create_task(_every_minute(clock, chat)) if interactive else None
    try:
        while True:
            if interactive:
                sys.stdout.write("> ")
                sys.stdout.flush()
            line = await asyncio.to_thread(sys.stdin.readline)
            if not line:
                break
            await chat.line(line)
            if not interactive:
                sys.stdout.write("--\n")
            sys.stdout.flush()
    finally:
        if ticking is not None:
            ticking.cancel()
        await database.close()


async def _every_minute(clock: Clock, chat: ConsoleChat) -> None:
    while True:
        await asyncio.sleep(60)
        for message in await clock.tick():
            chat.show(message)
