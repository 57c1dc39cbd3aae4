"""Telegram's forum topics, as the core's :class:`~bot.core.threads.ThreadPort`.

Only a forum supergroup has topics, and the bot opens one (``createForumTopic``) only with the
*Manage Topics* administrator right: elsewhere Telegram refuses, and the core announces in the
group itself. A group that answered that it is no forum is not asked again by this process
(it may become one later: a new process asks again). Topics are not nested: asked from one of
a forum's topics (a tournament run in a "Club" topic rather than in General), the bot opens
the new topic in the group, and the line that leads to it is posted where it was asked.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Final

from telegram import Bot
from telegram.error import TelegramError

from bot.core.model import ChatRef
from bot.core.threads import Thread
from bot.telegram_app.topics import chat_key, split_key, topic_link

logger = logging.getLogger(__name__)

TOPIC_NAME_LENGTH: Final = 128
_NOT_A_FORUM: Final = "not a forum"


class ForumTopics:
    def __init__(self, bot: Callable[[], Bot], limit: int = 50_000) -> None:
        self.bot = bot
        self.limit = limit
        self._no_forum: set[int] = set()  # groups that said they are no forum

    async def open_thread(self, chat: ChatRef, title: str) -> Thread | None:
        group, _topic = split_key(chat.chat_id)  # topics are not nested: a topic's is the group's
        if group in self._no_forum:
            return None
        try:
            created = await self.bot().create_forum_topic(group, title[:TOPIC_NAME_LENGTH])
        except TelegramError as error:
            logger.info("no topic in chat %s: %s", group, error)
            if _NOT_A_FORUM in str(error).lower():
                if len(self._no_forum) >= self.limit:
                    self._no_forum.clear()
                self._no_forum.add(group)
            return None
        thread = created.message_thread_id
        key = chat_key(group, thread)
        return Thread(
            ChatRef(chat.platform, key, locale=chat.locale), topic_link(group, thread) or ""
        )
