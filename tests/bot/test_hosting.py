"""The host starts adapters, hands them the clock's messages by platform, and stops them."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import socket
from collections.abc import Iterator, Sequence
from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest
from pydantic import ValidationError

import bot.runtime as runtime
from bot.config import Settings
from bot.core.model import ChatRef, Message
from bot.core.service import Core
from bot.hosting import WebSettings, dispatch, host
from tests.bot.scripted import Room


@pytest.fixture(autouse=True)
def thawed_collector() -> Iterator[None]:
    """host() freezes the collector for the rest of the process (see bot.runtime); later tests
    must see every object again (hypothesis checks its PRNGs with gc.get_referrers)."""
    yield
    if runtime._freeze_survivors in gc.callbacks:
        gc.callbacks.remove(runtime._freeze_survivors)
    runtime._installed = False
    gc.unfreeze()


class Recorder:
    def __init__(self, platform: str, core: Core, fail: bool = False) -> None:
        self.platform = platform
        self.core = core
        self.fail = fail
        self.delivered: list[Message] = []
        self.calls: list[str] = []

    async def start(self) -> None:
        self.calls.append("start")

    async def deliver(self, messages: Sequence[Message]) -> None:
        if self.fail:
            raise RuntimeError("platform down")
        self.delivered.extend(messages)

    async def stop(self) -> None:
        self.calls.append("stop")


async def test_messages_go_to_the_adapter_of_their_platform() -> None:
    core = object.__new__(Core)
    discord, telegram, broken = (
        Recorder("discord", core),
        Recorder("telegram", core),
        Recorder("other", core, fail=True),
    )
    messages = [
        Message(ChatRef("telegram", "1"), "t"),
        Message(ChatRef("discord", "2"), "d"),
        Message(ChatRef("other", "3"), "o"),
    ]
    await dispatch([broken, discord, telegram], messages)
    assert [message.text for message in discord.delivered] == ["d"]
    assert [message.text for message in telegram.delivered] == ["t"]


async def test_host_runs_the_clock_and_stops_cleanly(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'host.db'}"
    made: list[Recorder] = []

    def factory(core: Core) -> Recorder:
        made.append(Recorder("test", core))
        return made[-1]

    stop = asyncio.Event()
    running = asyncio.create_task(host(url, [factory], stop, tick_seconds=0.05))
    while not made or "start" not in made[0].calls:
        await asyncio.sleep(0.01)
    recorder = made[0]
    room = Room(recorder.core, ChatRef("test", "group"))
    await room.command("anna", "/challenge @bob 3")
    # A day later the challenge has expired: the next tick tells the chat.
    later = recorder.core.clock() + timedelta(days=1, minutes=1)
    recorder.core.clock = lambda: later
    # The clock starts ticking once the engine's workers are warm: on a busy machine that
    # takes seconds, so the wait is for the delivery (up to a minute), not for a number of ticks.
    deadline = asyncio.get_running_loop().time() + 60
    while not recorder.delivered and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.02)
    stop.set()
    await running
    assert recorder.calls == ["start", "stop"]
    assert multiprocessing.active_children() == []  # the drawing processes were stopped
    assert ["expired" in message.text for message in recorder.delivered] == [True]


def test_garbage_frozen_after_a_full_collection_is_reclaimed_later() -> None:
    from bot.runtime import freeze_startup_objects, reclaim_frozen_garbage

    freeze_startup_objects()

    class Node:
        partner: object = None

    try:
        first, second = Node(), Node()
        first.partner, second.partner = second, first  # a cycle: refcounts never free it
        gc.collect()  # a full pass: it survives, and is frozen
        assert gc.get_freeze_count() > 0
        del first, second
        assert gc.collect() == 0  # frozen: the collector leaves it alone
        assert reclaim_frozen_garbage() >= 2  # until reclaimed
    finally:
        gc.unfreeze()


def test_what_survives_a_middle_generation_pass_is_frozen_too() -> None:
    """A full pass then finds nothing that had already lived through a generation-1 pass
    (those passes paused the event loop for up to 45 ms with 200 matches in play)."""
    from bot.runtime import freeze_startup_objects

    freeze_startup_objects()

    class Node:
        partner: object = None

    try:
        first, second = Node(), Node()
        first.partner, second.partner = second, first
        frozen = gc.get_freeze_count()
        gc.collect(1)  # a pass over generations 0 and 1 only: it survives, and is frozen
        assert gc.get_freeze_count() > frozen
        assert all(kept is not first for kept in gc.get_objects(generation=2))
        del first, second
        assert gc.collect() == 0  # frozen: even a full pass leaves it alone
    finally:
        gc.unfreeze()


async def test_the_core_knows_when_it_is_idle(room: Room) -> None:
    assert room.core.idle()
    answering = asyncio.create_task(room.command("anna", "/help"))
    await asyncio.sleep(0)
    assert not room.core.idle()
    await answering
    assert room.core.idle()


async def test_the_clock_reclaims_frozen_garbage_only_when_idle(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.hosting as hosting

    reclaimed: list[bool] = []
    monkeypatch.setattr(hosting, "RECLAIM_TICKS", 2)
    monkeypatch.setattr(hosting, "reclaim_frozen_garbage", lambda: reclaimed.append(True) or 0)
    busy = [True]
    ticking = asyncio.create_task(
        hosting.keep_time(room.core.ports.clock, [], every=0.001, idle=lambda: not busy[0])
    )
    try:
        for _attempt in range(50):  # several rounds of two ticks while busy
            await asyncio.sleep(0.002)
        assert reclaimed == []
        busy[0] = False
        for _attempt in range(500):
            if reclaimed:
                break
            await asyncio.sleep(0.002)
        assert reclaimed
    finally:
        ticking.cancel()


async def test_host_serves_the_web_pages_when_asked_and_stops_them(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'web.db'}"
    with socket.socket() as probe:  # a free port, for the pages to listen on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    made: list[Recorder] = []

    def factory(core: Core) -> Recorder:
        made.append(Recorder("test", core))
        return made[-1]

    stop = asyncio.Event()
    web = WebSettings("https://gammon.example.org", "127.0.0.1", port)
    running = asyncio.create_task(host(url, [factory], stop, tick_seconds=60, web=web))
    while not made or "start" not in made[0].calls:
        await asyncio.sleep(0.01)
    room = Room(made[0].core, ChatRef("test", "group"))
    await room.command("anna", "/challenge @bob 1")
    started = await room.press("bob", "Accept")
    slug = (await made[0].core.ports.repositories.matches.match_info(1)).slug
    assert f"https://gammon.example.org/m/{slug}" in started[0].text
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{port}/m/{slug}") as response:
            assert response.status == 200
            assert "Anna" in await response.text()
        stop.set()
        await running
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(f"http://127.0.0.1:{port}/m/{slug}")


def test_the_web_address_is_checked_and_kept_without_its_slash() -> None:
    assert Settings(_env_file=None, web_base_url="https://g.example.org/").web_base_url == (  # type: ignore[call-arg]
        "https://g.example.org"
    )
    assert Settings(_env_file=None, web_base_url="").web_base_url is None  # type: ignore[call-arg]
    for wrong in ("ftp://g.example.org", "g.example.org", "https://g.example.org/?x=1"):
        with pytest.raises(ValidationError, match="web_base_url"):
            Settings(_env_file=None, web_base_url=wrong)  # type: ignore[call-arg]


def test_discord_shards_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_SHARD_COUNT", "4")
    monkeypatch.setenv("DISCORD_SHARD_IDS", "2, 3")
    assert Settings(_env_file=None).discord_shards == (4, (2, 3))  # type: ignore[call-arg]
    monkeypatch.delenv("DISCORD_SHARD_IDS")
    assert Settings(_env_file=None).discord_shards == (4, (0, 1, 2, 3))  # type: ignore[call-arg]
    monkeypatch.delenv("DISCORD_SHARD_COUNT")
    assert Settings(_env_file=None).discord_shards is None  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("count", "ids", "reason"),
    [
        (None, "0", "needs DISCORD_SHARD_COUNT"),
        ("2", "2", "each below DISCORD_SHARD_COUNT"),
        ("2", "1,1", "different shards"),
        ("2", "one", "shard numbers separated by commas"),
        ("0", None, "greater than or equal to 1"),
    ],
)
def test_impossible_shards_are_refused_at_start(
    monkeypatch: pytest.MonkeyPatch, count: str | None, ids: str | None, reason: str
) -> None:
    for name, value in (("DISCORD_SHARD_COUNT", count), ("DISCORD_SHARD_IDS", ids)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=reason):
        Settings(_env_file=None)  # type: ignore[call-arg]
