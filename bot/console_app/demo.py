"""The console's demonstration session: known dice on a throwaway database.

``gammonbot console --demo`` exists so that a written example (the README's) plays exactly as
written: every match of the session takes its dice from one fixed, published server seed, and
the console's event ids (from which the client seeds of an accepted challenge are made) carry a
fixed prefix instead of a random one. The dice are then known to anyone, so the session runs on
a fresh SQLite database in a temporary folder that is deleted at the end: nothing of it reaches
the real database, and nothing there can meet these dice. It is a console option only; no chat
platform can be started with it.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from bot.console_app.main import run_console

DEMO_SEED_TEXT = "gammonbot demo"
"""The server seed of every demo match is the SHA-256 of this text (32 bytes)."""

DEMO_SERVER_SEED = hashlib.sha256(DEMO_SEED_TEXT.encode("ascii")).digest()

DEMO_SESSION = "demo-"
"""The event ids' prefix: ``console-demo-1`` for the first line, ``console-demo-2`` next, ..."""


def demo_server_seed() -> bytes:
    return DEMO_SERVER_SEED


async def run_demo(image_dir: Path | None) -> None:
    """The console chat on a temporary database, with the demo's dice."""
    with tempfile.TemporaryDirectory(prefix="gammonbot-demo-") as folder:
        await run_console(
            f"sqlite:///{Path(folder) / 'demo.db'}",
            image_dir,
            server_seeds=demo_server_seed,
            session=DEMO_SESSION,
        )
