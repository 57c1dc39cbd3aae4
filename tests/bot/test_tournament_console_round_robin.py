"""A whole round robin through the console (issue 39): six players, 1-point matches, each
pairing started with its [Start] and played with typed /roll and /move, and the console
restarted mid-round (a new process, core and console, on the same database, a match in play
and pairings announced by the old one): everyone meets everyone once, no pairing starts
twice, and the end is told with the table and the winner.

The console keeps the buttons it printed in its memory only: the restarted one does not know
the old announcements' [Start], and /tournament offers them again."""

from __future__ import annotations

from bot.core.service import Core
from storage import Database
from tests.bot.console_tournaments import ConsolePlayers, end_told
from tests.bot.scripted import Room
from tests.seeds import fixed_seeds
from tests.tournament_runs import check_round_robin_end

PLAYERS = ("ann", "bob", "cy", "dee", "eve", "fay")


async def test_six_players_play_a_round_robin_across_a_restart_through_the_console(
    room: Room, migrated_url: str
) -> None:
    players = ConsolePlayers(room.core, PLAYERS, session="table-", seed=39)
    running = await players.open('roundrobin 1 "Spring table"')
    output = players.output.getvalue()
    assert "Registered (6): ann, bob, cy, dee, eve, fay" in output
    assert "Spring table has begun." in output

    restarted: Database | None = None
    announced_before: list[tuple[str, str]] = []
    try:
        for _match in range(16):
            waiting = players.unstarted()
            if not waiting:
                break
            pair = waiting[0]
            if pair in announced_before:  # the old process's announcement
                await players.start(pair, f"[Start: {pair[0]} – {pair[1]}]")
            else:
                await players.start(pair)
            if len(players.started) == 5:  # the fifth match in play: the process stops
                for _step in range(5):
                    assert await players.step(pair)
                announced_before = players.unstarted()
                assert announced_before  # waiting for their [Start]
                restarted = Database(migrated_url)
                core = Core(restarted, render_images=False, server_seeds=fixed_seeds())
                players.restarted(core, session="again-")
                assert await core.ports.clock.tick() == []  # nothing announced twice
                unknown = await players.line(f"{announced_before[0][1]}: [Start]")
                assert unknown == "? no [Start] button here\n"
                shown = await players.line("bob: /tournament")
                for first, second in announced_before:
                    assert f"[Start: {first} – {second}]" in shown
                assert f"[Start: {pair[0]} – {pair[1]}]" not in shown  # in play
            await players.play(pair)
        assert restarted is not None
        # C(6, 2): every pairing announced once, and started once
        assert len(set(map(frozenset, players.started))) == len(players.started) == 15
        stores = players.core.ports.repositories
        assert await stores.tournaments.live_in_chat(running.chat_id) == []
        text = players.output.getvalue()
        await check_round_robin_end(stores, running.id, end_told(text, "Spring table"))
    finally:
        if restarted is not None:
            await restarted.close()
