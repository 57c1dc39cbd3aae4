"""The core's threads port: a thread only where a front-end opens one; a private chat, a
platform without threads and a front-end that fails all mean none (the pairing is then
announced in the chat itself)."""

from __future__ import annotations

from bot.core.model import ChatRef
from bot.core.threads import TITLE_LENGTH, Thread, ThreadPorts

GROUP = ChatRef("discord", "10")


class Opening:
    def __init__(self) -> None:
        self.titles: list[str] = []

    async def open_thread(self, chat: ChatRef, title: str) -> Thread | None:
        self.titles.append(title)
        return Thread(ChatRef(chat.platform, "11"), "https://example.test/11")


class Failing:
    async def open_thread(self, chat: ChatRef, title: str) -> Thread | None:
        raise RuntimeError("the platform is down")


async def test_a_thread_opens_only_where_a_front_end_opens_one() -> None:
    ports = ThreadPorts()
    opening = Opening()
    ports.register("discord", opening)
    ports.register("telegram", Failing())
    opened = await ports.open_thread(GROUP, "x" * 150)
    assert opened == Thread(ChatRef("discord", "11"), "https://example.test/11")
    assert opening.titles == ["x" * TITLE_LENGTH]  # Discord's limit: 100
    assert await ports.open_thread(ChatRef("discord", "12", private=True), "t") is None
    assert await ports.open_thread(ChatRef("telegram", "-100"), "t") is None
    assert await ports.open_thread(ChatRef("console", "room"), "t") is None
    assert len(opening.titles) == 1  # a private chat was not asked
