"""Random commands, texts and button presses from random users in two chats: nothing escapes,
and every match stays exactly what its players' legal actions made it."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import tempfile
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.service import Core
from gammon.actions import action_from_dict
from gammon.flow import Phase, replay
from storage import Database, MatchRepository
from storage.schema import match_events, matches
from tests.databases import sqlite_copy
from tests.seeds import fixed_seeds

USERS = ("anna", "bob", "carl")
CHATS = ("g1", "g2")
COMMANDS = (
    "/challenge @bob 1",
    "/challenge @anna 3 nocube",
    "/challenge 1 nardy",
    "/challenge money beaver",
    "/challenge @carl 99",
    "/accept",
    "/roll",
    "/double",
    "/resign",
    "/resign gammon",
    "/board",
    "/matches",
    "/help",
    "/language de",
    "/language xx",
    "/seed abc",
    "/verify",
    "/export",
    "/rules crawford",
    "/settings",
    "/move 8/5 6/5",
    "/move",
    "/move 24/1",
    "/nonsense",
)
step = st.tuples(
    st.sampled_from(USERS),
    st.sampled_from(CHATS),
    st.sampled_from(("command", "press", "forged", "smart", "text")),
    st.integers(0, 10_000),
    st.text(max_size=40),
)


async def run_steps(steps: list[tuple[str, str, str, int, str]], url: str) -> list[Message]:
    """``steps`` on the migrated database at ``url``: what the bot said."""
    database = Database(url)
    core = Core(database, render_images=False, server_seeds=fixed_seeds())
    seen: list[Message] = []
    for index, (user, chat_name, kind, number, text) in enumerate(steps):
        rng = random.Random(number)
        actor = Actor("fuzz", user, user.title())
        chat = ChatRef("fuzz", chat_name, private=False)
        request: Request
        if kind == "command":
            command, _, argument = rng.choice(COMMANDS)[1:].partition(" ")
            mentions = tuple(
                Actor("fuzz", word[1:], word[1:].title())
                for word in argument.split()
                if word[0] == "@"
            )
            request = Request(actor, chat, command=command, argument=argument, mentions=mentions)
        elif kind == "press":
            buttons = [button for message in seen[-30:] for button in message.buttons]
            token = rng.choice(buttons).token if buttons else "bg1:roll:m1:0"
            request = Request(actor, chat, token=token)
        elif kind == "forged":
            request = Request(actor, chat, token=text or f"bg1:take:m{number % 5}:{number % 40}")
        elif kind == "smart":
            request = await smart_move(core, actor, chat, rng) or Request(actor, chat, text=text)
        else:
            request = Request(actor, chat, text=text)
        # An event id as a platform gives one: an accept's client seeds come from it, so with
        # the fixed server seeds a run plays the same dice every time.
        seen.extend(await core.handle(dataclasses.replace(request, event_id=f"fuzz-{index}")))
    await check_every_match(database)
    await database.close()
    return seen


async def smart_move(core: Core, actor: Actor, chat: ChatRef, rng: random.Random) -> Request | None:
    chat_row = await core.ports.repositories.chats.upsert_chat(chat.platform, chat.chat_id)
    user = await core.ports.repositories.users.upsert_user(
        actor.platform, actor.user_id, actor.name
    )
    loaded = await core.ports.repositories.matches.active_match_for(chat_row.id, user.id)
    if loaded is None or loaded.state.phase is not Phase.MOVING or not loaded.state.legal_plays():
        return None
    play = rng.choice(loaded.state.legal_plays())
    return Request(actor, chat, command="move", argument=str(play))


async def check_every_match(database: Database) -> None:
    fresh = MatchRepository(database)  # no cached states: the database alone
    async with database.engine.connect() as connection:
        rows = (
            await connection.execute(
                sa.select(matches.c.id, matches.c.player0_id, matches.c.player1_id)
            )
        ).all()
        for match_id, first, second in rows:
            events = (
                await connection.execute(
                    sa.select(match_events.c.actor_id, match_events.c.action)
                    .where(match_events.c.match_id == match_id)
                    .order_by(match_events.c.seq)
                )
            ).all()
            assert all(actor in (None, first, second) for actor, _action in events)
            loaded = await fresh.load_match(match_id)
            actions = [action_from_dict(action) for _actor, action in events]
            assert replay(loaded.info.rules, actions) == (await fresh.with_history(loaded)).state
            assert loaded.info.version == len(actions)


@settings(max_examples=25, deadline=None)
@given(st.lists(step, min_size=5, max_size=40))
def test_random_traffic_never_breaks_anything(
    migrated_sqlite: Path, steps: list[tuple[str, str, str, int, str]]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        handler = _Recorder()
        logging.getLogger("bot.core.service").addHandler(handler)
        try:
            url = sqlite_copy(migrated_sqlite, Path(folder) / "fuzz.db")
            messages = asyncio.run(run_steps(steps, url))
        finally:
            logging.getLogger("bot.core.service").removeHandler(handler)
    assert not handler.failures, handler.failures[:1]
    assert not any("something went wrong" in message.text for message in messages)


class _Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.failures: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.failures.append(self.format(record))


@pytest.mark.parametrize("seed", range(3))
def test_long_random_sessions(seed: int, tmp_path: Path, migrated_sqlite: Path) -> None:
    rng = random.Random(seed)
    steps = [
        (
            rng.choice(USERS),
            rng.choice(CHATS),
            rng.choice(("command", "press", "smart", "smart", "press")),
            rng.randint(0, 10_000),
            "",
        )
        for _ in range(250)
    ]
    messages = asyncio.run(run_steps(steps, sqlite_copy(migrated_sqlite, tmp_path / "fuzz.db")))
    assert not any("something went wrong" in message.text for message in messages)
    assert any("Position ID" in message.text for message in messages)
