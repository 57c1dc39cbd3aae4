"""A Telegram Mini App's initData, checked as Telegram documents it
(https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app).

Every field but ``hash``, as ``key=value`` (values URL-decoded), sorted by key and joined
with newlines, is the data-check-string; the secret key is HMAC-SHA256 of the bot's token
under the key ``WebAppData``; the data is Telegram's iff ``hash`` is the hex HMAC-SHA256 of
the data-check-string under that secret key. ``signature`` (for checks by third parties,
with Telegram's public key) is one more field of the data-check-string, nothing else here.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl

from bot.core.page_access.denied import AccessDenied

MALFORMED: Final = "malformed"
BAD_SIGNATURE: Final = "bad_signature"
EXPIRED: Final = "expired"
FROM_THE_FUTURE: Final = "from_the_future"
NO_USER: Final = "no_user"

FUTURE_TOLERANCE: Final = 60  # seconds a signature may seem to come from ahead of our clock
MAX_LENGTH: Final = 16_384  # characters; Telegram's initData is a few hundred
MAX_FIELDS: Final = 64
_HASH = re.compile(r"[0-9a-f]{64}")
_DIGITS = re.compile(r"[0-9]{1,12}")


class InitDataRefused(AccessDenied):
    """The initData is not accepted: ``malformed``, ``bad_signature``, ``expired``,
    ``from_the_future`` or ``no_user``."""


@dataclass(frozen=True)
class MiniAppUser:
    """Who Telegram says opened the Mini App, and when it signed that."""

    user_id: str
    name: str
    language_code: str | None
    auth_date: int
    start_param: str | None


def check_init_data(init_data: str, bot_token: str, *, now: float, max_age: float) -> MiniAppUser:
    """The user of ``init_data`` if Telegram signed it for the bot of ``bot_token`` at most
    ``max_age`` seconds before ``now`` (unix seconds) and at most a minute after; otherwise
    raise :class:`InitDataRefused`."""
    fields = _fields(init_data)
    given = fields.pop("hash", None)
    if given is None or _HASH.fullmatch(given) is None:
        raise InitDataRefused(MALFORMED)
    if not hmac.compare_digest(_signed(fields, bot_token), given.encode("ascii")):
        raise InitDataRefused(BAD_SIGNATURE)
    auth_date = _auth_date(fields, now, max_age)
    user = _user(fields)
    return MiniAppUser(
        user_id=str(user["id"]),
        name=user["first_name"],
        language_code=user.get("language_code"),
        auth_date=auth_date,
        start_param=fields.get("start_param"),
    )


def _fields(init_data: str) -> dict[str, str]:
    if len(init_data) > MAX_LENGTH:
        raise InitDataRefused(MALFORMED)
    try:
        pairs = parse_qsl(
            init_data,
            keep_blank_values=True,
            strict_parsing=True,
            errors="strict",
            max_num_fields=MAX_FIELDS,
        )
    except ValueError:  # UnicodeDecodeError included
        raise InitDataRefused(MALFORMED) from None
    fields = dict(pairs)
    if len(fields) != len(pairs):  # a key twice: which one Telegram signed is not ours to pick
        raise InitDataRefused(MALFORMED)
    return fields


def _signed(fields: dict[str, str], bot_token: str) -> bytes:
    """The hex HMAC Telegram would have written for ``fields`` (``hash`` taken out)."""
    check_string = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    try:
        message = check_string.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: text no one signed
        raise InitDataRefused(MALFORMED) from None
    secret_key = hmac.new(b"WebAppData", bot_token.encode("utf-8"), hashlib.sha256).digest()
    return hmac.new(secret_key, message, hashlib.sha256).hexdigest().encode("ascii")


def _auth_date(fields: dict[str, str], now: float, max_age: float) -> int:
    written = fields.get("auth_date")
    if written is None or _DIGITS.fullmatch(written) is None:
        raise InitDataRefused(MALFORMED)
    auth_date = int(written)
    if auth_date > now + FUTURE_TOLERANCE:
        raise InitDataRefused(FROM_THE_FUTURE)
    if now - auth_date > max_age:
        raise InitDataRefused(EXPIRED)
    return auth_date


def _user(fields: dict[str, str]) -> dict[str, Any]:
    written = fields.get("user")
    if written is None:
        raise InitDataRefused(NO_USER)
    try:
        user = json.loads(written)
    except (ValueError, RecursionError):
        raise InitDataRefused(MALFORMED) from None
    if not isinstance(user, dict):
        raise InitDataRefused(MALFORMED)
    user_id, name = user.get("id"), user.get("first_name")
    language = user.get("language_code")
    if type(user_id) is not int or not isinstance(name, str):
        raise InitDataRefused(MALFORMED)
    if language is not None and not isinstance(language, str):
        raise InitDataRefused(MALFORMED)
    return user
