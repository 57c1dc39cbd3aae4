"""A whole knockout over Telegram (issue 39): eight players, single elimination with a
consolation, 1-point matches, in a forum group: opened by a group administrator in General,
registered with [Join] and /tournament join, each pairing announced in a forum topic of its
own (a line in General leads there), started there with its [Start] and played there with
typed /roll and /move, what each match's end makes known told in General, and the bot
restarted mid-round (a new process on the same database, a quarterfinal in play and pairings
announced by the old one), and again after the last quarterfinal's end was written but its
semifinal and consolation pairings not announced (the new process's clock opens their topics
and announces them): no pairing starts twice, every match counts once, and the end is told with
the final's winner and the consolation's final."""

from __future__ import annotations

import random

from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Process
from tests.telegram_app.tournaments import (
    DORA,
    EMIL,
    FAY,
    GUS,
    HAL,
    check_played_in_topics,
    end_told,
    open_tournament,
    play_through,
    topic_of,
    waiting,
)
from tests.tournament_runs import check_knockout_end


async def test_eight_players_play_a_knockout_with_consolation_across_restarts(
    bot: Process,
) -> None:
    telegram = bot.harness
    assert telegram is not None
    api = bot.api
    api.forums.add(GROUP)
    people = (ANNA, BOB, CARL, DORA, EMIL, FAY, GUS, HAL)
    tournament, registration = await open_tournament(telegram, 'single consolation 1 "Cup"', people)
    assert "Registered (8): Anna, Bob, Carl, Dora, Emil, Fay, Gus, Hal" in registration
    assert len(waiting(api)) == 4  # the quarterfinals
    assert all(topic_of(announcement) is not None for announcement in waiting(api))

    played = await play_through(bot, random.Random(39), restart_in=2, stop_after=3, most=10)
    assert "Cup, quarterfinal 3: " in played.started[2]  # in play at the first restart
    assert played.waiting_at_the_restart == 3  # quarterfinal 4, a semifinal, a consolation
    assert "Cup, quarterfinal 4: " in played.started[3]  # its end's news lost
    assert played.swept == 2  # semifinal 2 and the consolation's second first-round match
    assert len(played.started) == 10  # 7 in the main bracket, 3 in the consolation
    telegram = bot.harness
    assert telegram is not None
    assert await telegram.stores.tournaments.live_in_chat(tournament.chat_id) == []
    end = end_told(api, "Cup")
    await check_knockout_end(telegram.stores, tournament.id, end)
    champion = end.split("\nthe final: ")[1].split(" beat ")[0]
    assert end.endswith(f"Winner: {champion}")
    check_played_in_topics(api, played, "Cup")
