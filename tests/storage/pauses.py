"""Holding a transaction open at a chosen statement, so that a test can make another
database act in the middle of it."""

from __future__ import annotations

import threading
import time
from typing import Any

from sqlalchemy import event

from storage import Database


def pause_after_first_statement(
    database: Database, text: str, seconds: float = 0.3
) -> threading.Event:
    """Make ``database`` pause for ``seconds`` after its first statement that contains
    ``text``, while the work that statement began is still open; the event tells when the
    pause starts. The pause is on that database's own thread: the event loop, and any other
    database, go on meanwhile."""
    paused = threading.Event()

    def pause(*arguments: Any) -> None:
        if text in arguments[2] and not paused.is_set():
            paused.set()
            time.sleep(seconds)

    event.listen(database.engine.sync_engine, "after_cursor_execute", pause)
    return paused
