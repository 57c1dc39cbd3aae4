"""A whole round robin over Telegram (issue 39): six players, 1-point matches, opened by a
group administrator (``getChatMember``), registered with [Join] and /tournament join, each
pairing started with its [Start] and played with typed /roll and /move, and the bot restarted
mid-round (a new process on the same database, a match in play and pairings announced by the
old one), and again after a match's end was written but its new pairings not announced (the
new process's clock announces them): no pairing starts twice, everyone meets everyone once,
and the end is told with the table and the winner."""

from __future__ import annotations

import itertools
import random

from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Process
from tests.telegram_app.tournaments import (
    ANNOUNCED,
    DORA,
    EMIL,
    FAY,
    api_delivers_the_clock,
    end_told,
    nothing_announced,
    pairing_players,
    start_data,
    step,
    waiting,
)
from tests.tournament_runs import check_round_robin_end


async def test_six_players_play_a_round_robin_across_a_restart(bot: Process) -> None:
    telegram = bot.harness
    assert telegram is not None
    api = bot.api
    api.admins.add((GROUP, 11))
    refused = await telegram.say(BOB, GROUP, '/tournament new roundrobin 1 "Spring table"')
    assert "Only an administrator of the chat opens a tournament." in str(refused[-1].params)
    await telegram.say(ANNA, GROUP, '/tournament new roundrobin 1 "Spring table"')
    for person in (BOB, CARL, DORA):
        await telegram.press_label(person, GROUP, "Join")
    for person in (EMIL, FAY):
        await telegram.say(person, GROUP, "/tournament join")
    registration = api.in_chat(GROUP)[-1].data["text"]
    assert "Registered (6): Anna, Bob, Carl, Dora, Emil, Fay" in registration
    await telegram.say(ANNA, GROUP, "/tournament start")
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    assert chat is not None
    (tournament,) = await telegram.stores.tournaments.live_in_chat(chat.id)
    tournament_id = tournament.id

    rng = random.Random(39)
    played = 0
    restarted = False
    for _turn in itertools.count():
        unstarted = waiting(api)
        if not unstarted:
            break
        announcement = unstarted[0]
        players = pairing_players(announcement)
        start = start_data(announcement)
        stops_after_the_commit = played == 8
        if stops_after_the_commit:  # the ninth match's end is written, its news never posted
            starts = telegram.core.ports.services.tournaments.starts
            starts.announce = nothing_announced  # type: ignore[method-assign]
        await telegram.press(players[1], GROUP, announcement.data["message_id"], start)
        assert ANNOUNCED not in api.messages[(GROUP, announcement.data["message_id"])].data["text"]
        steps = 0
        while await step(telegram, players, rng):
            steps += 1
            if played == 4 and steps == 5:  # the fifth match in play: the process stops
                telegram = await bot.restart()
                restarted = True
                assert await api_delivers_the_clock(telegram) == 0  # nothing twice
                # The old process's [Start] of a started pairing: the new one refuses it.
                answered = await telegram.press(
                    players[0], GROUP, announcement.data["message_id"], start
                )
                assert "This match has already started." in str(answered[-1].params)
        played += 1
        assert played <= 15
        if stops_after_the_commit:
            announced = len(waiting(api))
            telegram = await bot.restart()
            swept = await api_delivers_the_clock(telegram)  # the pairings its end made
            assert swept == 2  # the two pairings that waited for this match's players
            assert len(waiting(api)) == announced + swept

    assert restarted
    assert played == 15  # C(6, 2): every pairing started once
    assert await telegram.stores.tournaments.live_in_chat(chat.id) == []
    await check_round_robin_end(telegram.stores, tournament_id, end_told(api, "Spring table"))
