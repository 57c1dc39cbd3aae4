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


def configure_logging(secrets: Iterable[str], level: int = logging.INFO) -> None:
    """Log to standard error, with ``secrets`` hidden from every record."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
