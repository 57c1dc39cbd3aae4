"""The bot's own account on each platform: the player it is in matches against people.

Each adapter registers the account it runs as (Discord's application user, Telegram's bot)
when it starts; a platform that registered none (the console, tests) plays as ``gammonbot``.
"""

from __future__ import annotations

from storage import UserRecord, UserRepository

DEFAULT_ID = "gammonbot"
DEFAULT_NAME = "gammonbot"


class BotAccounts:
    def __init__(self, users: UserRepository) -> None:
        self._users = users
        self._known: dict[str, UserRecord] = {}

    async def register(self, platform: str, user_id: str, name: str) -> UserRecord:
        account = await self._users.upsert_bot(platform, user_id, name)
        self._known[platform] = account
        return account

    async def of(self, platform: str) -> UserRecord:
        """The bot's account on ``platform`` (the default one when none was registered)."""
        known = self._known.get(platform)
        if known is None:
            known = await self.register(platform, DEFAULT_ID, DEFAULT_NAME)
        return known
