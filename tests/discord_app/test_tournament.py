"""A whole tournament over the fake Discord (issue 39): eight players, single elimination with
a consolation, 1-point matches. /tournament as slash commands (opening it needs *Manage
Server*), [Join] and each pairing's [Start] as button clicks, /roll and /move as slash
commands, down to the final's winner, the consolation's final and the end told in the
channel."""

from __future__ import annotations

import random

from tests.discord_app.conftest import ANNA, BOB, CARL, Bot, buttons
from tests.discord_app.conftest import is_post as is_channel_post
from tests.discord_app.tournaments import (
    MORE,
    announcements,
    channel_of,
    click,
    end_told,
    in_threads,
    play,
    slash,
    start_oldest,
    tournament_options,
)
from tests.fakes.discord_server import CHANNEL_ID, MANAGE_GUILD
from tests.tournament_runs import KNOCKOUT_SLOTS as SLOTS
from tests.tournament_runs import check_knockout_end


async def test_eight_players_play_a_knockout_with_consolation_over_discord(bot: Bot) -> None:
    for user_id, name in MORE.items():
        bot.fake.add_user(user_id, name)
    new = tournament_options("new", 'single consolation 1 "Cup"')
    refused = await slash(bot, BOB, "tournament", new)
    assert "Only an administrator of the chat opens a tournament." in refused
    opened = await slash(bot, ANNA, "tournament", new, permissions=MANAGE_GUILD)
    assert "Cup: single elimination, consolation to 1" in opened
    (registration,) = [c for c in bot.fake.calls if is_channel_post(c) and "Join" in buttons(c)]
    for user_id in (BOB, CARL, *list(MORE)[:2]):
        await click(bot, user_id, registration, "Join")
    for user_id in list(MORE)[2:]:
        await slash(bot, user_id, "tournament", tournament_options("join"))
    shown = await slash(bot, CARL, "tournament")
    assert "Registered (8): Anna, Bob, Carl, Dora, Emil, Fay, Gus, Hal" in shown
    started = await slash(bot, ANNA, "tournament", tournament_options("start"))
    assert "Cup has begun. Seeds: 1. Anna, 2. Bob, 3. Carl, 4. Dora" in started

    rng = random.Random(39)
    done: list[int] = []
    while started_now := await start_oldest(bot, done):
        await play(bot, started_now[1], rng, channel_of(started_now[0]))
        assert len(done) <= len(SLOTS)
    assert len(set(done)) == len(done) == len(SLOTS)
    assert len(announcements(bot)) == len(SLOTS)
    assert in_threads(bot)  # every match in a thread of its own

    chat = await bot.stores.chats.find_chat("discord", str(CHANNEL_ID))
    assert chat is not None
    assert await bot.stores.tournaments.live_in_chat(chat.id) == []
    tournament = await bot.stores.tournaments.latest_in_chat(chat.id)
    assert tournament is not None
    end = end_told(bot, "Cup")
    champion = end.split("\nthe final: ")[1].split(" beat ")[0]
    assert end.endswith(f"Winner: {champion}")
    await check_knockout_end(bot.stores, tournament.id, end)
