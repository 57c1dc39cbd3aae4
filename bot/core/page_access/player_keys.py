"""Signed player keys: who a private link (Discord, console) or the board page's session after a
Telegram hello belongs to, until when.

``k1.<payload>.<tag>``: the payload is the JSON array ``[match, platform, user, expires]``,
the tag the first 16 bytes of its HMAC-SHA256 under the bot's page secret (the version
prefix signed with it), both base64url without padding. Only the one canonical spelling of a
key is read, so no other string than the issued one is accepted.

>>> secret = bytes(32)
>>> key = PlayerKey(match_id=12, platform="discord", user_id="42", expires=2_000)
>>> text = issue(key, secret)
>>> read(text, secret, now=1_000, match_id=12) == key
True
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Final

from bot.core.page_access.denied import AccessDenied

VERSION: Final = "k1"
TAG_BYTES: Final = 16
MIN_SECRET_BYTES: Final = 16
MAX_LENGTH: Final = 512
MALFORMED: Final = "malformed"
BAD_SIGNATURE: Final = "bad_signature"
EXPIRED: Final = "expired"
OTHER_MATCH: Final = "other_match"
_SHAPE = re.compile(rf"{VERSION}\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)")


class KeyRefused(AccessDenied):
    """The key is not accepted: ``malformed``, ``bad_signature``, ``expired`` or
    ``other_match`` (a good key, of another match)."""


@dataclass(frozen=True)
class PlayerKey:
    """The player ``user_id`` of ``platform`` in match ``match_id``, until ``expires`` (unix
    seconds)."""

    match_id: int
    platform: str
    user_id: str
    expires: int


def issue(key: PlayerKey, secret: bytes) -> str:
    """``key`` signed under ``secret``, as it goes into a link or a page's session."""
    payload = json.dumps(
        [key.match_id, key.platform, key.user_id, key.expires],
        separators=(",", ":"),
        ensure_ascii=False,
    ).encode("utf-8")
    return f"{VERSION}.{_b64(payload)}.{_b64(_tag(payload, secret))}"


def read(text: str, secret: bytes, *, now: float, match_id: int) -> PlayerKey:
    """The key ``text`` stands for, if ``secret`` signed it, it has not expired at ``now``
    (unix seconds) and it is a key of ``match_id``; otherwise raise :class:`KeyRefused`."""
    shape = _SHAPE.fullmatch(text) if len(text) <= MAX_LENGTH else None
    if shape is None:
        raise KeyRefused(MALFORMED)
    payload, tag = _unb64(shape.group(1)), _unb64(shape.group(2))
    if not hmac.compare_digest(_tag(payload, secret), tag):
        raise KeyRefused(BAD_SIGNATURE)
    key = _key(payload)
    if now >= key.expires:
        raise KeyRefused(EXPIRED)
    if key.match_id != match_id:
        raise KeyRefused(OTHER_MATCH)
    return key


def _tag(payload: bytes, secret: bytes) -> bytes:
    if len(secret) < MIN_SECRET_BYTES:
        raise ValueError("a page secret has at least 16 bytes")
    signed = VERSION.encode("ascii") + b"." + payload
    return hmac.new(secret, signed, hashlib.sha256).digest()[:TAG_BYTES]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    """The bytes ``text`` spells, if it is their one canonical spelling."""
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise KeyRefused(MALFORMED) from None
    if _b64(data) != text:  # unused low bits set, or a length no encoding has
        raise KeyRefused(MALFORMED)
    return data


def _key(payload: bytes) -> PlayerKey:
    """The fields of a payload this bot signed (checked all the same)."""
    try:
        fields = json.loads(payload.decode("utf-8"))
    except (ValueError, RecursionError):
        raise KeyRefused(MALFORMED) from None
    match fields:
        case [match, str() as platform, str() as user, expires] if (
            type(match) is int and type(expires) is int
        ):
            return PlayerKey(match_id=match, platform=platform, user_id=user, expires=expires)
    raise KeyRefused(MALFORMED)
