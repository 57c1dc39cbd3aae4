"""A whole tournament through the console (issue 39): eight players, single elimination with
a consolation, opened by an administrator named with ``admins=``, registered with [Join] and
/tournament join, started, each pairing started with its [Start] and its 1-point match played
with typed /roll and /move lines, down to the final's winner and the consolation's final."""

from __future__ import annotations

from tests.bot.console_tournaments import ConsolePlayers, end_told
from tests.bot.scripted import Room
from tests.tournament_runs import KNOCKOUT_SLOTS, check_knockout_end

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay", "gus", "hal")


async def test_eight_players_play_a_knockout_with_consolation_through_the_console(
    room: Room,
) -> None:
    players = ConsolePlayers(room.core, PLAYERS, session="cup-", seed=39)
    refused = await players.line('bob: /tournament new single consolation 1 "Cup"')
    assert "Only an administrator of the chat opens a tournament." in refused
    running = await players.open('single consolation 1 "Cup"')
    output = players.output.getvalue()
    assert "Cup: single elimination" in output
    assert "Registered (8): ann, bob, cy, dee, eve, fay, gus, hal" in output
    assert "Cup has begun. Seeds: 1. ann, 2. bob" in output

    for _match in range(len(KNOCKOUT_SLOTS) + 1):
        waiting = players.unstarted()
        if not waiting:
            break
        await players.start(waiting[0])
        await players.play(waiting[0])
    text = players.output.getvalue()
    # every pairing announced once, and started once
    assert len(set(players.started)) == len(players.started) == len(KNOCKOUT_SLOTS)

    assert await room.stores.tournaments.live_in_chat(running.chat_id) == []
    await check_knockout_end(room.stores, running.id, end_told(text, "Cup"))
    finished = await room.stores.tournaments.get(running.id)
    winner = await room.stores.users.get_user(finished.winner_id or 0)
    after = await players.line("bob: /tournament")  # afterwards: its outcome, as the end told it
    assert f"Winner: {winner.display_name}" in after
