"""A whole tournament through the console (issue 39): eight players, single elimination with
a consolation, opened by an administrator named with ``admins=``, registered with [Join] and
/tournament join, started, each pairing started with its [Start] and its 1-point match played
with typed /roll and /move lines, down to the final's winner and the consolation's final."""

from __future__ import annotations

import io

from bot.console_app.chat import PLATFORM, ConsoleChat
from tests.bot.console_tournaments import ConsolePlayers, announced, end_told
from tests.bot.scripted import Room
from tests.tournament_runs import KNOCKOUT_SLOTS, check_knockout_end

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")


async def test_eight_players_play_a_knockout_with_consolation_through_the_console(
    room: Room,
) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output, session="cup-", admins=["ann"])
    await chat.line('bob: /tournament new single consolation 1 "Cup"')
    assert "Only an administrator of the chat opens a tournament." in output.getvalue()
    await chat.line('ann: /tournament new single consolation 1 "Cup"')
    assert "Cup: single elimination" in output.getvalue()
    for name in PLAYERS[1:4]:
        await chat.line(f"{name}: [Join]")
    for name in PLAYERS[4:]:
        await chat.line(f"{name}: /tournament join")
    assert "Registered (8): ann, bob, cy, dee, eve, fay, gus, hal" in output.getvalue()
    await chat.line("ann: /tournament start")
    assert "Cup has begun. Seeds: 1. ann, 2. bob" in output.getvalue()
    where = await room.stores.chats.upsert_chat(PLATFORM, "main")
    (running,) = await room.stores.tournaments.live_in_chat(where.id)

    players = ConsolePlayers(room.core, chat, seed=39)
    started: list[tuple[str, str]] = []
    for _round in range(10):
        waiting = [pair for pair in announced(output.getvalue()) if pair not in started]
        if not waiting:
            break
        for pair in waiting:
            before = len(output.getvalue())
            await chat.line(f"{pair[1]}: [Start]")
            assert "match" in output.getvalue()[before:]
            assert "Only the two players" not in output.getvalue()[before:]
            started.append(pair)
            await players.play(pair)
    text = output.getvalue()
    assert len(started) == len(KNOCKOUT_SLOTS)  # every pairing announced once, and started once
    assert len(set(started)) == len(started)

    assert await room.stores.tournaments.live_in_chat(where.id) == []
    end = end_told(text, "Cup")
    await check_knockout_end(room.stores, running.id, end)
    finished = await room.stores.tournaments.get(running.id)
    winner = await room.stores.users.get_user(finished.winner_id or 0)
    await chat.line("bob: /tournament")  # afterwards: its outcome, as the end told it
    assert f"Winner: {winner.display_name}" in output.getvalue()[len(text) :]
