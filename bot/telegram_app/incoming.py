"""Telegram updates as the command layer's requests: who acts, where, and what they said.

Under the default privacy mode a bot in a group only receives commands, replies to its own
messages and messages that mention it; all of those are read here, and plain group chatter
that still arrives (privacy mode off) is ignored.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from telegram import Bot, MessageEntity, User
from telegram import Message as TelegramMessage
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.core.model import Actor

PLATFORM = "telegram"
ADMIN_TTL = 60.0  # seconds an administrator check is trusted
_ADMIN_STATUSES = frozenset({ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR})


@dataclass(frozen=True)
class Command:
    name: str  # lower case, without the slash and the @bot suffix
    argument: str
    addressed: bool  # written as /name@thisbot


def parse_command(message: TelegramMessage, bot_username: str) -> Command | None:
    """The command a message starts with, or ``None`` for plain text and for commands
    addressed to another bot (``/move@otherbot``)."""
    text = message.text or ""
    entity = next(iter(message.entities), None)
    if entity is None or entity.type != MessageEntity.BOT_COMMAND or entity.offset != 0:
        return None
    word = text[1 : entity.length]
    name, _at, target = word.partition("@")
    if target and target.lower() != bot_username.lower():
        return None
    argument = _without_text_mentions(message)[entity.length :]
    return Command(name.lower(), argument.strip(), bool(target))


def _without_text_mentions(message: TelegramMessage) -> str:
    """The text with the names of text mentions (a mention of someone without a @username,
    their user attached to the name) made spaces: they are read as mentions, not as words.
    Offsets count UTF-16 code units, as Telegram's do."""
    encoded = (message.text or "").encode("utf-16-le")
    for entity in message.entities:
        if entity.type == MessageEntity.TEXT_MENTION:
            start, end = 2 * entity.offset, 2 * (entity.offset + entity.length)
            encoded = encoded[:start] + " ".encode("utf-16-le") * entity.length + encoded[end:]
    return encoded.decode("utf-16-le", errors="replace")


def actor_of(user: User) -> Actor:
    return Actor(PLATFORM, str(user.id), user.full_name or str(user.id), user.language_code)


class Directory:
    """What the adapter learns about people along the way: usernames (the Bot API cannot look
    them up, so ``/challenge @bob`` works once bob has written where the bot reads) and, for a
    short while, who administers which chat."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, limit: int = 50_000) -> None:
        self.clock = clock
        self.limit = limit
        self._usernames: dict[str, Actor] = {}
        self._admins: dict[tuple[int, int], tuple[float, bool]] = {}

    def remember(self, user: User) -> Actor:
        actor = actor_of(user)
        if user.username and not user.is_bot:
            if len(self._usernames) >= self.limit:
                self._usernames.clear()
            self._usernames[user.username.lower()] = actor
        return actor

    def mentions(self, message: TelegramMessage, me: User) -> tuple[list[Actor], list[str]]:
        """The users a message mentions (text mentions, known @usernames, or the author of the
        message it replies to), and the @usernames nobody here has seen yet. The bot itself
        (``me``, by its @username or a text mention) is an opponent too: ``/challenge
        @gammonbot`` starts a match against it."""
        found: list[Actor] = []
        unknown: list[str] = []
        entities = message.parse_entities([MessageEntity.MENTION, MessageEntity.TEXT_MENTION])
        for entity, text in entities.items():
            if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
                mentioned = entity.user
                found.append(actor_of(me) if mentioned.id == me.id else self.remember(mentioned))
                continue
            username = text.lstrip("@").lower()
            if me.username and username == me.username.lower():
                found.append(actor_of(me))
                continue
            known = self._usernames.get(username)
            if known is not None:
                found.append(known)
            else:
                unknown.append(text)
        replied = message.reply_to_message
        if (
            not found
            and replied is not None
            and replied.from_user is not None
            and not replied.from_user.is_bot
            and message.from_user is not None
            and replied.from_user.id != message.from_user.id
        ):
            found.append(self.remember(replied.from_user))
        return found, unknown

    async def is_admin(self, bot: Bot, chat_id: int, user_id: int) -> bool:
        """Whether the user administers the group: Telegram's answer (``getChatMember``),
        trusted for a minute (the core asks only when a command needs it, and never for a
        private chat, which is the user's own)."""
        key = (chat_id, user_id)
        now = self.clock()
        cached = self._admins.get(key)
        if cached is not None and now - cached[0] < ADMIN_TTL:
            return cached[1]
        try:
            member = await bot.get_chat_member(chat_id, user_id)
        except TelegramError:
            return False
        admin = member.status in _ADMIN_STATUSES
        if len(self._admins) >= self.limit:
            self._admins.clear()
        self._admins[key] = (now, admin)
        return admin
