"""A chouette with a move time limit: reminders at half time and in the last hour, once each,
and what happens when time is up (a double not answered counts as dropped; the box or the
captain out of time loses a single game on every cube still in play)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.chouettes import parse_rules
from bot.core.model import ChatRef
from bot.core.scheduler import Clock
from bot.core.service import Core
from gammon.chouette import ChouetteRules, Side
from storage import Database
from tests.bot.chouette_play_helpers import (
    current,
    ids,
    name_of,
    open_and_start,
    play_until_rolling,
)
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds


class FakeTime:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


Timed = tuple[Room, Clock, FakeTime]


@pytest.fixture
async def timed(migrated_url: str) -> AsyncIterator[Timed]:
    database = Database(migrated_url)
    time = FakeTime()
    core = Core(database, render_images=False, clock=time, server_seeds=fixed_seeds())
    yield Room(core, ChatRef(PLATFORM, "group")), Clock(core), time
    await database.close()


def test_the_time_option() -> None:
    plain = ChouetteRules()
    assert parse_rules([]) == (plain, None)  # no limit unless asked
    assert parse_rules(["jacoby", "time=24h"]) == (ChouetteRules(jacoby=True), 24 * 3600)
    assert parse_rules(["time=90m"]) == (plain, 5400)
    assert parse_rules(["time=off"]) == (plain, None)
    assert parse_rules(["time=soon"]) is None
    assert parse_rules(["time=31d"]) is None  # as for /challenge: at most 30 days


async def test_reminders_once_each_then_the_late_side_loses(timed: Timed) -> None:
    room, clock, time = timed
    opened = await room.command("ann", "/chouette time=4h")
    assert "4 h per move" in opened[0].text
    people = await open_and_start_joined(room, "ann", "bob", "cy")
    loaded = await current(room)
    assert loaded.info.move_time_limit == 4 * 3600
    deadline = loaded.info.deadline
    assert deadline is not None
    game = loaded.game
    assert game is not None
    late_key = game.table.box if game.side_on_turn is Side.BOX else game.acting_captain
    late = name_of(people, late_key or "")
    time.now = deadline - timedelta(hours=2, minutes=1)
    assert await clock.tick() == []
    time.now = deadline - timedelta(hours=1, minutes=59)
    half = await clock.tick()
    assert len(half) == 1
    assert half[0].mention == (late,)
    assert half[0].text == f"{late.title()}, the chouette is waiting for you: 2 hours left."
    assert await clock.tick() == []  # said once
    assert await Clock(room.core).tick() == []  # by any clock: the mark is in the database
    time.now = deadline - timedelta(minutes=30)
    last_hour = await clock.tick()
    assert len(last_hour) == 1
    assert last_hour[0].text.endswith(": 30 minutes left.")
    assert await clock.tick() == []
    time.now = deadline + timedelta(minutes=1)
    up = await clock.tick()
    assert "has run out of time" in up[0].text
    assert await clock.tick() == []  # the next game's deadline is hours away
    after = await current(room)
    assert after.info.game_number == 2
    points = after.games[0].points
    box = people_by_key(people, game.table.box)
    if late_key == game.table.box:
        assert points[box] == -2  # a single game on each of the two cubes
        assert after.info.seats[0] == people_by_key(people, game.table.captain)
    else:
        assert points[box] == 2
        assert after.info.seats[0] == box
    assert sum(points.values()) == 0


async def test_a_double_not_answered_counts_as_dropped(timed: Timed) -> None:
    room, clock, time = timed
    await room.command("ann", "/chouette time=2h")
    people = await open_and_start_joined(room, "ann", "bob", "cy", "dee")
    game = await play_until_rolling(room, people, 0, random.Random(3))
    box, captain, second, third = (name_of(people, player) for player in game.table.order)
    await room.press(box, f"Double {second.title()}")
    loaded = await current(room)
    assert loaded.info.deadline is not None
    time.now = loaded.info.deadline - timedelta(minutes=59)
    reminded = await clock.tick()
    assert reminded[0].mention == (second,)  # the doubled member, not the box
    time.now = loaded.info.deadline
    up = await clock.tick()
    assert up[0].text == f"{second.title()} did not answer in time: it counts as a drop."
    assert any("drops the box's double and pays 1." in message.text for message in up)
    dropped = (await current(room)).game
    assert dropped is not None
    assert [cube.live for cube in dropped.cubes] == [True, False, True]
    # The box does not answer the captain's double: the box drops it.
    await play_until_rolling(room, people, 1, random.Random(4))
    await room.command(captain, "/double")
    loaded = await current(room)
    assert loaded.info.deadline is not None
    time.now = loaded.info.deadline + timedelta(seconds=1)
    up = await clock.tick()
    assert up[0].text == f"{box.title()} did not answer in time: it counts as a drop."
    answered = (await current(room)).game
    assert answered is not None
    assert answered.cubes[0].dropped_by is Side.BOX
    assert answered.acting_captain == str(people[third])


async def test_no_limit_no_reminders(timed: Timed) -> None:
    room, clock, time = timed
    await open_and_start(room, "ann", "bob", "cy")
    assert (await current(room)).info.deadline is None
    time.now += timedelta(days=40)
    assert await clock.tick() == []


async def open_and_start_joined(room: Room, *names: str) -> dict[str, int]:
    """The table is open already (with its options): the others join and the last starts."""
    for name in names[1:]:
        await room.command(name, "/chouette join")
    answer = await room.command(names[-1], "/chouette start")
    assert any("Seating dice" in message.text for message in answer), answer
    return await ids(room, *names)


def people_by_key(people: dict[str, int], player: str) -> int:
    return people[name_of(people, player)]
