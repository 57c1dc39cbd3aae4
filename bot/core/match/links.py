"""Accepting a challenge through a link opened in a private chat (Telegram's ``/start``
deep links): the actor is in their private chat with the bot, the challenge lives in a group.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.model import Actor, ChatRef, Message, Private, Request
from bot.core.text.i18n import resolve_locale, speech
from bot.core.tokens import Token, Verb, format_token
from storage import ChallengeRepository, ChatRepository, NotFoundError

Handle = Callable[[Request], Awaitable[list[Message]]]


@dataclass(frozen=True)
class ChallengeLinks:
    """Given the challenges, the chats, and the core's entry point to press [Accept] with."""

    challenges: ChallengeRepository
    chats: ChatRepository
    handle: Handle

    async def accept(
        self, actor: Actor, private_chat: ChatRef, challenge_id: int, event_id: str
    ) -> list[Message]:
        """Accept challenge ``challenge_id`` for ``actor`` as if they had pressed [Accept] in
        the challenge's chat: the match starts there, and refusals are addressed to the actor
        (``private_to``). A challenge that does not exist (or belongs to another platform) is
        answered in ``private_chat``."""
        try:
            offer = await self.challenges.get_challenge(challenge_id)
            chat = await self.chats.get_chat(offer.chat_id)
        except NotFoundError:
            chat = None
        if chat is None or chat.platform != actor.platform:
            _ = speech(resolve_locale(actor=actor.locale))
            return [
                Message(
                    private_chat,
                    _("That invitation link is out of date."),
                    kind=Private(actor.user_id),
                )
            ]
        where = ChatRef(chat.platform, chat.platform_chat_id, private=False, locale=chat.locale)
        token = format_token(Token(Verb.ACCEPT, "c", challenge_id, 0))
        return await self.handle(Request(actor, where, token=token, event_id=event_id))
