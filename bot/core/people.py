"""Who plays: display names fit to store and show, and the two players of a match."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from bot.core.context import Context
from bot.core.refusal import Refusal
from storage import LoadedMatch, MatchInfo, UserRecord, UserRepository

MAX_NAME = 64  # characters of a display name kept
MAX_ACCOUNT_ID = 64  # a platform account id longer than this is not one


def clean_name(name: str, fallback: str) -> str:
    """A display name fit to store and show: no control or format characters, no lone
    surrogates (undecodable input), single spaces, at most :data:`MAX_NAME` characters.

    >>> clean_name("al\\udcffice\\x00  smith", "u1")
    'al\ufffdice smith'
    >>> clean_name("\\x07", "u1")
    'u1'
    >>> len(clean_name("x" * 200_000, "u1"))
    64
    """
    kept = (
        "\ufffd" if category == "Cs" else char
        for char in name[: MAX_NAME * 4]
        if (category := unicodedata.category(char)) not in ("Cc", "Cf", "Co", "Cn")
    )
    cleaned = " ".join("".join(kept).split())[:MAX_NAME].strip()
    return cleaned or fallback[:MAX_NAME]


async def mentioned_users(context: Context, users: UserRepository) -> list[UserRecord]:
    """The users the request mentions, in its order (each stored if they were not yet); a
    mention whose id cannot be an account's is refused."""
    found: list[UserRecord] = []
    for target in context.request.mentions:
        if not target.user_id or len(target.user_id) > MAX_ACCOUNT_ID:
            raise Refusal(context._("I cannot find that player."))
        name = clean_name(target.name, target.user_id)
        found.append(await users.upsert_user(target.platform, target.user_id, name))
    return found


class PlayerNames:
    """The players of a match, each read from the database at most once per request."""

    def __init__(self, users: UserRepository) -> None:
        self._users = users

    def know(self, context: Context, users: Iterable[UserRecord]) -> None:
        """Users read along with something else in this request (a match's players with the
        match): :meth:`of` need not read them again. The caller's own record stays."""
        known = context.known_users
        known.setdefault(context.user.id, context.user)
        for user in users:
            known.setdefault(user.id, user)

    async def of(
        self, loaded: LoadedMatch, context: Context | None = None
    ) -> tuple[UserRecord, UserRecord]:
        return await self.of_info(loaded.info, context)

    async def of_info(
        self, info: MatchInfo, context: Context | None = None
    ) -> tuple[UserRecord, UserRecord]:
        """The players of a match known by its row alone."""
        known = context.known_users if context is not None else {}
        if context is not None:
            known.setdefault(context.user.id, context.user)
        found = []
        for user_id in info.player_ids:
            if user_id not in known:
                known[user_id] = await self._users.get_user(user_id)
            found.append(known[user_id])
        return (found[0], found[1])
