"""A person in a benchmark: sends commands to the core as an adapter would and times them."""

from __future__ import annotations

import time

from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.service import Core

PLATFORM = "bench"


class Player:
    def __init__(self, core: Core, chat: ChatRef, name: str) -> None:
        self.core = core
        self.chat = chat
        self.actor = Actor(PLATFORM, name, name.title())
        self.events = 0
        self.answer: list[Message] = []

    async def say(self, command: str, argument: str = "", mention: str | None = None) -> float:
        """Send ``/command argument``; the milliseconds until the core answered."""
        self.events += 1
        mentions = (Actor(PLATFORM, mention, mention.title()),) if mention else ()
        request = Request(
            self.actor,
            self.chat,
            command=command,
            argument=argument,
            event_id=f"{self.actor.user_id}-{self.events}",
            mentions=mentions,
        )
        started = time.perf_counter()
        self.answer = await self.core.handle(request)
        return (time.perf_counter() - started) * 1000

    async def press(self, label: str) -> float:
        """Press the button ``label`` of the last answer; the milliseconds until answered."""
        [token] = [b.token for m in self.answer for b in m.buttons if b.label == label]
        self.events += 1
        request = Request(
            self.actor, self.chat, token=token, event_id=f"{self.actor.user_id}-{self.events}"
        )
        started = time.perf_counter()
        self.answer = await self.core.handle(request)
        return (time.perf_counter() - started) * 1000
