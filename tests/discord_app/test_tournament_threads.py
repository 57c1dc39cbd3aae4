"""A tournament's pairings in threads on Discord: each announced in a public thread the bot
starts in the tournament's channel (named after the pairing), with a line in the channel that
links to it; [Start] and the match there; what a match's end makes known told in the channel;
a [Start] pressed in another pairing's thread refused; the channel itself when the bot may not
start threads."""

from __future__ import annotations

import random
from datetime import timedelta

from tests.discord_app.conftest import ANNA, BOB, CARL, Bot, content
from tests.discord_app.conftest import is_post as is_channel_post
from tests.discord_app.tournaments import (
    MORE,
    announcements,
    answered,
    channel_of,
    click,
    pairing_players,
    play,
    slash,
    tournament_options,
)
from tests.fakes.discord_server import CHANNEL_ID, GUILD_ID, MANAGE_GUILD, PUBLIC_THREAD, Call

DORA = next(iter(MORE))


async def _open_four(bot: Bot, settings: str = '1 "Cup"') -> str:
    """Anna opens a 1-point knockout of four and starts it (two semifinals): what the
    opening said."""
    bot.fake.add_user(DORA, MORE[DORA])
    new = tournament_options("new", settings)
    opened = await slash(bot, ANNA, "tournament", new, permissions=MANAGE_GUILD)
    for user_id in (BOB, CARL, DORA):
        await slash(bot, user_id, "tournament", tournament_options("join"))
    await slash(bot, ANNA, "tournament", tournament_options("start"))
    return opened


def started_threads(bot: Bot, after: int = 0) -> list[Call]:
    return [
        call
        for call in bot.fake.calls[after:]
        if call.method == "POST" and call.path == f"/channels/{CHANNEL_ID}/threads"
    ]


def channel_lines(bot: Bot, after: int = 0) -> str:
    return "\n".join(content(call) for call in bot.fake.calls[after:] if is_channel_post(call))


async def test_pairings_play_in_threads_and_their_news_go_to_the_channel(bot: Bot) -> None:
    await _open_four(bot)
    opened = started_threads(bot)
    assert [call.json for call in opened] == [
        {
            "name": "semifinal 1 · Anna – Dora",
            "auto_archive_duration": 10080,
            "type": PUBLIC_THREAD,
            "invitable": True,
            "rate_limit_per_user": None,
        },
        {
            "name": "semifinal 2 · Bob – Carl",
            "auto_archive_duration": 10080,
            "type": PUBLIC_THREAD,
            "invitable": True,
            "rate_limit_per_user": None,
        },
    ]
    first, second = announcements(bot)
    threads = sorted(bot.fake.threads)
    assert [channel_of(first), channel_of(second)] == threads
    lines = channel_lines(bot)
    link = f"https://discord.com/channels/{GUILD_ID}/"
    assert f"Cup, semifinal 1: Anna vs Dora play in their thread: {link}{threads[0]}" in lines
    assert f"Cup, semifinal 2: Bob vs Carl play in their thread: {link}{threads[1]}" in lines

    # The second semifinal's [Start] on a message in the first one's thread (a client that
    # shows it there): refused.
    assert isinstance(second.json, dict)
    shown = bot.fake.messages[bot.message_id(first)]
    kept = shown["components"]
    shown["components"] = second.json["components"]
    custom_id = second.json["components"][0]["components"][0]["custom_id"]
    mark = len(bot.fake.calls)
    sent = await bot.fake.click(CARL, bot.message_id(first), custom_id)
    refused = await answered(bot, mark, sent.id)
    assert "This pairing's match starts where it was announced, not in this chat." in refused
    shown["components"] = kept

    # /tournament in a pairing's thread shows the tournament it belongs to; /tournament join
    # there is sent to the channel (the tournament belongs to it).
    shown_in_thread = await slash(bot, BOB, "tournament", channel=threads[0])
    assert "Cup: single elimination" in shown_in_thread
    assert "semifinal 1" in shown_in_thread
    joined = await slash(bot, BOB, "tournament", tournament_options("join"), channel=threads[0])
    assert "Cup is run from the chat it was opened in, not from a pairing's thread" in joined

    players = pairing_players(first)
    begun = await click(bot, players[1], first, "Start")
    assert "Cup, semifinal 1, match " in begun
    chat = await bot.stores.chats.find_chat("discord", str(threads[0]))
    starter = await bot.stores.users.find_user("discord", str(players[1]))
    assert chat is not None
    assert starter is not None
    assert await bot.stores.matches.active_match_for(chat.id, starter.id) is not None
    rng = random.Random(39)
    mark = len(bot.fake.calls)
    await play(bot, players, rng, threads[0])
    assert not any(is_channel_post(call) for call in bot.fake.calls[mark:])  # all in the thread

    players = pairing_players(second)
    await click(bot, players[1], second, "Start")
    mark = len(bot.fake.calls)
    await play(bot, players, rng, threads[1])
    (final,) = started_threads(bot, mark)
    assert str((final.json or {})["name"]).startswith("the final · ")
    final_thread = max(bot.fake.threads)
    assert channel_of(announcements(bot)[-1]) == final_thread
    assert f"{link}{final_thread}" in channel_lines(bot, mark)  # told in the channel


async def test_without_permission_to_start_threads_pairings_are_in_the_channel(bot: Bot) -> None:
    bot.fake.no_threads.add(CHANNEL_ID)
    await _open_four(bot)
    assert len(started_threads(bot)) == 2  # asked, refused (403)
    assert [channel_of(call) for call in announcements(bot)] == [CHANNEL_ID, CHANNEL_ID]
    assert "play in their thread" not in channel_lines(bot)


async def test_threads_off_keeps_the_pairings_in_the_channel(bot: Bot) -> None:
    opened = await _open_four(bot, '1 threads=off "Cup"')
    assert "Cup: single elimination, matches in this chat, not in threads" in opened
    assert started_threads(bot) == []
    assert [channel_of(call) for call in announcements(bot)] == [CHANNEL_ID, CHANNEL_ID]


async def test_a_deadline_passed_in_a_thread_is_claimed_in_that_thread(bot: Bot) -> None:
    await _open_four(bot, '1 days=1 "Cup"')
    first, _second = announcements(bot)
    players = pairing_players(first)
    await click(bot, players[1], first, "Start")  # semifinal 1 under way, 2 never started
    later = bot.core.clock() + timedelta(days=2)
    bot.core.clock = lambda: later
    told = await bot.core.ports.clock.tick()
    claims = [message for message in told if message.buttons]
    (claim,) = claims
    assert [button.label for button in claim.buttons] == ["Claim win"]
    assert claim.chat.chat_id == str(channel_of(first))  # where the match is
    (undecided,) = [message for message in told if "did not start their match" in message.text]
    assert undecided.chat.chat_id == str(CHANNEL_ID)  # the organiser decides in the channel
