"""A whole round robin over the fake Discord (issue 39): six players, 1-point matches, opened
with /tournament by a member who may *Manage Server*, each pairing's [Start] clicked and its
match played with /roll and /move, and the bot restarted mid-round (a new process on the same
database, a match in play and pairings announced by the old one), and again after a match's
end was written but its new pairings not announced (the new process's clock announces them):
the old process's buttons work in the new one, no pairing starts twice, everyone meets
everyone once, and the end is told with the table and the winner."""

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
    new_process,
    play,
    slash,
    start_oldest,
    step,
    tournament_options,
)
from tests.fakes.discord_server import CHANNEL_ID, MANAGE_GUILD
from tests.tournament_runs import check_round_robin_end, nothing_announced


async def test_six_players_play_a_round_robin_across_a_restart_over_discord(
    bot: Bot, migrated_url: str
) -> None:
    for user_id, name in list(MORE.items())[:3]:
        bot.fake.add_user(user_id, name)
    new = tournament_options("new", 'roundrobin 1 "Spring table"')
    opened = await slash(bot, ANNA, "tournament", new, permissions=MANAGE_GUILD)
    assert "Spring table: round robin" in opened
    (registration,) = [c for c in bot.fake.calls if is_channel_post(c) and "Join" in buttons(c)]
    for user_id in (BOB, CARL, *list(MORE)[:1]):
        await click(bot, user_id, registration, "Join")
    for user_id in list(MORE)[1:3]:
        await slash(bot, user_id, "tournament", tournament_options("join"))
    started = await slash(bot, ANNA, "tournament", tournament_options("start"))
    assert "Spring table has begun. Seeds: 1. Anna, 2. Bob, 3. Carl, 4. Dora" in started
    chat = await bot.stores.chats.find_chat("discord", str(CHANNEL_ID))
    assert chat is not None
    (tournament,) = await bot.stores.tournaments.live_in_chat(chat.id)

    rng = random.Random(39)
    done: list[int] = []
    restarted = False
    while started_now := await start_oldest(bot, done):
        announcement, players = started_now
        assert len(done) <= 15
        if len(done) == 5:  # the fifth match in play, pairings waiting: the process stops
            for _step in range(5):
                assert await step(bot, players, rng, channel_of(announcement))
            assert len(announcements(bot)) > len(done)
            await new_process(bot, migrated_url)
            restarted = True
            assert await bot.core.ports.clock.tick() == []  # nothing announced twice
            # A late click from a client that still shows the (since removed) [Start].
            assert isinstance(announcement.json, dict)
            shown = bot.fake.messages[bot.message_id(announcement)]
            shown["components"] = announcement.json["components"]
            again = await click(bot, players[0], announcement, "Start")
            assert "This match has already started." in again
        stops_after_the_commit = len(done) == 9
        if stops_after_the_commit:  # the ninth match's end is written, its news never posted
            starts = bot.core.ports.services.tournaments.starts
            starts.announce = nothing_announced  # type: ignore[method-assign]
        await play(bot, players, rng, channel_of(announcement))
        if stops_after_the_commit:
            announced = len(announcements(bot))
            await new_process(bot, migrated_url)
            swept = await bot.core.ports.clock.tick()  # the pairings its end made
            await bot.adapter.deliver(swept)
            assert len([message for message in swept if message.buttons]) == 2
            assert len(announcements(bot)) == announced + 2  # posted, with their [Start]

    assert restarted
    assert len(done) == 15  # C(6, 2): every pairing announced once, and started once
    assert len(set(done)) == 15
    assert len(announcements(bot)) == 15
    assert in_threads(bot)
    assert await bot.stores.tournaments.live_in_chat(chat.id) == []
    await check_round_robin_end(bot.stores, tournament.id, end_told(bot, "Spring table"))
