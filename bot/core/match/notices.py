"""Private notifications in each recipient's own language.

A message the whole chat reads is written in the chat's language; the private notification
that goes with it (a DM to a player who is away) is written for that player alone, so in
their language, by the same function that wrote the chat's text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from bot.core.text.direction import directed_text
from bot.core.text.i18n import Speech, resolve_locale, speech
from storage import ChatRecord, UserRecord

Notices = tuple[tuple[str, str], ...]


def private_notices(
    users: Iterable[UserRecord],
    notify: tuple[str, ...],
    chat: ChatRecord,
    write: Callable[[Speech], str],
) -> Notices:
    """(platform user id, text) for each of ``users`` to be notified, the text written by
    ``write`` in that user's own language (and laid out for its direction)."""
    notices = []
    for user in users:
        if user.platform_user_id in notify:
            locale = resolve_locale(user, chat)
            notices.append((user.platform_user_id, directed_text(write(speech(locale)), locale)))
    return tuple(notices)
