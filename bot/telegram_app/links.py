"""Deep links: ``https://t.me/<bot>?start=<payload>`` opens the private chat with the bot and
sends ``/start <payload>`` once the user presses Start.

A payload is at most 64 characters of ``[A-Za-z0-9_-]``. An accept token
(``bg1:accept:c12:0``) only uses ``[a-z0-9:]``, so replacing ``:`` by ``_`` is a reversible
encoding that needs no table:

>>> challenge_payload(12)
'bg1_accept_c12_0'
>>> parse_challenge_payload("bg1_accept_c12_0")
12
>>> parse_challenge_payload("bg1_take_m12_40") is None
True
>>> link("gammon_bot", NOTIFY_PAYLOAD)
'https://t.me/gammon_bot?start=notify'
"""

from __future__ import annotations

import re
from typing import Final

from bot.core.tokens import BadTokenError, Token, Verb, format_token, parse_token

NOTIFY_PAYLOAD: Final = "notify"
_PAYLOAD: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def challenge_payload(challenge_id: int) -> str:
    return format_token(Token("accept", "c", challenge_id, 0)).replace(":", "_")


def parse_challenge_payload(payload: str) -> int | None:
    """The challenge a ``/start`` payload accepts, or ``None`` for anything else."""
    if not _PAYLOAD.match(payload):
        return None
    try:
        token = parse_token(payload.replace("_", ":"))
    except BadTokenError:
        return None
    if token.verb != "accept" or token.kind != "c":
        return None
    return token.target


def accept_token_payload(token: str) -> str | None:
    """The deep-link payload for an [Accept] button's token, if it is one."""
    try:
        parsed = parse_token(token)
    except BadTokenError:
        return None
    if parsed.verb != "accept" or parsed.kind != "c":
        return None
    return challenge_payload(parsed.target)


def board_payload(token: str, slug: str) -> str | None:
    """The deep-link payload of an [Open board] button's token and the match's address:
    pressed in a group, it opens the private chat, where the bot answers a player's own link
    (anyone else the address, which the group's button showed them already).

    >>> board_payload("bg1:page:m12:40", "Zm9vYmFyYmF6cXV4cXV1eA")
    'bg1_page_m12_40_Zm9vYmFyYmF6cXV4cXV1eA'
    >>> parse_board_payload("bg1_page_m12_40_Zm9vYmFyYmF6cXV4cXV1eA")
    ('bg1:page:m12:40', 'Zm9vYmFyYmF6cXV4cXV1eA')
    >>> parse_board_payload("bg1_take_m12_40_Zm9vYmFyYmF6cXV4cXV1eA") is None
    True
    """
    try:
        parsed = parse_token(token)
    except BadTokenError:
        return None
    if parsed.verb != Verb.BOARD_PAGE or parsed.kind != "m":
        return None
    payload = f"{token.replace(':', '_')}_{slug}"
    return payload if _PAYLOAD.match(payload) else None


def parse_board_payload(payload: str) -> tuple[str, str] | None:
    """The [Open board] token and address a ``/start`` payload stands for, or ``None``."""
    if not _PAYLOAD.match(payload):
        return None
    parts = payload.split("_", 4)
    if len(parts) != 5:
        return None
    token, slug = ":".join(parts[:4]), parts[4]
    return (token, slug) if board_payload(token, slug) is not None else None


def link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"
