"""Forum topics as chats of their own.

A Telegram supergroup may be a forum: its messages are in topics, each named by the
``message_thread_id`` of the message that created it. To the core a topic is a chat (so a
match in it is a match in a chat like any other, and its boards stay in it): its chat id is
the group's id and the topic's, ``"-1001234567890:42"``. A message counts as in a topic only
when Telegram says so (``is_topic_message``): in the forum's General topic, and in ordinary
groups (where ``message_thread_id`` names a thread of replies), it is the group's. Outgoing
calls split the id again: the group's id as ``chat_id``, the topic as ``message_thread_id``;
edits and administrator checks need the group's id alone (message ids are the group's).
"""

from __future__ import annotations

from typing import Final

from telegram import Message as TelegramMessage
from telegram.constants import ChatType

from bot.core.model import ChatRef
from bot.telegram_app.incoming import PLATFORM

_SEPARATOR: Final = ":"
_SUPERGROUP_PREFIX: Final = "-100"  # a supergroup's Bot API id is -100 and its own id


def chat_key(chat_id: int, thread_id: int | None = None) -> str:
    """The core's chat id of a chat, or of one of its topics.

    >>> chat_key(-1001234567890, 42), chat_key(-1001234567890), chat_key(77)
    ('-1001234567890:42', '-1001234567890', '77')
    """
    return str(chat_id) if thread_id is None else f"{chat_id}{_SEPARATOR}{thread_id}"


def split_key(key: str) -> tuple[int, int | None]:
    """The group's id and the topic's (None: the chat itself) of a core chat id.

    >>> split_key("-1001234567890:42"), split_key("77")
    ((-1001234567890, 42), (77, None))
    """
    group, separator, thread = key.partition(_SEPARATOR)
    return int(group), int(thread) if separator else None


def chat_of_message(message: TelegramMessage) -> ChatRef:
    """The chat a message is in: its forum topic, or its chat."""
    chat = message.chat
    thread = message.message_thread_id if message.is_topic_message else None
    return ChatRef(PLATFORM, chat_key(chat.id, thread), private=chat.type == ChatType.PRIVATE)


def topic_link(chat_id: int, thread_id: int) -> str | None:
    """The address of a supergroup's topic for its members (``t.me/c/…``), None for a chat
    that has none.

    >>> topic_link(-1001234567890, 42)
    'https://t.me/c/1234567890/42'
    """
    text = str(chat_id)
    if not text.startswith(_SUPERGROUP_PREFIX):
        return None
    return f"https://t.me/c/{text.removeprefix(_SUPERGROUP_PREFIX)}/{thread_id}"
