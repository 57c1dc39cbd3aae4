"""Secrets never reach the log, and a platform that cannot start is named, not traced."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.core.model import Message
from bot.core.service import Core
from bot.hosting import StartError, host
from bot.logs import RedactSecrets

TOKEN = "123456:AAH-secret-token-value"


def test_a_token_is_hidden_in_messages_arguments_and_tracebacks() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(RedactSecrets([TOKEN, ""]))
    logger = logging.getLogger("test.redaction")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("calling https://api.telegram.org/bot%s/getMe", TOKEN)
        try:
            raise RuntimeError(f"The token `{TOKEN}` was rejected by the server.")
        except RuntimeError:
            logger.exception("start failed")
    finally:
        logger.removeHandler(handler)
    written = out.getvalue()
    assert TOKEN not in written
    assert "bot***/getMe" in written
    assert "The token `***` was rejected" in written
    assert "Traceback" in written  # the traceback itself is kept


class Refusing:
    platform = "telegram"

    def __init__(self, core: Core) -> None:
        self.stopped = False

    async def start(self) -> None:
        raise PermissionError(f"The token `{TOKEN}` was rejected by the server.")

    async def deliver(self, messages: Sequence[Message]) -> None:
        raise AssertionError("never started")

    async def stop(self) -> None:
        self.stopped = True


async def test_a_platform_that_cannot_start_is_stopped_and_named(tmp_path: Path) -> None:
    made: list[Refusing] = []

    def factory(core: Core) -> Refusing:
        made.append(Refusing(core))
        return made[-1]

    with pytest.raises(StartError) as raised:
        await host(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", [factory])
    assert raised.value.platform == "telegram"
    assert str(raised.value).startswith("telegram did not start: PermissionError")
    assert made[0].stopped  # its connections are closed, nothing left dangling
    assert TOKEN not in RedactSecrets([TOKEN]).redact(str(raised.value))
