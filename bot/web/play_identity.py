"""Who acts on a board page, proven (:mod:`bot.core.page_access`): a Telegram Mini App's
signed ``initData``, or the signed key of a player's private link; the page then acts with a
key of its own, sent with each action. Anyone else only watches.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bot.core.info.board_reads import BoardPageReads, Seat
from bot.core.info.page_reads import PageMatch
from bot.core.page_access.denied import AccessDenied
from bot.core.page_access.player_keys import PlayerKey, issue, read
from bot.core.page_access.telegram_init import check_init_data
from bot.core.text.i18n import N_

_TELEGRAM = "telegram"
_BEARER = "Bearer "

# Why someone may not act, in their words (the reasons' codes stay in the log).
WATCHING = N_("You are watching: only the match's players play on its board.")
_REASONS = {
    "expired": N_("This board's link has expired. Open the board again from the match's chat."),
    "from_the_future": N_(
        "This board's link has expired. Open the board again from the match's chat."
    ),
    "other_match": N_("This link belongs to another match."),
}
_NOT_VALID = N_("This link is not valid. Open the board again from the match's chat.")


class NotAPlayer(Exception):  # noqa: N818 (a refusal is an answer, not an error of the bot)
    """The viewer may not act; ``reason`` is the message id to show them."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PageIdentity:
    """Checks the proofs a page sends (see the module's docstring)."""

    def __init__(
        self,
        reads: BoardPageReads,
        telegram_token: str | None,
        init_data_max_age: float,
        key_seconds: float,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._reads = reads
        self._telegram_token = telegram_token
        self._max_age = init_data_max_age
        self._key_seconds = key_seconds
        self._now = now

    async def hello(self, match: PageMatch, body: Any) -> tuple[Seat, str]:
        """The seat a page's proof names and a key for its actions, or :class:`NotAPlayer`."""
        if not isinstance(body, dict):
            raise NotAPlayer(_NOT_VALID)
        init_data, key = body.get("init_data"), body.get("key")
        # The page's key lasts no longer than the proof it was given for: a link's own
        # expiry, or Telegram's data's age; saying hello again never extends it.
        until = int(self._now() + self._key_seconds)
        if isinstance(init_data, str) and self._telegram_token is not None:
            platform, user_id, signed_at = self._telegram_user(init_data)
            until = min(until, int(signed_at + self._max_age))
        elif isinstance(key, str):
            found = await self._read(match, key)
            platform, user_id = found.platform, found.user_id
            until = min(until, found.expires)
        else:
            raise NotAPlayer(WATCHING)
        seat = await self._seat(match, platform, user_id)
        signed = PlayerKey(match.number, platform, user_id, until)
        return seat, issue(signed, await self._reads.secret())

    async def from_header(self, match: PageMatch, header: str | None) -> Seat:
        """The seat whose key an action carries, or :class:`NotAPlayer`."""
        if header is None or not header.startswith(_BEARER):
            raise NotAPlayer(WATCHING)
        found = await self._read(match, header[len(_BEARER) :].strip())
        return await self._seat(match, found.platform, found.user_id)

    def _telegram_user(self, init_data: str) -> tuple[str, str, int]:
        assert self._telegram_token is not None
        try:
            user = check_init_data(
                init_data[:4096], self._telegram_token, now=self._now(), max_age=self._max_age
            )
        except AccessDenied as denied:
            raise NotAPlayer(_REASONS.get(denied.reason, _NOT_VALID)) from None
        return _TELEGRAM, user.user_id, user.auth_date

    async def _read(self, match: PageMatch, text: str) -> PlayerKey:
        try:
            return read(text, await self._reads.secret(), now=self._now(), match_id=match.number)
        except AccessDenied as denied:
            raise NotAPlayer(_REASONS.get(denied.reason, _NOT_VALID)) from None

    async def _seat(self, match: PageMatch, platform: str, user_id: str) -> Seat:
        seat = await self._reads.seat(match, platform, user_id)
        if seat is None:
            raise NotAPlayer(WATCHING)
        return seat
