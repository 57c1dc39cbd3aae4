"""A whole round robin through the console (issue 39): six players, 1-point matches, the
pairings of each round started with their [Start] and played with typed /roll and /move, and
the console restarted mid-round (a new process, core and console, on the same database, with
matches in play): everyone meets everyone once, no pairing starts twice, and the end is told
with the table and the winner.

The console keeps the buttons it printed in its memory only, so a restarted console cannot
press an announcement the old one printed: the restart comes while every announced pairing
has started (the new process announces those that follow)."""

from __future__ import annotations

import io

from bot.console_app.chat import PLATFORM, ConsoleChat
from bot.core.service import Core
from storage import Database
from tests.bot.console_tournaments import ConsolePlayers, announced, end_told
from tests.bot.scripted import Room
from tests.seeds import fixed_seeds
from tests.tournament_runs import check_round_robin_end

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay")


async def test_six_players_play_a_round_robin_across_a_restart_through_the_console(
    room: Room, migrated_url: str
) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output, session="table-", admins=["ann"])
    await chat.line('ann: /tournament new roundrobin 1 "Spring table"')
    for name in PLAYERS[1:3]:
        await chat.line(f"{name}: [Join]")
    for name in PLAYERS[3:]:
        await chat.line(f"{name}: /tournament join")
    assert "Registered (6): ann, bob, cy, dee, eve, fay" in output.getvalue()
    await chat.line("ann: /tournament start")
    assert "Spring table has begun." in output.getvalue()
    where = await room.stores.chats.upsert_chat(PLATFORM, "main")
    (running,) = await room.stores.tournaments.live_in_chat(where.id)

    players = ConsolePlayers(room.core, chat, seed=39)
    restarted: Database | None = None
    started: list[tuple[str, str]] = []
    try:
        for _batch in range(16):
            waiting = [pair for pair in announced(output.getvalue()) if pair not in started]
            if not waiting:
                break
            for pair in waiting:  # a round's pairings have no player in common
                before = len(output.getvalue())
                await chat.line(f"{pair[1]}: [Start]")
                assert ", match " in output.getvalue()[before:]
                started.append(pair)
            for number, pair in enumerate(waiting):
                if restarted is None and len(started) >= 6 and number == 0:
                    for _step in range(5):  # mid-match, the round's other matches started
                        assert await players.step(pair)
                    restarted = Database(migrated_url)
                    core = Core(restarted, render_images=False, server_seeds=fixed_seeds())
                    chat = ConsoleChat(core, output, session="again-", admins=["ann"])
                    players.restarted(core, chat)
                    assert await core.ports.clock.tick() == []  # nothing to announce again
                    before = len(output.getvalue())
                    await chat.line(f"{pair[0]}: [Start]")  # the old console's button
                    assert "? no [Start] button here" in output.getvalue()[before:]
                await players.play(pair)
        text = output.getvalue()
        assert restarted is not None
        assert len(started) == 15  # C(6, 2): every pairing announced once, and started once
        assert len(set(map(frozenset, started))) == 15
        stores = players.core.ports.repositories
        assert await stores.tournaments.live_in_chat(where.id) == []
        await check_round_robin_end(stores, running.id, end_told(text, "Spring table"))
    finally:
        if restarted is not None:
            await restarted.close()
