"""The one exception of page access: why a proof of who someone is was not accepted."""

from __future__ import annotations


class AccessDenied(Exception):  # noqa: N818 (a refusal is an answer, not an error of the bot)
    """Refused for ``reason``, a short code (``malformed``, ``bad_signature``, ``expired``,
    ...) for the caller to log or put in the visitor's words; never the secret or the data."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
