"""A bot connected to the fake Discord, with a few people and helpers to read what it posts."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import SecretStr

from bot.config import Settings
from bot.core.bootstrap import Repositories
from bot.core.service import Core
from bot.discord_app import DiscordAdapter
from storage import Database
from tests.fakes.discord_server import CHANNEL_ID, GUILD_ID, Call, FakeDiscord
from tests.seeds import fixed_seeds

ANNA, BOB, CARL = 700000000000000001, 700000000000000002, 700000000000000003
NAMES = {ANNA: "Anna", BOB: "Bob", CARL: "Carl"}


def settings(sharded: bool = False, **more: Any) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=SecretStr("fake-token"),
        discord_guild_id=GUILD_ID,
        discord_sharded=sharded,
        **more,
    )


def is_post(call: Call, channel: int = CHANNEL_ID) -> bool:
    return call.method == "POST" and call.path == f"/channels/{channel}/messages"


def is_followup(call: Call) -> bool:
    return call.method == "POST" and call.path.startswith("/webhooks/")


def is_callback(call: Call, interaction_id: int) -> bool:
    return call.path == f"/interactions/{interaction_id}/token-{interaction_id}/callback"


def content(call: Call) -> str:
    assert isinstance(call.json, dict)
    return str(call.json.get("content", ""))


def buttons(call: Call) -> dict[str, str]:
    """Label -> custom_id of the buttons a sent message carries."""
    assert isinstance(call.json, dict)
    found = {}
    for row in call.json.get("components", []):
        for component in row["components"]:
            found[component["label"]] = component["custom_id"]
    return found


def mentioned(call: Call) -> int:
    """The user a board pings (its content starts with the mention)."""
    found = re.match(r"<@(\d+)>", content(call))
    assert found, content(call)
    return int(found.group(1))


@dataclass
class Bot:
    """The fake Discord, the database and the adapter under test."""

    fake: FakeDiscord
    database: Database
    core: Core
    adapter: DiscordAdapter

    @property
    def stores(self) -> Repositories:
        """The bot's repositories: what the database holds, to set up or look at."""
        return self.core.ports.repositories

    def message_id(self, call: Call) -> int:
        """The id the fake gave the message the bot created with ``call``."""
        assert call.created is not None
        return call.created

    async def restart(self) -> None:
        """A new adapter (a new process, as far as Discord and the database can tell)."""
        await self.adapter.stop()
        self.adapter = adapter(self.core)
        await self.adapter.start()

    async def next_post(self, after: int, text: str, channel: int = CHANNEL_ID) -> Call:
        return await self.fake.wait_for(
            lambda call: is_post(call, channel) and text in content(call), after=after
        )

    async def next_private(self, after: int, text: str = "") -> Call:
        return await self.fake.wait_for(
            lambda call: (
                call.path.startswith("/webhooks/")
                and call.method in ("POST", "PATCH")
                and text in content(call)
            ),
            after=after,
        )

    async def suggestions(self, user: int, typed: str = "") -> list[str]:
        mark = len(self.fake.calls)
        sent = await self.fake.autocomplete(user, "move", "play", typed)
        call = await self.fake.wait_for(lambda call: is_callback(call, sent.id), after=mark)
        assert isinstance(call.json, dict)
        assert call.json["type"] == 8  # APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
        return [choice["value"] for choice in call.json["data"]["choices"]]


def payload_json(call: Call) -> dict[str, Any]:
    assert isinstance(call.json, dict)
    return json.loads(json.dumps(call.json))


async def open_bot(url: str, core_class: type[Core] = Core, **core: Any) -> Bot:
    """A bot on the migrated database at ``url``, not started."""
    fake = FakeDiscord()
    await fake.start()
    for user_id, name in NAMES.items():
        fake.add_user(user_id, name)
    database = Database(url)
    core.setdefault("server_seeds", fixed_seeds())  # the same dice in every run
    engine = core_class(database, **core)
    return Bot(fake, database, engine, adapter(engine))


def adapter(core: Core, sharded: bool = False, **more: Any) -> DiscordAdapter:
    """An adapter that waits only briefly for guilds after READY (Discord's default is 2 s);
    ``more`` are further settings."""
    return DiscordAdapter(
        core, settings=settings(sharded, **more), client_options={"guild_ready_timeout": 0.05}
    )


@asynccontextmanager
async def running_bot(url: str, **core: Any) -> AsyncIterator[Bot]:
    """A started bot on ``url`` that draws no pictures, stopped and closed after."""
    running = await open_bot(url, render_images=False, **core)
    with running.fake.routed():
        await running.adapter.start()
        yield running
        await running.adapter.stop()
    await running.fake.stop()
    await running.database.close()


@pytest.fixture
async def bot(migrated_url: str) -> AsyncIterator[Bot]:
    """A running bot that draws no pictures (the wire test draws them)."""
    async with running_bot(migrated_url) as running:
        yield running
