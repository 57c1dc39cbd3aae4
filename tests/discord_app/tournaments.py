"""People in a tournament over the fake Discord (issue 39's whole-tournament tests): its
/tournament slash commands, its announcements' [Start] clicks (in the pairings' threads), the
players' /roll and /move there, and the bot restarted as a new process on the same
database."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.core.service import Core
from storage import Database
from tests.discord_app.conftest import Bot, adapter, buttons, content, is_callback
from tests.discord_app.conftest import is_post as is_channel_post
from tests.fakes.discord_server import CHANNEL_ID, EVERYONE_PERMISSIONS, GUILD_ID, Call
from tests.seeds import fixed_seeds
from tests.tournament_runs import next_turn

MORE = {
    700000000000000004: "Dora",
    700000000000000005: "Emil",
    700000000000000006: "Fay",
    700000000000000007: "Gus",
    700000000000000008: "Hal",
}
ANNOUNCED = "Commitment to its dice"


async def answered(bot: Bot, mark: int, interaction_id: int) -> str:
    """What the bot wrote since ``mark``, once the interaction is answered and settled."""
    await bot.fake.wait_for(lambda call: is_callback(call, interaction_id), after=mark)
    await bot.adapter.settled()
    return "\n".join(content(call) for call in bot.fake.calls[mark:] if isinstance(call.json, dict))


async def slash(
    bot: Bot,
    user: int,
    name: str,
    options: list[Any] | None = None,
    permissions: int = EVERYONE_PERMISSIONS,
    channel: int = CHANNEL_ID,
) -> str:
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(user, name, options, channel_id=channel, permissions=permissions)
    return await answered(bot, mark, sent.id)


async def click(bot: Bot, user: int, post: Call, label: str) -> str:
    mark = len(bot.fake.calls)
    sent = await bot.fake.click(user, bot.message_id(post), buttons(post)[label])
    return await answered(bot, mark, sent.id)


def tournament_options(action: str, settings: str | None = None) -> list[Any]:
    options: list[Any] = [{"name": "action", "type": 3, "value": action}]
    if settings is not None:
        options.append({"name": "settings", "type": 3, "value": settings})
    return options


def channel_of(call: Call) -> int:
    """The channel (or thread) a message was posted in."""
    return int(call.path.split("/")[2])


def is_post_anywhere(call: Call) -> bool:
    """A message posted in the channel or in one of its threads."""
    return call.method == "POST" and bool(re.fullmatch(r"/channels/\d+/messages", call.path))


def announcements(bot: Bot) -> list[Call]:
    """The pairings' announcements posted in the channel or in their threads, in order."""
    return [
        call
        for call in bot.fake.calls
        if is_post_anywhere(call) and ANNOUNCED in content(call) and "Start" in buttons(call)
    ]


def in_threads(bot: Bot) -> bool:
    """Whether every announcement is in a thread of its own that the bot opened, each led to
    by a line in the channel with the thread's address."""
    posted = announcements(bot)
    threads = [channel_of(call) for call in posted]
    pointers = "\n".join(content(c) for c in bot.fake.calls if is_channel_post(c))
    return (
        len(set(threads)) == len(posted)
        and set(threads) <= set(bot.fake.threads)
        and all(f"discord.com/channels/{GUILD_ID}/{thread}" in pointers for thread in threads)
    )


def pairing_players(announcement: Call) -> tuple[int, int]:
    """The two players an announcement mentions."""
    first, second = re.findall(r"<@(\d+)>", content(announcement))[:2]
    return int(first), int(second)


def end_told(bot: Bot, name: str) -> str:
    """The channel's message that told the tournament's end (once)."""
    (end,) = [
        content(c)
        for c in bot.fake.calls
        if is_channel_post(c) and f"{name} is over." in content(c)
    ]
    return end


async def start_oldest(bot: Bot, done: list[int]) -> tuple[Call, tuple[int, int]] | None:
    """The oldest announcement not in ``done`` (the ids of those started), its [Start]
    clicked by its second player, and its players; None once every one has started."""
    waiting = [call for call in announcements(bot) if bot.message_id(call) not in done]
    if not waiting:
        return None
    players = pairing_players(waiting[0])
    begun = await click(bot, players[1], waiting[0], "Start")
    assert ", match " in begun
    done.append(bot.message_id(waiting[0]))
    return waiting[0], players


async def step(
    bot: Bot, players: tuple[int, int], rng: random.Random, channel: int = CHANNEL_ID
) -> bool:
    """One turn of the players' match in ``channel`` (the channel, or the pairing's thread)
    as a slash command: False once it has ended."""
    chat = await bot.stores.chats.find_chat("discord", str(channel))
    assert chat is not None
    first = await bot.stores.users.find_user("discord", str(players[0]))
    assert first is not None
    turn = await next_turn(bot.stores, chat.id, first.id, rng)
    if turn is None:
        return False
    mover = int((await bot.stores.users.get_user(turn[0])).platform_user_id)
    command, _, play = turn[1].lstrip("/").partition(" ")
    options = [{"name": "play", "type": 3, "value": play}] if play else None
    await slash(bot, mover, command, options, channel=channel)
    return True


async def play(
    bot: Bot, players: tuple[int, int], rng: random.Random, channel: int = CHANNEL_ID
) -> None:
    for _step in range(2000):
        if not await step(bot, players, rng, channel):
            return
    raise AssertionError("the match did not end")


async def new_process(bot: Bot, url: str) -> None:
    """The bot stops and starts again: a new database connection, core and adapter (the fake
    Discord, its channel and its messages stay)."""
    await bot.adapter.stop()
    await bot.database.close()
    bot.database = Database(url)
    bot.core = Core(bot.database, render_images=False, server_seeds=fixed_seeds())
    bot.adapter = adapter(bot.core)
    await bot.adapter.start()
