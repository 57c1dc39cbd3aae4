"""Four ``gammonbot run`` processes on one PostgreSQL database behind one Telegram webhook,
200 matches played through them at once, one process SIGKILLed in the middle and restarted.

Telegram (the fake Bot API and the webhook calls) and 400 people are played by the test:
updates go to the four processes round-robin, a call that fails goes to the next process, and
each person acts once the bot has handled the step before. Some matches are left waiting and
their deadlines moved into the past or near (time passing), so the clocks of all processes,
ticking every half second, find the same reminders due.

Afterwards: every acknowledged update handled, every acknowledged action in its match's log
exactly once, every log replaying to its snapshot, no two active copies of a match, every
reminder posted once, the updates the killed process left behind taken over by the others,
no traceback in any log, and every process stopping cleanly on SIGTERM.

Time passes for the killed process's claims too: once it is dead, the updates it stored and
left unhandled are made ``STALE_S`` older, so the others take them over at their next sweep
instead of ``STALE_S`` later (the run's longest wait, 14 of its 35 s, when it was waited out);
the claims of the live processes keep their real age, and none of them may be taken over.
"""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg

from tests.storage.postgres import PostgresServer
from tests.system.cluster import tracebacks
from tests.system.inbox_watch import libpq_url
from tests.system.invariants import check_inbox, check_matches, read, reminders_posted
from tests.system.players import Plan, Table
from tests.system.rig import Rig, rig, until

PROCESSES = 4
KILLED = 1
# An update stays unhandled this long before another process takes it over: well above the
# 3.5 s the longest handling took here with the machine 4 times oversubscribed (the first
# challenges, while the processes warm up); a live process's update taken over fails the test.
# 8 s was not enough while the rest of the suite ran on the other worker on a slow 2-core
# machine (2026-12-02: live processes' first updates, 19 to 32, were taken over).
STALE_S = 20.0
SETTINGS = {
    "TELEGRAM_WEBHOOK_STALE_SECONDS": str(STALE_S),
    "TELEGRAM_WEBHOOK_SWEEP_SECONDS": "0.5",
    "CLOCK_SECONDS": "0.5",
}
MOVING = Plan(actions=1)  # a move (the opening roll is automatic)
ROLLING = Plan(actions=2)  # a move, then [Roll] pressed
WAITING = Plan(actions=1, options="time=24h")  # then left alone until reminded
RESIGNING = Plan(actions=1, length=1, resign=True)  # a 1-point match, resigned: over
WAITERS = 20
ROLLERS = 20
RESIGNERS = 4
TABLES = 200
IN_FLIGHT = 12  # updates being handled at once: each in a process for well under STALE_S
TIMEOUT_S = 90.0
_TAKEN_OVER = re.compile(r"taking over telegram update (\d+)")


def tables() -> list[Table]:
    plans = [WAITING] * WAITERS + [RESIGNING] * RESIGNERS + [ROLLING] * ROLLERS
    plans += [MOVING] * (TABLES - len(plans))
    return [Table(number, plan) for number, plan in enumerate(plans)]


async def test_four_processes_one_killed_and_restarted_lose_and_repeat_nothing(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    played = tables()
    with postgres.schema() as url:
        async with rig(url, PROCESSES, tmp_path, SETTINGS, IN_FLIGHT) as bots:
            left_behind = await _play_with_a_kill(bots, url, played)
            await _wait_all_handled(bots)
            codes = await bots.cluster.stop_all()
        assert codes == [0] * PROCESSES, f"exit codes on SIGTERM: {codes}"
        await check_inbox(url, bots.webhooks)
        await check_matches(url, played)
    posted = reminders_posted(bots.api, played)
    assert [posted[t.number] for t in played if t.plan is WAITING] == [1] * WAITERS
    assert not any(posted[t.number] for t in played if t.plan is not WAITING)
    logs = [process.log_text() for process in bots.cluster.processes]
    _check_take_overs(bots, logs, left_behind)
    found = [trace for log in logs for trace in tracebacks(log)]
    assert not found, "tracebacks in the logs:\n" + "\n\n".join(found[:3])


def _check_take_overs(bots: Rig, logs: list[str], left_behind: set[int]) -> None:
    """What the killed process left was taken over, and nothing a live process had."""
    taken = {int(n) for log in logs for n in _TAKEN_OVER.findall(log)}
    assert left_behind, "the process was killed with no update in hand"
    assert left_behind <= taken, "updates the killed process left were not taken over"
    touched = {u for u, tried in bots.webhooks.attempts.items() if KILLED in tried}
    assert taken <= touched, "an update no call gave the killed process was taken over"


async def _play_with_a_kill(bots: Rig, url: str, played: list[Table]) -> set[int]:
    """Play every table; the waiting ones, in a lane of their own, first reach their
    reminders; then kill a process while it has updates in hand, and restart it. The updates
    it had acknowledged and not handled when it died."""
    waiting = [table for table in played if table.plan is WAITING]
    others = [table for table in played if table.plan is not WAITING]
    lane = bots.driver.lane(WAITERS)
    playing = asyncio.gather(*map(lane.play, waiting), *map(bots.driver.play, others))
    try:
        await until(lambda: all(t.parked for t in waiting) or playing.done(), TIMEOUT_S, "park")
        await _make_reminders_due(url, waiting)
        await until(lambda: min(_posted(bots, waiting)) > 0, TIMEOUT_S, "reminders posted")
        planned = sum(2 + t.plan.actions + 3 * t.plan.resign for t in played)
        third = planned // 3
        await until(lambda: bots.driver.handled >= third or playing.done(), TIMEOUT_S, "a third")
        assert not bots.webhooks.failures, f"calls failed before the kill: {bots.webhooks.failures}"
        left_behind = await _kill_with_updates_in_hand(bots, url, playing)
        mark = bots.driver.handled
        await until(lambda: bots.driver.handled >= mark + 30 or playing.done(), TIMEOUT_S, "on")
        await bots.restart(KILLED)
        await asyncio.wait_for(playing, TIMEOUT_S)
    finally:
        playing.cancel()
    return left_behind


async def _kill_with_updates_in_hand(
    bots: Rig, url: str, playing: asyncio.Future[list[None]]
) -> set[int]:
    """SIGKILL the process at a moment it holds acknowledged, unhandled updates: it is
    stopped (SIGSTOP) while the inbox is read, and let go on when it holds none. Which
    updates it left behind."""
    while True:
        await until(lambda: _in_hand(bots) >= 2 or playing.done(), TIMEOUT_S, "updates in hand")
        acknowledged = _acknowledged_by(bots, KILLED)
        bots.cluster.pause(KILLED)
        unhandled = await _unhandled(url)
        left_behind = unhandled & acknowledged
        if left_behind or playing.done():
            bots.cluster.kill(KILLED)
            await _claimed_long_ago(url, unhandled & _only_called(bots, KILLED))
            return left_behind
        bots.cluster.resume(KILLED)


def _posted(bots: Rig, waiting: list[Table]) -> list[int]:
    posted = reminders_posted(bots.api, waiting)
    return [posted[table.number] for table in waiting]


def _acknowledged_by(bots: Rig, process: int) -> set[int]:
    return {u for u, delivery in bots.webhooks.deliveries.items() if delivery.process == process}


def _only_called(bots: Rig, process: int) -> set[int]:
    """Updates whose calls all went to ``process``: those it stored are claimed by it."""
    return {u for u, tried in bots.webhooks.attempts.items() if set(tried) == {process}}


async def _claimed_long_ago(url: str, update_ids: set[int]) -> None:
    """Time passes for these claims: each is made ``STALE_S`` older, unless handled."""
    async with await psycopg.AsyncConnection.connect(libpq_url(url)) as connection:
        await connection.execute(
            "UPDATE inbox_updates SET claimed_at = claimed_at - %s "
            "WHERE update_id = ANY(%s) AND handled_at IS NULL",
            [timedelta(seconds=STALE_S), sorted(update_ids)],
        )


def _in_hand(bots: Rig) -> int:
    """Updates the process to kill acknowledged and has not handled yet (as last seen)."""
    return len(_acknowledged_by(bots, KILLED) - set(bots.watch.handled))


async def _unhandled(url: str) -> set[int]:
    rows = await read(url, "SELECT update_id FROM inbox_updates WHERE handled_at IS NULL")
    return {int(update_id) for (update_id,) in rows}


async def _make_reminders_due(url: str, waiting: list[Table]) -> None:
    """Time passes for the waiting matches: half of them an hour from their deadline (a
    reminder), half past it (time is up: the other player may claim the match)."""
    now = datetime.now(UTC).replace(tzinfo=None)
    async with await psycopg.AsyncConnection.connect(libpq_url(url)) as connection:
        for index, table in enumerate(waiting):
            deadline = now + (timedelta(minutes=30) if index % 2 else -timedelta(minutes=1))
            await connection.execute(
                "UPDATE matches SET deadline = %s WHERE id = %s", [deadline, table.match_id]
            )


async def _wait_all_handled(bots: Rig) -> None:
    """Every acknowledged update handled (the players waited for theirs; this is the net)."""
    for update_id in list(bots.webhooks.deliveries):
        await bots.watch.wait(update_id, TIMEOUT_S)
