"""The adapters' port into what the bot remembers for delivering its messages.

An adapter turns :class:`~bot.core.model.Message` values into platform calls. Beyond the
message it needs three things the database knows: which platform message fills a slot of a
chat (so a newer board can take the buttons off the older one, also after a restart), who a
user is (the name to link, the language to write a note in) and whether private messages reach
them. This port answers exactly that, so adapters never import storage.

Posting a batch asks it twice: :meth:`Delivery.prepare` before the first platform call (the
batch's slots and users, read in one trip) and :meth:`Delivery.posted` after the last (the
slots' new messages and the refused private notes, written in one transaction); in between the
adapter follows the :mod:`bot.core.posting` plan alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.model import Actor, Message
from bot.core.posting import (
    Origin,
    Platform,
    Posting,
    Recipient,
    SlotKey,
    late_strips,
    wanted_names,
    wanted_slots,
)
from bot.core.text.i18n import resolve_locale
from storage import PostedMessageRepository, UserRecord, UserRepository

__all__ = ["Delivery", "Recipient"]


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

    async def prepare(
        self, platform: Platform, messages: Sequence[Message], origin: Origin | None = None
    ) -> Posting:
        """A batch about to be posted, with all its plans need to know."""
        origin = Origin() if origin is None else origin
        slots, people = await self._posted.for_posting(
            platform.name,
            wanted_slots(messages, origin, platform),
            wanted_names(messages, platform),
        )
        recipients = {user.platform_user_id: _recipient(user) for user in people}
        return Posting(platform, origin, slots, recipients)

    async def posted(self, posting: Posting) -> list[SlotKey]:
        """What a batch did: record the slots' new messages and who refused private notes.
        Answers the (chat, message) pairs still to strip: a slot's message posted meanwhile by
        another process, which the batch could not know."""
        platform = posting.platform.name
        for user_id in dict.fromkeys(posting.unreachable):
            await self.mark_unreachable(Actor(platform, user_id, user_id))
        fills = [(done.chat_id, done.slot, done.message_id) for done in posting.filled]
        replaced = await self._posted.replace_all(platform, fills)
        return late_strips(posting.filled, replaced)

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
