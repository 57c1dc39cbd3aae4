"""Playing against the bot on Discord: /play and /challenge @gammonbot offer a match against
the bot's own account, with its dice commitment, and the person's [Start] begins it (their
client seed is the id of that click); its turns come in the answer to the person's move; the
analysis of the finished match is posted in the channel with its picture."""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.core.computer.computer import Computer
from storage import LoadedMatch
from tests.discord_app.conftest import ANNA, BOB, Bot, buttons, content, is_post, open_bot
from tests.fakes.discord_server import (
    BOT_ID,
    CHANNEL_ID,
    GUILD_ID,
    Call,
    Interaction,
    user_payload,
)

WAIT = 60.0  # seconds an answer may take: the engine plans the bot's turn in it
BOT_NOTE = re.compile(r"gammonbot rolled (\d)-(\d) and played \S")


@pytest.fixture
async def bot(migrated_url: str) -> AsyncIterator[Bot]:
    """A running bot whose engine works in threads (no worker processes) and that draws no
    boards (the analysis picture is drawn all the same)."""
    running = await open_bot(migrated_url, render_images=False, computer=Computer(processes=False))
    with running.fake.routed():
        await running.adapter.start()
        try:
            yield running
        finally:
            await running.adapter.stop()
            running.core.ports.workers.computer.close()
            await running.fake.stop()
            await running.database.close()


def gammonbot_option() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``opponent:@gammonbot``, the bot's own member, as Discord sends the option."""
    gammonbot = user_payload(BOT_ID, "gammonbot", bot=True)
    return (
        [{"name": "opponent", "type": 6, "value": str(BOT_ID)}],
        {"users": {str(BOT_ID): gammonbot}},
    )


async def answered(bot: Bot, user: int, command: str, options: list[dict[str, Any]]) -> list[Call]:
    """Send a slash command and return what the bot did until its answer was complete: the
    "thinking…" placeholder is removed once every message of the answer is posted."""
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(user, command, options)
    done = await bot.fake.wait_for(
        lambda call: call.method == "DELETE" and sent.token in call.path, after=mark, timeout=WAIT
    )
    return bot.fake.calls[mark : bot.fake.calls.index(done)]


async def next_post(bot: Bot, after: int, text: str) -> Call:
    """The next channel post with ``text``, given the time the engine may take."""
    return await bot.fake.wait_for(
        lambda call: is_post(call) and text in content(call), after=after, timeout=WAIT
    )


def posts(calls: list[Call]) -> list[Call]:
    return [call for call in calls if is_post(call)]


def boards(calls: list[Call]) -> list[Call]:
    """The channel messages posted, or edited in place, with these calls."""
    return [
        call
        for call in calls
        if is_post(call)
        or (call.method == "PATCH" and call.path.startswith(f"/channels/{CHANNEL_ID}/messages/"))
    ]


async def start(bot: Bot, offer: Call, user: int = ANNA) -> tuple[Interaction, list[Call]]:
    """``user`` clicks [Start] under ``offer``: the click and the calls of its answer (the
    offer edited into the match's start, then the boards), up to the board that waits for
    Anna (the bot, if it opens, has played by then)."""
    mark = len(bot.fake.calls)
    click = await bot.fake.click(user, bot.message_id(offer), buttons(offer)["Start"])
    board = await next_post(bot, mark, "Anna to play ")
    return click, bot.fake.calls[mark : bot.fake.calls.index(board) + 1]


async def active_match(bot: Bot) -> LoadedMatch | None:
    chat = await bot.stores.chats.find_chat("discord", str(CHANNEL_ID))
    anna = await bot.stores.users.find_user("discord", str(ANNA))
    if chat is None or anna is None:
        return None
    return await bot.stores.matches.active_match_for(chat.id, anna.id)


async def test_the_bot_runs_as_its_own_account(bot: Bot) -> None:
    account = await bot.core.ports.bots.of("discord")
    assert account.platform_user_id == str(BOT_ID)
    assert account.display_name == "gammonbot"
    assert account.is_bot


async def test_play_hint_and_analysis_are_slash_commands_with_their_options(bot: Bot) -> None:
    registered = next(call for call in bot.fake.calls if call.method == "PUT")
    assert isinstance(registered.json, list)
    commands = {command["name"]: command for command in registered.json}
    assert {"play", "hint", "analysis"} <= set(commands)
    play = {option["name"]: option for option in commands["play"]["options"]}
    assert list(play) == ["length", "level", "money", "variant", "cube", "clock"]
    assert [(choice["name"], choice["value"]) for choice in play["clock"]["choices"]] == [
        ("Fast: 8 s + 20 s per point", "clock=fast"),
        ("Normal: 10 s + 1 min per point", "clock=normal"),
    ]
    assert (play["length"]["min_value"], play["length"]["max_value"]) == (1, 25)
    assert [(choice["name"], choice["value"]) for choice in play["level"]["choices"]] == [
        ("Beginner", "beginner"),
        ("Intermediate", "intermediate"),
        ("Advanced", "advanced"),
        ("Expert", "expert"),
        ("World class", "world_class"),
    ]
    assert play["level"]["name_localizations"]["de"] == "stufe"
    (game,) = commands["hint"]["options"]  # a private chat names the match: /hint #12
    assert (game["name"], game["type"], game.get("required", False)) == ("game", 3, False)
    match, level = commands["analysis"]["options"]
    assert (match["name"], match["type"], match["min_value"]) == ("match", 4, 1)
    assert match["name_localizations"]["de"] == "match"  # "partie" is the game of /replay
    assert not match.get("required", False)
    assert (level["name"], level.get("required", False)) == ("level", False)
    assert [(choice["name"], choice["value"]) for choice in level["choices"]] == [
        ("Expert: quick", "expert"),
        ("World class: deeper", "world_class"),
    ]


async def test_a_whole_match_against_the_bot_then_its_analysis(bot: Bot) -> None:
    options = [
        {"name": "length", "type": 4, "value": 1},
        {"name": "level", "type": 3, "value": "expert"},
    ]
    offer = posts(await answered(bot, ANNA, "play", options))[0]
    assert content(offer).startswith("Anna challenges gammonbot (expert) to a 1-point match")
    assert list(buttons(offer)) == ["Start", "Cancel"]
    seed = hashlib.sha256(b"seed-0").hexdigest()  # the first of the fixed server seeds
    # Its commitment, in short, with the offer: /verify shows it whole.
    assert f"commitment {hashlib.sha256(bytes.fromhex(seed)).hexdigest()[:12]}…" in content(offer)
    assert await active_match(bot) is None
    click, calls = await start(bot, offer)
    assert content(boards(calls)[0]).startswith("Match 1: Anna vs gammonbot (expert), 1-point")
    loaded = await active_match(bot)
    assert loaded is not None  # the seeds are the click's, made after the offer was posted
    assert loaded.info.client_seeds == (f"discord:{click.id}", f"discord:bot:{click.id}")
    bot_turns = 0
    for _turn in range(200):
        loaded = await active_match(bot)
        if loaded is None:
            break
        # The bot has answered already: the match waits for Anna, in seat 0, and her board
        # (the last board of the answer) does not ping her: she has just played.
        assert loaded.state.turn == 0, loaded.state.phase
        board = boards(calls)[-1]
        assert "Anna to play " in content(board)
        assert not content(board).startswith("<@")
        assert list(buttons(board)) == []  # a 1-point match: nothing to double
        plays = await bot.suggestions(ANNA)
        assert plays
        calls = await answered(bot, ANNA, "move", [{"name": "play", "type": 3, "value": plays[0]}])
        shown = boards(calls)
        assert not any(call.method == "POST" and "/webhooks/" in call.path for call in calls)
        # The bot's turn is told in the caption of the board after it: one channel call.
        if any(BOT_NOTE.search(content(call)) for call in shown):
            bot_turns += 1
            assert len(shown) == 1, [content(call) for call in shown]
            assert not content(shown[0]).startswith("<@")  # the bot pings nobody
    else:
        raise AssertionError("the match did not end")
    assert bot_turns >= 2
    end = boards(calls)[-1]
    assert "Match over: " in content(end)
    assert "match-1-transcript.json holds the server seed and every roll." in content(end)
    assert seed.encode() in end.files["match-1-transcript.json"]  # the seed is revealed
    assert isinstance(end.json, dict)
    assert end.json["allowed_mentions"]["users"] == []  # Anna ended it: nobody to call
    assert any(name.endswith("transcript.json") for name in end.files)

    mark = len(bot.fake.calls)
    await bot.adapter.deliver(await bot.core.ports.analyst.work())
    analysis = await next_post(bot, mark, "Analysis of match 1")
    assert analysis.files["match-1-analysis.png"].startswith(b"\x89PNG")
    assert b"Anna" in analysis.files["match-1-analysis.txt"]
    assert "board.png" not in analysis.files


async def test_challenging_the_bots_own_member_offers_a_match_against_it(bot: Bot) -> None:
    options, resolved = gammonbot_option()
    options.append({"name": "length", "type": 4, "value": 1})
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "challenge", options, resolved=resolved)
    offer = await next_post(bot, mark, "challenges gammonbot")
    _click, calls = await start(bot, offer)
    assert content(boards(calls)[0]).startswith("Match 1: Anna vs gammonbot (expert), 1-point")
    loaded = await active_match(bot)
    assert loaded is not None
    assert loaded.info.bot_level == "expert"
    assert not any(
        "Bots cannot play" in content(call)
        for call in bot.fake.calls[mark:]
        if isinstance(call.json, dict)
    )


async def test_another_bot_is_still_refused(bot: Bot) -> None:
    other = 900000000000000099
    helper = user_payload(other, "helperbot", bot=True)
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(
        ANNA,
        "challenge",
        [{"name": "opponent", "type": 6, "value": str(other)}],
        resolved={"users": {str(other): helper}},
    )
    refusal = await bot.fake.wait_for(
        lambda call: call.path.startswith(f"/interactions/{sent.id}/"), after=mark
    )
    assert isinstance(refusal.json, dict)
    assert "Bots cannot play" in refusal.json["data"]["content"]
    assert await active_match(bot) is None


def mention_message(text: str, mentions: list[int]) -> dict[str, Any]:
    """Anna's channel message as the gateway sends it; Discord lists each mentioned user once."""
    users = {ANNA: user_payload(ANNA, "Anna"), BOT_ID: user_payload(BOT_ID, "gammonbot", True)}
    return {
        "id": str(1_300_000_000_000_000_777),
        "channel_id": str(CHANNEL_ID),
        "guild_id": str(GUILD_ID),
        "author": users[ANNA],
        "member": {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False},
        "content": text,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [users[user] for user in mentions],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
    }


async def test_the_text_fallback_challenges_the_bot_by_its_second_mention(bot: Bot) -> None:
    mark = len(bot.fake.calls)
    text = f"<@{BOT_ID}> challenge <@!{BOT_ID}> 1"
    await bot.fake.send_event("MESSAGE_CREATE", mention_message(text, [BOT_ID]))
    offer = await next_post(bot, mark, "challenges gammonbot")
    _click, calls = await start(bot, offer)
    assert content(boards(calls)[0]).startswith("Match 1: Anna vs gammonbot (expert), 1-point")
    loaded = await active_match(bot)
    assert loaded is not None
    assert loaded.info.bot_level == "expert"
    assert loaded.info.rules.length == 1


async def test_only_anna_starts_her_match_and_a_double_click_starts_it_once(bot: Bot) -> None:
    offer = posts(await answered(bot, ANNA, "play", [{"name": "length", "type": 4, "value": 1}]))[0]
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offer), buttons(offer)["Start"])
    await bot.next_private(mark, "someone else's")
    assert await active_match(bot) is None
    # Two clicks before the first is answered (the second while the button still shows).
    mark = len(bot.fake.calls)
    clicks = [
        await bot.fake.click(ANNA, bot.message_id(offer), buttons(offer)["Start"])
        for _click in range(2)
    ]
    await bot.next_private(mark, "This match has already started.")
    await next_post(bot, mark, "Anna to play ")
    loaded = await active_match(bot)
    assert loaded is not None
    assert loaded.info.id == 1
    seeds = {(f"discord:{click.id}", f"discord:bot:{click.id}") for click in clicks}
    assert loaded.info.client_seeds in seeds
    starts = [call for call in boards(bot.fake.calls[mark:]) if "Match 1: Anna vs" in content(call)]
    assert len(starts) == 1
