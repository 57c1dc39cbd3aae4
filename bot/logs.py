"""Logging for the running bot: one line per record, and no secret ever written out.

Libraries may put a token into a message (python-telegram-bot's ``InvalidToken`` names it,
Bot API URLs contain it): every record passes a filter that replaces each secret with ``***``,
in the message and in the traceback alike.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_HIDDEN = "***"


class RedactSecrets(logging.Filter):
    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = sorted({secret for secret in secrets if len(secret) >= 4}, key=len)[::-1]

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, _HIDDEN)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info:
            formatter = logging.Formatter()
            record.exc_text = self.redact(formatter.formatException(record.exc_info))
            record.exc_info = None
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class RoutineAsDebug(logging.Filter):
    """Alembic says at every start, at INFO, which database implementation it found and that
    it assumes (non-)transactional DDL: nothing an operator acts on. Those two lines count as
    DEBUG; the lines of a migration that runs stay INFO."""

    ROUTINE = ("Context impl ", "Will assume ")

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.INFO and str(record.msg).startswith(self.ROUTINE):
            record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
            return logging.getLogger().isEnabledFor(logging.DEBUG)
        return True


_ALEMBIC_ROUTINE = RoutineAsDebug()


def configure_logging(secrets: Iterable[str], level: int | str = logging.INFO) -> None:
    """Log to standard error from ``level`` on (a number or a name such as ``"WARNING"``),
    with ``secrets`` hidden from every record."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("alembic.runtime.migration").addFilter(_ALEMBIC_ROUTINE)
