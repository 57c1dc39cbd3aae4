"""The per-match locks of the command layer: one holder per match at a time, and no lock kept
for a match that no request holds or waits for (else the table grows with every match)."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.service import Core
from tests.bot.scripted import Room, headline, play_to_the_end


async def hold_in_turn(core: Core, match_id: int, tasks: int) -> list[tuple[str, int]]:
    """``tasks`` requests for one match at once, each yielding to the others while it holds
    the lock; what they did, in order."""
    seen: list[tuple[str, int]] = []

    async def hold(number: int) -> None:
        async with core.ports.locks.hold(match_id):
            seen.append(("enter", number))
            for _ in range(3):
                await asyncio.sleep(0)
            seen.append(("exit", number))

    await asyncio.gather(*(hold(number) for number in range(tasks)))
    return seen


async def test_no_lock_is_kept_after_many_matches(room: Room) -> None:
    core = room.core
    for match_id in range(2000):
        async with core.ports.locks.hold(match_id):
            assert len(core.ports.locks) == 1
    assert len(core.ports.locks) == 0


async def test_holders_of_one_match_never_overlap(room: Room) -> None:
    seen = await hold_in_turn(room.core, 7, tasks=20)
    assert seen == [(step, n) for n in range(20) for step in ("enter", "exit")]
    assert len(room.core.ports.locks) == 0


async def test_holders_of_different_matches_do_not_wait_for_each_other(room: Room) -> None:
    core = room.core
    async with core.ports.locks.hold(1), core.ports.locks.hold(2):
        assert len(core.ports.locks) == 2
        holders = await asyncio.gather(*(hold_in_turn(core, 3, tasks=2) for _ in range(2)))
    assert all(len(seen) == 4 for seen in holders)
    assert len(core.ports.locks) == 0


async def test_a_waiter_keeps_the_lock_after_its_holder_leaves(room: Room) -> None:
    """The lock must stay while someone waits for it: a request arriving after the holder left
    would otherwise get a new lock and run beside the waiter."""
    core = room.core
    inside: list[int] = []

    async def hold(number: int, release: asyncio.Event) -> None:
        async with core.ports.locks.hold(5):
            inside.append(number)
            assert len(inside) == 1, inside
            await release.wait()
            inside.remove(number)

    releases = [asyncio.Event() for _ in range(3)]
    first = asyncio.create_task(hold(0, releases[0]))
    await asyncio.sleep(0)
    waiter = asyncio.create_task(hold(1, releases[1]))
    await asyncio.sleep(0)
    releases[0].set()
    await first
    late = asyncio.create_task(hold(2, releases[2]))
    for _ in range(5):
        await asyncio.sleep(0)
    assert inside == [1]  # the waiter got the lock; the late one waits for the same lock
    releases[1].set()
    releases[2].set()
    await asyncio.gather(waiter, late)
    assert len(core.ports.locks) == 0


async def test_cancelled_waiters_and_failed_holders_leave_no_lock(room: Room) -> None:
    core = room.core
    release = asyncio.Event()

    async def hold() -> None:
        async with core.ports.locks.hold(9):
            await release.wait()

    holder = asyncio.create_task(hold())
    await asyncio.sleep(0)
    waiters = [asyncio.create_task(hold()) for _ in range(3)]
    await asyncio.sleep(0)
    for waiter in waiters:
        waiter.cancel()
    release.set()
    await holder
    await asyncio.gather(*waiters, return_exceptions=True)
    assert len(core.ports.locks) == 0

    with pytest.raises(RuntimeError):
        async with core.ports.locks.hold(9):
            raise RuntimeError("the request failed")
    assert len(core.ports.locks) == 0
    assert await hold_in_turn(core, 9, tasks=2)  # the match can still be locked


async def test_a_whole_match_leaves_no_lock(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    await play_to_the_end(room, ("anna", "bob"), seed=1)
    assert any(headline(message).startswith("Match over") for message in room.log)
    assert len(room.core.ports.locks) == 0


async def test_simultaneous_presses_leave_no_lock(room: Room) -> None:
    await room.command("anna", "/challenge @bob 5 nocube")
    started = await room.press("bob", "Accept")
    mover = "bob"  # Bob opens with the fixed seeds
    assert headline(started[-1]).startswith(f"{mover.title()} to play")
    loaded = await room.match_of(mover)
    assert loaded is not None
    play = str(loaded.state.legal_plays()[0])
    await asyncio.gather(*(room.command(mover, f"/move {play}") for _ in range(20)))
    await room.command(mover, "/board")
    assert len(room.core.ports.locks) == 0
