"""Threads and topics: the one question the core asks a front-end to keep a busy group tidy.

A tournament's pairing plays in a thread of its own where the platform has them (issue 39),
so that its announcement, its boards and its chatter do not flood the group: the core asks the
front-end to open one through :class:`ThreadPort`, which each platform answers in its own way
(a public thread of a Discord text channel, a topic of a Telegram forum group; the console has
none). A thread is a chat of its own (:class:`Thread.chat`): whatever is posted to it, and
every request that comes from it, names it, so a match in it is a match in a chat like any
other. Opening one may fail (no permission, not a forum, the platform down): the caller then
does what it did without threads.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from bot.core.model import ChatRef

logger = logging.getLogger(__name__)

TITLE_LENGTH = 100  # Discord's limit for a thread's name (Telegram's for a topic is 128)


@dataclass(frozen=True)
class Thread:
    """A thread opened in a group: its own chat, and the web address that leads to it from
    the group (a Discord channel link, which Discord shows as the thread's name; a Telegram
    ``t.me/c/…`` link to the topic)."""

    chat: ChatRef
    link: str


class ThreadPort(Protocol):
    """What a front-end answers: a new public thread of the group chat ``chat`` named
    ``title``, or None where it cannot open one (a chat without threads, no permission)."""

    async def open_thread(self, chat: ChatRef, title: str) -> Thread | None: ...


class ThreadPorts:
    """The front-ends' answers, one port per platform. A platform without one has no threads,
    nor has a private chat; a port that fails counts as none."""

    def __init__(self) -> None:
        self._ports: dict[str, ThreadPort] = {}

    def register(self, platform: str, port: ThreadPort) -> None:
        self._ports[platform] = port

    async def open_thread(self, chat: ChatRef, title: str) -> Thread | None:
        port = self._ports.get(chat.platform)
        if port is None or chat.private:
            return None
        try:
            return await port.open_thread(chat, title[:TITLE_LENGTH])
        except Exception:
            logger.exception("could not open a thread in chat %s", chat.chat_id)
            return None
