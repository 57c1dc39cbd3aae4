"""Scripted players for the command layer: they read the bot's messages and act like people."""

from __future__ import annotations

import random
import weakref
from collections import Counter
from dataclasses import dataclass, field

from bot.core.bootstrap import Repositories
from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.service import Core
from gammon.flow import Phase
from storage import LoadedMatch

PLATFORM = "test"


def headline(message: Message) -> str:
    """A board's line that says who must act now (the end's: who won), after the line that
    says what was just played."""
    lines = message.text.split("\n")
    return lines[1] if message.lead and len(lines) > 1 else lines[0]


class ScriptedAdmins:
    """The test platform's answer to the core's question whether someone administers a chat:
    those who send a request with ``admin=True``, while it is being answered."""

    def __init__(self) -> None:
        self.names: Counter[str] = Counter()
        self.asked = 0  # how often the core asked

    async def is_admin(self, actor: Actor, chat: ChatRef) -> bool:
        self.asked += 1
        return self.names[actor.user_id] > 0


_ADMINS: weakref.WeakKeyDictionary[Core, ScriptedAdmins] = weakref.WeakKeyDictionary()


def admins_of(core: Core) -> ScriptedAdmins:
    """The test platform's administrators on ``core`` (registered with it the first time)."""
    if core not in _ADMINS:
        _ADMINS[core] = ScriptedAdmins()
        core.register_admins(PLATFORM, _ADMINS[core])
    return _ADMINS[core]


@dataclass
class Room:
    """A chat with a bot and the messages it has sent."""

    core: Core
    chat: ChatRef
    log: list[Message] = field(default_factory=list)
    events: int = 0
    # Event ids are unique in a chat (the log refuses a repeated one): two rooms on one chat
    # (two processes) need prefixes of their own.
    prefix: str = "e"

    @property
    def stores(self) -> Repositories:
        """The bot's repositories: what the database holds, to set up or look at."""
        return self.core.ports.repositories

    async def send(self, name: str, *, admin: bool = False, **fields: object) -> list[Message]:
        """``admin``: the platform says ``name`` administers the chat (if the core asks)."""
        self.events += 1
        actor = Actor(PLATFORM, name, name.title(), fields.pop("locale", None))  # type: ignore[arg-type]
        request = Request(actor, self.chat, event_id=f"{self.prefix}{self.events}", **fields)  # type: ignore[arg-type]
        admins = admins_of(self.core)
        admins.names[name] += admin
        try:
            answer = await self.core.handle(request)
        finally:
            admins.names[name] -= admin
        self.log.extend(answer)
        return answer

    async def command(
        self, name: str, text: str, *, admin: bool = False, **fields: object
    ) -> list[Message]:
        command, _, argument = text.lstrip("/").partition(" ")
        mentions = tuple(
            Actor(PLATFORM, word[1:], word[1:].title())
            for word in argument.split()
            if word.startswith("@")
        )
        return await self.send(
            name, admin=admin, command=command, argument=argument, mentions=mentions, **fields
        )

    async def match_of(self, name: str) -> LoadedMatch | None:
        """The active match ``name`` plays in this chat, as stored."""
        chat = await self.stores.chats.upsert_chat(PLATFORM, self.chat.chat_id)
        user = await self.stores.users.upsert_user(PLATFORM, name, name.title())
        return await self.stores.matches.active_match_for(chat.id, user.id)

    async def press(self, name: str, label: str) -> list[Message]:
        for message in reversed(self.log):
            for button in message.buttons:
                if button.label == label:
                    return await self.send(name, token=button.token)
        raise AssertionError(f"no [{label}] button in the log")


async def play_to_the_end(room: Room, names: tuple[str, str], seed: int, limit: int = 3000) -> None:
    """Both players act whenever it is their turn: roll, play a random legal move, take
    doubles, double now and then."""
    rng = random.Random(seed)
    users = {}
    for name in names:
        users[name] = await room.stores.users.upsert_user(PLATFORM, name, name.title())
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    for _step in range(limit):
        loaded = None
        for name in names:
            loaded = await room.stores.matches.active_match_for(chat.id, users[name].id)
            if loaded is not None:
                break
        if loaded is None:
            return
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        name = names[0] if loaded.info.player_ids[actor] == users[names[0]].id else names[1]
        if state.phase is Phase.ROLLING:
            if state.double_refusal(actor) is None and rng.random() < 0.05:
                await room.command(name, "/double")
            else:
                await room.command(name, "/roll")
        elif state.phase is Phase.MOVING:
            play = rng.choice(state.legal_plays())
            await room.command(name, f"/move {play}")
        elif state.phase is Phase.DOUBLED:
            await room.press(name, "Take" if rng.random() < 0.8 else "Drop")
        elif state.phase is Phase.RESIGNING:
            await room.press(name, "Accept")
    raise AssertionError("the match did not end")
