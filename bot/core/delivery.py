"""The adapters' port into what the bot remembers for delivering its messages.

An adapter turns :class:`~bot.core.model.Message` values into platform calls. Beyond the
message it needs three things the database knows: which platform message fills a slot of a
chat (so a newer board can take the buttons off the older one, also after a restart), who a
user is (the name to link, the language to write a note in) and whether private messages reach
them. This port answers exactly that, so adapters never import storage.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.i18n import resolve_locale
from bot.core.model import Actor
from storage import PostedMessageRepository, UserRecord, UserRepository


@dataclass(frozen=True)
class Recipient:
    """A user as an adapter delivers to them."""

    platform_user_id: str
    name: str
    locale: str  # the language to write to them in
    reachable: bool  # private messages to them have not been refused


def _recipient(user: UserRecord) -> Recipient:
    return Recipient(
        user.platform_user_id, user.display_name, resolve_locale(user), not user.unreachable
    )


class Delivery:
    def __init__(self, posted: PostedMessageRepository, users: UserRepository) -> None:
        self._posted = posted
        self._users = users

    async def slot_message(self, platform: str, chat_id: str, slot: str) -> str | None:
        """The platform message that fills ``slot`` (e.g. ``board:12``) of a chat, if any."""
        return await self._posted.current(platform, chat_id, slot)

    async def fill_slot(
        self, platform: str, chat_id: str, slot: str, message_id: str
    ) -> str | None:
        """Record ``message_id`` as the slot's message; answers the message it replaced."""
        return await self._posted.replace(platform, chat_id, slot, message_id)

    async def recipient(self, platform: str, user_id: str) -> Recipient | None:
        """The user of a platform account, or None when the bot has never seen them."""
        user = await self._users.find_user(platform, user_id)
        return None if user is None else _recipient(user)

    async def mark_unreachable(self, actor: Actor, unreachable: bool = True) -> Recipient | None:
        """Remember that private messages to this user fail (or work again), so the adapters
        stop trying and fall back to a mention in the chat. Answers the user (None if never
        seen)."""
        user = await self._users.find_user(actor.platform, actor.user_id)
        if user is not None and user.unreachable != unreachable:
            user = await self._users.set_unreachable(user.id, unreachable)
        return None if user is None else _recipient(user)
