"""A whole knockout over Telegram (issue 39): eight players, single elimination with a
consolation, 1-point matches, opened by a group administrator, registered with [Join] and
/tournament join, each pairing started with its [Start] and played with typed /roll and
/move, and the bot restarted mid-round (a new process on the same database, a quarterfinal
in play and pairings announced by the old one), and again after the last quarterfinal's end
was written but its semifinal and consolation pairings not announced (the new process's clock
announces them): no pairing starts twice, every match counts once, and the end is told with
the final's winner and the consolation's final."""

from __future__ import annotations

import itertools
import random

from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Process
from tests.telegram_app.tournaments import (
    ANNOUNCED,
    DORA,
    EMIL,
    FAY,
    GUS,
    HAL,
    api_delivers_the_clock,
    end_told,
    nothing_announced,
    pairing_players,
    start_data,
    step,
    waiting,
)
from tests.tournament_runs import check_knockout_end


async def test_eight_players_play_a_knockout_with_consolation_across_restarts(
    bot: Process,
) -> None:
    telegram = bot.harness
    assert telegram is not None
    api = bot.api
    api.admins.add((GROUP, 11))
    await telegram.say(ANNA, GROUP, '/tournament new single consolation 1 "Cup"')
    for person in (BOB, CARL, DORA, EMIL):
        await telegram.press_label(person, GROUP, "Join")
    for person in (FAY, GUS, HAL):
        await telegram.say(person, GROUP, "/tournament join")
    registration = api.in_chat(GROUP)[-1].data["text"]
    assert "Registered (8): Anna, Bob, Carl, Dora, Emil, Fay, Gus, Hal" in registration
    await telegram.say(ANNA, GROUP, "/tournament start")
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    assert chat is not None
    (tournament,) = await telegram.stores.tournaments.live_in_chat(chat.id)
    assert len(waiting(api)) == 4  # the quarterfinals

    rng = random.Random(39)
    played = 0
    restarted = False
    for _match in itertools.count():
        unstarted = waiting(api)
        if not unstarted:
            break
        announcement = unstarted[0]
        players = pairing_players(announcement)
        start = start_data(announcement)
        text = announcement.data["text"]  # the start replaces it
        stops_after_the_commit = played == 3
        if stops_after_the_commit:  # the last quarterfinal's end is written, never its news
            assert "Cup, quarterfinal 4: " in text
            starts = telegram.core.ports.services.tournaments.starts
            starts.announce = nothing_announced  # type: ignore[method-assign]
        await telegram.press(players[1], GROUP, announcement.data["message_id"], start)
        assert ANNOUNCED not in api.messages[(GROUP, announcement.data["message_id"])].data["text"]
        steps = 0
        while await step(telegram, players, rng):
            steps += 1
            if played == 2 and steps == 5:  # the third quarterfinal in play: the process stops
                assert "Cup, quarterfinal 3: " in text
                assert len(unstarted) == 4  # quarterfinal 4, a semifinal, a consolation
                telegram = await bot.restart()
                restarted = True
                assert await api_delivers_the_clock(telegram) == 0  # nothing twice
                # The old process's [Start] of a started pairing: the new one refuses it.
                answered = await telegram.press(
                    players[0], GROUP, announcement.data["message_id"], start
                )
                assert "This match has already started." in str(answered[-1].params)
        played += 1
        assert played <= 10
        if stops_after_the_commit:
            announced = len(waiting(api))
            telegram = await bot.restart()
            swept = await api_delivers_the_clock(telegram)  # the pairings its end made
            assert swept == 2  # semifinal 2 and the consolation's second first-round match
            assert len(waiting(api)) == announced + swept

    assert restarted
    assert played == 10  # 7 in the main bracket, 3 in the consolation: each started once
    assert await telegram.stores.tournaments.live_in_chat(chat.id) == []
    end = end_told(api, "Cup")
    await check_knockout_end(telegram.stores, tournament.id, end)
    champion = end.split("\nthe final: ")[1].split(" beat ")[0]
    assert end.endswith(f"Winner: {champion}")
