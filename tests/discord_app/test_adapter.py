"""The adapter's promises beyond a match: the 3-second acknowledgement, registration that
tolerates a second setup_hook, the text fallback, threads, sharding, the clock's messages and
the German command descriptions."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.core.model import ChatRef, Message, Private, Public, Request, Slot
from bot.core.service import Core
from tests.discord_app.conftest import (
    ANNA,
    BOB,
    Bot,
    adapter,
    buttons,
    content,
    is_callback,
    is_post,
    open_bot,
)
from tests.fakes.discord_server import BOT_ID, CHANNEL_ID, GUILD_ID, THREAD_ID, user_payload

ACK_LIMIT = 3.0  # seconds Discord gives an interaction before it fails for the user


class SlowCore(Core):
    """A core whose answers take as long as the test wants: they wait for ``release``."""

    release: asyncio.Event
    entered: asyncio.Event

    async def handle(self, request: Request) -> list[Message]:
        self.entered.set()
        await asyncio.wait_for(self.release.wait(), timeout=30)
        return await super().handle(request)


async def test_a_slow_answer_is_acknowledged_before_the_core_works(migrated_url: str) -> None:
    bot = await open_bot(migrated_url, SlowCore, render_images=False)
    slow = bot.core
    assert isinstance(slow, SlowCore)
    slow.release, slow.entered = asyncio.Event(), asyncio.Event()
    with bot.fake.routed():
        await bot.adapter.start()
        try:
            mark = len(bot.fake.calls)
            sent = await bot.fake.slash(ANNA, "help")
            ack = await bot.fake.wait_for(lambda call: is_callback(call, sent.id), after=mark)
            assert isinstance(ack.json, dict)
            assert ack.json == {"type": 5, "data": {"flags": 64}}  # deferred, ephemeral
            await asyncio.wait_for(slow.entered.wait(), timeout=10)
            assert not slow.release.is_set()  # the core has not answered, the ack is out
            assert ack.at - sent.sent_at < ACK_LIMIT
            slow.release.set()
            answer = await bot.next_private(mark, "/challenge")
            assert answer.at > ack.at
        finally:
            slow.release.set()
            await bot.adapter.stop()
            await bot.fake.stop()
            await bot.database.close()


async def test_setup_hook_may_run_again(bot: Bot) -> None:
    registered = [call for call in bot.fake.calls if call.method == "PUT"]
    assert len(registered) == 1
    assert registered[0].path.endswith(f"/guilds/{GUILD_ID}/commands")  # DISCORD_GUILD_ID
    names = sorted(command.name for command in bot.adapter.tree.get_commands())
    await bot.adapter.client.setup_hook()
    await bot.adapter.client.setup_hook()
    assert sorted(command.name for command in bot.adapter.tree.get_commands()) == names
    assert len([call for call in bot.fake.calls if call.method == "PUT"]) == 1
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "help")
    await bot.next_private(mark, "/challenge")


async def test_commands_are_registered_with_german_names_and_descriptions(bot: Bot) -> None:
    registered = next(call for call in bot.fake.calls if call.method == "PUT")
    assert isinstance(registered.json, list)
    commands = {command["name"]: command for command in registered.json}
    assert {"challenge", "move", "roll", "double", "resign", "accept", "defaults"} <= set(commands)
    assert commands["roll"]["description_localizations"]["de"] == "Würfeln"
    challenge = {option["name"]: option for option in commands["challenge"]["options"]}
    assert challenge["opponent"]["name_localizations"]["de"] == "gegner"
    assert challenge["length"]["min_value"] == 1
    assert challenge["length"]["max_value"] == 25
    assert [choice["value"] for choice in challenge["variant"]["choices"]] == [
        "backgammon",
        "nardy",
    ]
    assert commands["move"]["options"][0]["autocomplete"] is True
    assert commands["move"]["name_localizations"] == {}  # the bot's texts say /move


def message_payload(author: int, text: str, mentions: list[int], channel: int) -> dict[str, Any]:
    users = {ANNA: "Anna", BOB: "Bob", BOT_ID: "gammonbot"}
    return {
        "id": str(1_300_000_000_000_000_000 + len(text) + author % 1000),
        "channel_id": str(channel),
        "guild_id": str(GUILD_ID),
        "author": user_payload(author, users[author]),
        "member": {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False},
        "content": text,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [user_payload(user, users[user], bot=user == BOT_ID) for user in mentions],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
    }


async def test_the_mention_prefixed_text_fallback_plays_a_turn(bot: Bot) -> None:
    async def say(author: int, text: str, mentions: list[int]) -> None:
        await bot.fake.send_event(
            "MESSAGE_CREATE", message_payload(author, text, mentions, CHANNEL_ID)
        )

    mark = len(bot.fake.calls)
    await say(ANNA, f"<@{BOT_ID}> challenge <@{BOB}> 1", [BOT_ID, BOB])
    offer = await bot.next_post(mark, "challenges")
    assert content(offer).startswith(f"<@{BOB}>")
    mark = len(bot.fake.calls)
    await say(BOB, f"<@{BOT_ID}> accept", [BOT_ID])
    board = await bot.next_post(mark, " to play ")
    player = ANNA  # with the fixed seeds Anna opens, with 6-2
    assert content(board).startswith(f"<@{player}> ")  # Bob accepted: Anna is called
    assert "\nAnna to play 6-2" in content(board)  # after the opening roll's sentence
    chat = ChatRef("discord", str(CHANNEL_ID))
    from bot.core.model import Actor

    plays = await bot.core.suggest_moves(Actor("discord", str(player), "x"), chat)
    assert plays[0] == "24/22 24/18"
    mark = len(bot.fake.calls)
    await say(player, f"<@{BOT_ID}> {plays[0]}", [BOT_ID])
    after = await bot.next_post(mark, "<@")
    assert content(after).startswith(f"<@{BOB}> ")
    assert "Bob to play 6-2" in content(after)  # no cube in a 1-point match: rolled at once
    # Messages that do not start by mentioning the bot are not for it.
    mark = len(bot.fake.calls)
    await say(ANNA, "nice game, everyone", [])
    await bot.fake.slash(ANNA, "help")
    await bot.next_private(mark, "/challenge")
    assert not any(is_post(call) for call in bot.fake.calls[mark:])


async def test_a_match_in_a_thread_is_posted_in_the_thread(bot: Bot) -> None:
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "challenge", [], channel_id=THREAD_ID)
    offer = await bot.next_post(mark, "Anyone here may accept", channel=THREAD_ID)
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offer), buttons(offer)["Accept"])
    board = await bot.next_post(mark, " to play ", channel=THREAD_ID)
    # Bob accepted and opens (the fixed seeds): he is at the table, nobody is called.
    assert not content(board).startswith("<@")
    assert "\nBob to play 4-2" in content(board)


async def test_the_clock_posts_through_the_channel_and_private_notes_as_dms(bot: Bot) -> None:
    chat = ChatRef("discord", str(CHANNEL_ID))
    mark = len(bot.fake.calls)
    await bot.adapter.deliver(
        [
            Message(chat, "Your move, please.", mention=(str(BOB),), kind=Public(Slot("board:1"))),
            Message(chat, "Just for you.", kind=Private(str(ANNA))),
        ]
    )
    reminder = await bot.next_post(mark, "Your move")
    assert content(reminder) == f"<@{BOB}> Your move, please."
    note = await bot.fake.wait_for(
        lambda call: "Just for you." in content(call) and call.method == "POST", after=mark
    )
    channel = int(note.path.split("/")[2])
    assert bot.fake.dm_channels[channel] == ANNA
    current = await bot.core.delivery.slot_message("discord", str(CHANNEL_ID), "board:1")
    assert current == str(reminder.created)


@asynccontextmanager
async def started(url: str, **settings: Any) -> AsyncIterator[Bot]:
    """A bot started with ``settings`` (to look at how it connected), that then answers
    /help; stopped after."""
    bot = await open_bot(url, render_images=False)
    bot.adapter = adapter(bot.core, **settings)
    with bot.fake.routed():
        await bot.adapter.start()
        try:
            yield bot
            mark = len(bot.fake.calls)
            await bot.fake.slash(ANNA, "help")
            await bot.next_private(mark, "/challenge")
        finally:
            await bot.adapter.stop()
            await bot.fake.stop()
            await bot.database.close()


async def test_a_sharded_client_plays_too(migrated_url: str) -> None:
    async with started(migrated_url, sharded=True) as bot:
        assert any(call.path == "/gateway/bot" for call in bot.fake.calls)
        assert bot.fake.identified == 1


@pytest.mark.parametrize(("shard_ids", "syncs"), [((1,), False), ((0,), True)])
async def test_a_process_runs_the_shards_it_is_given(
    migrated_url: str, shard_ids: tuple[int, ...], syncs: bool
) -> None:
    """Two processes share the bot's 2 shards: each connects as its own, and only the one with
    shard 0 registers the commands; both answer them."""
    async with started(migrated_url, discord_shard_count=2, discord_shard_ids=shard_ids) as bot:
        assert bot.fake.shards == [[shard_ids[0], 2]]
        registered = [call for call in bot.fake.calls if call.path.endswith("/commands")]
        assert bool(registered) is syncs


async def test_a_channel_the_bot_may_not_post_in_gets_a_private_explanation(bot: Bot) -> None:
    bot.fake.closed_channels.add(CHANNEL_ID)
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "challenge", [])
    note = await bot.next_private(mark, "I may not post here")
    assert note.method == "PATCH"  # in place of the "thinking…" placeholder


async def test_a_stale_or_forged_button_is_refused_politely(bot: Bot) -> None:
    offer = await challenge_in_channel(bot)
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offer), buttons(offer)["Accept"])
    await bot.next_post(mark, " to play ")
    before = await bot.stores.matches.load_match(1)
    # A roll button of a match that does not exist, and one of match 1 before its opening roll.
    for token in ("bg1:roll:m999:1", "bg1:roll:m1:0"):
        add_button(bot, offer, token)
        mark = len(bot.fake.calls)
        await bot.fake.click(BOB, bot.message_id(offer), token)
        await bot.next_private(mark, "out of date")
        assert not any(is_post(call) for call in bot.fake.calls[mark:])
        after = await bot.stores.matches.load_match(1)
        assert after.info.version == before.info.version


async def challenge_in_channel(bot: Bot) -> Any:
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "challenge", [])
    return await bot.next_post(mark, "Anyone here may accept")


def add_button(bot: Bot, message: Any, token: str) -> None:
    """The fake lets a test click any custom id a message shows: make ``message`` show one
    button with ``token``, as a client that has not seen the latest edit still would."""
    stored = bot.fake.messages[bot.message_id(message)]
    button = {"type": 2, "style": 2, "label": "Roll", "custom_id": token}
    stored["components"] = [{"type": 1, "components": [button]}]


async def test_a_german_client_gets_german_answers(bot: Bot) -> None:
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "help", locale="de")
    answer = await bot.next_private(mark, "gammonbot spielt in diesem Chat Backgammon")
    assert "/challenge" in content(answer)  # the command names stay as they are typed
    assert "plays backgammon" not in content(answer)
