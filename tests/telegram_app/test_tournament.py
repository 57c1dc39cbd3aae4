"""A whole round robin over Telegram (issue 39): six players, 1-point matches, opened by a
group administrator (``getChatMember``), registered with [Join] and /tournament join, each
pairing started with its [Start] and played with typed /roll and /move, and the bot restarted
mid-round (a new process on the same database, a match in play and pairings announced by the
old one), and again after a match's end was written but its new pairings not announced (the
new process's clock announces them): no pairing starts twice, everyone meets everyone once,
and the end is told with the table and the winner. In an ordinary group every pairing is
announced and played in the group itself; in a forum group in a topic of its own."""

from __future__ import annotations

import random

import pytest

from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Process
from tests.telegram_app.tournaments import (
    DORA,
    EMIL,
    FAY,
    check_played_in_topics,
    end_told,
    open_tournament,
    play_through,
)
from tests.tournament_runs import check_round_robin_end


@pytest.mark.parametrize("forum", [False, True], ids=["group", "forum"])
async def test_six_players_play_a_round_robin_across_a_restart(bot: Process, forum: bool) -> None:
    telegram = bot.harness
    assert telegram is not None
    api = bot.api
    if forum:
        api.forums.add(GROUP)
    refused = await telegram.say(BOB, GROUP, '/tournament new roundrobin 1 "Spring table"')
    assert "Only an administrator of the chat opens a tournament." in str(refused[-1].params)
    people = (ANNA, BOB, CARL, DORA, EMIL, FAY)
    tournament, registration = await open_tournament(
        telegram, 'roundrobin 1 "Spring table"', people
    )
    assert "Registered (6): Anna, Bob, Carl, Dora, Emil, Fay" in registration

    played = await play_through(bot, random.Random(39), restart_in=4, stop_after=8, most=15)
    assert played.waiting_at_the_restart > 0
    assert played.swept == 2  # the two pairings that waited for the ninth match's players
    assert len(played.started) == 15  # C(6, 2): every pairing started once
    telegram = bot.harness
    assert telegram is not None
    assert await telegram.stores.tournaments.live_in_chat(tournament.chat_id) == []
    await check_round_robin_end(telegram.stores, tournament.id, end_told(api, "Spring table"))
    if forum:
        check_played_in_topics(api, played, "Spring table")
    else:
        assert set(played.topics) == {None}  # no topic: every pairing in the group itself
        assert api.topics == {}
