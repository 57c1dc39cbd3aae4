"""A chouette with a move time limit: reminders at half time and in the last hour, once each,
and what happens when time is up (a double not answered counts as dropped; the box or the
captain out of time loses a single game on every cube still in play)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.chouette.commands import parse_rules
from bot.core.chouette.view import must_act
from bot.core.model import ChatRef, Message
from bot.core.scheduler import Clock
from bot.core.service import Core
from gammon.chouette import ChouetteRules, Side
from gammon.flow import Phase
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
from tests.storage.pauses import pause_after_first_statement


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
    yield Room(core, ChatRef(PLATFORM, "group")), core.ports.clock, time
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
    assert await room.core.ports.clock.tick() == []  # by any clock: the mark is in the database
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


async def test_the_board_after_a_time_up_calls_whoever_it_waits_for(timed: Timed) -> None:
    """The clock acts for nobody at the table: the next game's board mentions (and may
    notify) whoever it waits for, the late player too, who was away."""
    room, clock, time = timed
    await room.command("ann", "/chouette time=2h")
    people = await open_and_start_joined(room, "ann", "bob", "cy")
    rng = random.Random(1)
    for _round in range(4):  # a few turns each: the next game's opening roll as wanted
        await play_until_rolling(room, people, 0, rng)
        await play_until_rolling(room, people, 1, rng)
    game = await play_until_rolling(room, people, 1, rng)
    box, captain, third = (name_of(people, player) for player in game.table.order)
    await room.command(captain, "/double")
    await room.command(box, "/drop")  # the captain won: the captain's cube decides the rotation
    loaded = await current(room)
    assert loaded.info.deadline is not None
    time.now = loaded.info.deadline + timedelta(seconds=1)
    up = await clock.tick()  # the third, acting captain, did not roll: the team loses
    assert up[0].text.startswith(f"{third.title()} (acting captain) has run out of time")
    after = await current(room)
    assert [name_of(people, player) for player in after.info.table.order] == [captain, third, box]
    assert after.game is not None
    waited = [name_of(people, player) for player in must_act(after.game)]
    assert waited == [third]  # these dice: the late player starts the next game
    assert up[-1].mention == (third,)


async def _left_unsettled(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, int], list[str]]:
    """Three play; the box doubles both members, who drop; the bot stops after writing the
    last drop, before settling the game: the players, and their names in the table's order."""
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(2))
    box, captain, third = (name_of(people, player) for player in game.table.order)
    await room.press(box, "Double all")
    await room.command(captain, "/drop")

    async def stopped(*_arguments: object) -> None:
        raise RuntimeError("the process stopped")

    monkeypatch.setattr(room.core.ports.services.chouette.play.rounds, "finish", stopped)
    await room.command(third, "/drop")  # written, then the bot stops
    monkeypatch.undo()
    left = await current(room)
    assert left.game is not None
    assert left.game.finished
    assert left.info.game_number == 1
    return people, [box, captain, third]


@asynccontextmanager
async def _another_process_settling(
    migrated_url: str, time: FakeTime
) -> AsyncIterator[asyncio.Task[list[Message]]]:
    """Another process's clock ticks and stands still in the middle of settling the game (the
    session's row written, not committed): its tick, to await."""
    database = Database(migrated_url)
    other = Core(database, render_images=False, clock=time, server_seeds=fixed_seeds())
    paused = pause_after_first_statement(database, "UPDATE chouettes", seconds=1.0)
    try:
        tick = asyncio.create_task(other.ports.clock.tick())
        assert await asyncio.to_thread(paused.wait, 5)
        yield tick
        await tick
    finally:
        await database.close()


@pytest.mark.both_databases
async def test_a_game_left_unsettled_is_settled_by_one_clock(
    timed: Timed, migrated_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped after writing a game's last drop and before settling it: nobody at
    the table has to act; after a minute the clock settles it, with the settlement's messages
    and the next game. Of two processes' clocks one does, even when the other ticks while the
    first is in the middle of writing it."""
    room, clock, time = timed
    people, (box, captain, third) = await _left_unsettled(room, monkeypatch)
    time.now += timedelta(seconds=30)  # the process that wrote it might still be settling it
    assert await clock.tick() == []
    time.now += timedelta(minutes=1)
    async with _another_process_settling(migrated_url, time) as first:
        assert await clock.tick() == []
        settled = await first
    texts = [message.text for message in settled]
    assert texts[0].splitlines()[:2] == [
        "Every team member's game is over: the game ends.",
        f"This game: {box.title()} +2, {captain.title()} −1, {third.title()} −1",
    ]
    assert texts[-1].startswith("Chouette, game 2")
    after = await current(room)
    assert (after.info.game_number, len(after.games)) == (2, 1)
    assert after.game is not None
    waited = [name_of(people, player) for player in must_act(after.game)]
    assert settled[-1].mention == tuple(waited)  # the clock caused it: nobody is spared
    assert await clock.tick() == []


@pytest.mark.both_databases
async def test_a_player_acting_while_the_clock_settles_gets_the_table_as_it_is(
    timed: Timed, migrated_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player acts on the game left unsettled while another process's clock is settling
    it: the player's process loses the race and shows the table, without an apology and
    without settling the game a second time."""
    room, _clock, time = timed
    _people, (box, _captain, _third) = await _left_unsettled(room, monkeypatch)
    time.now += timedelta(minutes=2)
    async with _another_process_settling(migrated_url, time) as settling:
        answer = await room.command(box, "/roll")
        settled = await settling
    assert any(message.text.startswith("Chouette, game 2") for message in settled)
    texts = "\n".join(message.text for message in answer)
    assert "went wrong" not in texts
    assert "This game:" not in texts
    assert len((await current(room)).games) == 1


async def _left_before_its_opening_roll(room: Room, time: FakeTime) -> None:
    """Ann opens a table with a two-hour limit, Bob and Cy join, and the bot stops after
    starting the first game, before writing its opening roll."""
    await room.command("ann", "/chouette time=2h")
    await room.command("bob", "/chouette join")
    await room.command("cy", "/chouette join")
    info = (await current(room)).info
    info = await room.stores.chouettes.set_client_seed(info.id, info.version, "test:seed")
    await room.stores.chouettes.start_game(info.id, info.version, list(info.seats), now=time.now)


async def test_a_game_left_before_its_opening_roll_gets_it_from_one_clock(
    timed: Timed, migrated_url: str
) -> None:
    """Nobody has to press [Roll]: a minute after the start the clock makes the opening roll
    and posts the board, as the bot (mentioning whoever the game then waits for); of two
    processes' clocks one does, and the move time runs from the roll."""
    room, clock, time = timed
    await _left_before_its_opening_roll(room, time)
    time.now += timedelta(seconds=30)  # the process that started it might still be rolling
    assert await clock.tick() == []
    time.now += timedelta(minutes=1)
    async with _another_process_settling(migrated_url, time) as first:
        assert await clock.tick() == []
        rolled = await first
    assert rolled[0].text.startswith("Game 1: Box: Ann · captain: Bob · then: Cy\nOpening roll:")
    assert rolled[-1].text.startswith("Chouette, game 1\n")
    after = await current(room)
    assert after.game is not None
    assert after.game.board.phase is Phase.MOVING
    people = await ids(room, "ann", "bob", "cy")
    waited = [name_of(people, player) for player in must_act(after.game)]
    assert rolled[-1].mention == tuple(waited)  # the clock caused it: nobody is spared
    assert after.info.deadline == time.now + timedelta(hours=2)
    assert await clock.tick() == []


async def test_the_roll_pressed_on_a_game_left_before_its_opening_roll_makes_it(
    timed: Timed,
) -> None:
    """The board of a game left before its opening roll offers [Roll] to everyone at the
    table; pressed, it makes the opening roll as the presser's action, so the same press
    delivered again gets the board, not "out of date"; the move time runs from the roll, not
    from the start."""
    room, _clock, time = timed
    await _left_before_its_opening_roll(room, time)
    time.now += timedelta(seconds=20)
    shown = await room.command("cy", "/chouette")
    assert [button.label for button in shown[-1].buttons] == ["Roll"]
    time.now += timedelta(minutes=20)
    pressed = await room.press("cy", "Roll")
    assert pressed[0].text.startswith("Game 1: Box: Ann · captain: Bob · then: Cy\nOpening roll:")
    after = await current(room)
    assert after.game is not None
    assert after.game.board.phase is Phase.MOVING
    assert after.info.deadline == time.now + timedelta(hours=2)
    room.events -= 1  # the platform delivers the same press again
    again = await room.press("cy", "Roll")
    assert [message.text for message in again] == [pressed[-1].text]
