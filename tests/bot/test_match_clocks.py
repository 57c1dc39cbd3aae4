"""Match clocks through the command layer (scripted chat, fake time): a time-out is applied
once, by whichever process sees it first, after a restart too; an action after the time ran out
is the time-out; a double and its take are timed; a match won for sure is not lost on time.

With the fixed seeds Bob (player 1) opens with 6-3; Anna challenged, so she is player 0.
``clock=10s+1m``: 10 s free per period, then one minute of reserve each.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from bot.core.model import ChatRef, Message
from bot.core.service import Core
from gammon.clock import parse_clock
from gammon.flow import GameEnd, MatchState, Phase
from gammon.match_rules import MatchRules
from gammon.position import Position
from gammon.serialization import state_to_dict
from storage import Database, MatchClock
from storage.schema import matches
from tests.bot.scripted import PLATFORM, Room
from tests.bot.test_clock import FakeTime
from tests.seeds import fixed_seeds

START = datetime(2026, 11, 29, 12, tzinfo=UTC)
CHAT = ChatRef(PLATFORM, "group")


def _core(database: Database, time: FakeTime) -> Core:
    return Core(database, render_images=False, clock=time, server_seeds=fixed_seeds())


@pytest.fixture
async def two(migrated_url: str) -> AsyncIterator[tuple[Room, Room, FakeTime]]:
    """Two processes on one database, one fake time."""
    time = FakeTime()
    first, second = Database(migrated_url), Database(migrated_url)
    yield Room(_core(first, time), CHAT), Room(_core(second, time), CHAT, prefix="f"), time
    await first.close()
    await second.close()


async def _started(room: Room, clock: str = "10s+1m") -> int:
    await room.command("anna", f"/challenge @bob 3 clock={clock}")
    await room.press("bob", "Accept")
    loaded = await room.match_of("anna")
    assert loaded is not None
    return loaded.info.id


def _texts(messages: list[Message]) -> str:
    return "\n".join(message.text for message in messages)


async def _time_outs(room: Room, match_id: int) -> list[str]:
    events = await room.stores.matches.events(match_id)
    return [event.kind for event in events if event.kind == "time_out"]


async def test_the_clock_shows_with_the_board_and_the_rules(
    two: tuple[Room, Room, FakeTime],
) -> None:
    room, _other, _time = two
    offered = await room.command("anna", "/challenge @bob 3 clock=fast")
    assert "3-point match of backgammon (clock 8 s + 20 s per point)" in offered[0].text
    started = await room.press("bob", "Accept")
    assert "Clock: Anna 1:00 · Bob 1:00" in started[-1].text  # 20 s for each of 3 points


async def test_a_time_out_loses_the_match_once_across_two_processes(
    two: tuple[Room, Room, FakeTime],
) -> None:
    first, second, time = two
    match_id = await _started(first)
    time.now = START + timedelta(seconds=69, milliseconds=999)
    assert await first.core.ports.clock.clocks() == []  # a moment before delay and reserve
    time.now = START + timedelta(seconds=70)
    told = await asyncio.gather(first.core.ports.clock.clocks(), second.core.ports.clock.clocks())
    said = _texts(told[0] + told[1])
    assert said.count("Bob's time ran out: the match is lost on time.") == 1
    assert "Anna wins the match: Bob ran out of time." in said
    final = await second.stores.matches.load_match(match_id)
    assert final.info.status == "finished"
    assert final.state.winner == 0
    assert final.state.games[-1].reason is GameEnd.FORFEIT
    assert await _time_outs(second, match_id) == ["time_out"]
    assert await first.core.ports.clock.clocks() == []
    assert await second.core.ports.clock.tick() == []


async def test_a_restart_applies_the_time_out_that_ran_out_while_down(
    migrated_url: str,
) -> None:
    time = FakeTime()
    database = Database(migrated_url)
    match_id = await _started(Room(_core(database, time), CHAT))
    await database.close()
    time.now = START + timedelta(hours=1)  # the bot was down meanwhile
    restarted = Database(migrated_url)
    try:
        room = Room(_core(restarted, time), CHAT)
        said = _texts(await room.core.ports.clock.tick())  # what a start does first
        assert "Bob's time ran out: the match is lost on time." in said
        assert await _time_outs(room, match_id) == ["time_out"]
    finally:
        await restarted.close()


async def test_a_move_after_the_time_ran_out_is_the_time_out(
    two: tuple[Room, Room, FakeTime],
) -> None:
    room, _other, time = two
    match_id = await _started(room)
    time.now = START + timedelta(seconds=71)
    answer = _texts(await room.command("bob", "/move 24/18 13/10"))
    assert "Bob's time ran out: the match is lost on time." in answer
    events = await room.stores.matches.events(match_id)
    assert [event.kind for event in events][-1] == "time_out"
    assert not any(event.kind == "move" for event in events)


async def test_a_double_and_its_take_are_timed(two: tuple[Room, Room, FakeTime]) -> None:
    room, _other, time = two
    match_id = await _started(room)
    time.now = START + timedelta(seconds=15)  # Bob plays 5 s beyond the delay
    await room.command("bob", "/move 24/18 13/10")
    time.now += timedelta(seconds=4)  # Anna doubles within her delay
    await room.command("anna", "/double")
    loaded = await room.stores.matches.load_match(match_id)
    assert loaded.info.clock == MatchClock((60_000, 55_000), 1, time.now, time.now + _s(65))
    time.now += timedelta(seconds=30)  # Bob takes 20 s beyond the delay
    taken = await room.press("bob", "Take")
    assert "Clock: Anna 1:00 · Bob 0:35" in _texts(taken)
    loaded = await room.stores.matches.load_match(match_id)
    assert loaded.info.clock == MatchClock((60_000, 35_000), 0, time.now, time.now + _s(70))
    time.now += timedelta(seconds=70)  # Anna, now to roll, lets her time run out
    said = _texts(await room.core.ports.clock.clocks())
    assert "Anna's time ran out: the match is lost on time." in said
    final = await room.stores.matches.load_match(match_id)
    assert (final.state.winner, final.state.score) == (1, (0, 3))


def _s(seconds: int) -> timedelta:
    return timedelta(seconds=seconds)


async def test_a_match_won_for_sure_is_not_lost_on_time(
    two: tuple[Room, Room, FakeTime], migrated_url: str
) -> None:
    """Bob leads 2-0 in the 3-point match and is on roll with his last checker on his 1
    point: any roll bears it off, before Anna's checker on her 6 point (hand-built, stored as
    the match's snapshot). His time runs out: the match is his all the same."""
    room, _other, time = two
    match_id = await _started(room)
    loaded = await room.stores.matches.load_match(match_id)
    race = MatchState(
        rules=MatchRules(length=3, clock=parse_clock("10s+1m")),
        phase=Phase.ROLLING,
        position=Position.from_points({1: 1}, {6: 1}),
        player_on_roll=1,
        score=(0, 2),
        game_number=3,
    )
    assert replace(loaded.state, position=race.position).rules == race.rules
    async with room.core.ports.repositories.matches.engine.begin() as connection:
        await connection.execute(
            sa.update(matches)
            .where(matches.c.id == match_id)
            .values(snapshot=state_to_dict(race, with_actions=False))
        )
    time.now = START + timedelta(hours=1)
    restarted = Database(migrated_url)  # a process that reads the stored snapshot
    try:
        fresh = Room(_core(restarted, time), CHAT, prefix="g")
        said = _texts(await fresh.core.ports.clock.clocks())
        assert "Bob's time ran out, but the match was already won for sure" in said
        final = await fresh.stores.matches.load_match(match_id)
        assert final.state.winner == 1
        assert final.state.score == (0, 3)
        assert final.state.games[-1].reason is GameEnd.TIME_OUT
    finally:
        await restarted.close()


async def test_an_offer_to_resign_left_unanswered_on_the_clock_is_accepted(
    two: tuple[Room, Room, FakeTime],
) -> None:
    room, _other, time = two
    match_id = await _started(room)
    await room.command("bob", "/resign")
    await room.press("bob", "Resign")
    time.now = START + timedelta(seconds=70)  # Anna's 10 s and 1 min pass unanswered
    said = _texts(await room.core.ports.clock.clocks())
    assert "Anna did not answer the offer to resign in time, so it counts as accepted." in said
    loaded = await room.stores.matches.load_match(match_id)
    assert loaded.info.status == "active"  # a single game to Anna; the match goes on
    assert loaded.state.score == (1, 0)
    assert loaded.state.games[-1].reason is GameEnd.RESIGN
