"""Asynchronous play: reminders at half time and in the last hour, claims, expired challenges."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.model import ChatRef
from bot.core.scheduler import Clock
from bot.core.service import Core
from storage import Database
from tests.bot.scripted import PLATFORM, Room, headline
from tests.seeds import fixed_seeds


class FakeTime:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def timed(migrated_url: str) -> AsyncIterator[tuple[Room, Clock, FakeTime]]:
    database = Database(migrated_url)
    time = FakeTime()
    core = Core(database, render_images=False, clock=time, server_seeds=fixed_seeds())
    yield Room(core, ChatRef(PLATFORM, "group")), core.ports.clock, time
    await database.close()


async def test_reminders_then_a_claim(timed: tuple[Room, Clock, FakeTime]) -> None:
    room, clock, time = timed
    await room.command("anna", "/challenge @bob 3 time=4h")
    started = await room.press("bob", "Accept")
    late, waiting = "bob", "anna"  # Bob opens with the fixed seeds, then lets his time run out
    assert started[-1].mention == ()  # Bob accepted this moment: he is at the table
    # storage stamps deadlines with the real clock: run the fake clock from there
    chat = await room.stores.chats.upsert_chat(PLATFORM, "group")
    user = await room.stores.users.upsert_user(PLATFORM, late, late.title())
    match = await room.stores.matches.active_match_for(chat.id, user.id)
    assert match is not None
    assert match.info.deadline is not None
    deadline = match.info.deadline
    time.now = deadline - timedelta(hours=2, minutes=1)
    assert await clock.tick() == []
    time.now = deadline - timedelta(hours=1, minutes=59)
    half = await clock.tick()
    assert len(half) == 1
    assert half[0].mention == (late,)
    assert half[0].text == "Bob, it is your turn in match 1: 2 hours left."  # 1 h 59 min
    assert await clock.tick() == []  # said once
    time.now = deadline - timedelta(minutes=30)
    last_hour = await clock.tick()
    assert len(last_hour) == 1
    assert last_hour[0].text.endswith(": 30 minutes left.")
    refused = await room.send(waiting, token=f"bg1:claim:m{match.info.id}:{match.info.version}")
    assert "has not run out" in refused[0].text
    too_early = await room.command(waiting, "/claim")
    assert "has not run out" in too_early[0].text
    time.now = deadline + timedelta(minutes=1)
    up = await clock.tick()
    assert [button.label for button in up[0].buttons] == ["Claim win"]
    room.log.extend(up)
    not_yours = await room.press(late, "Claim win")
    assert not_yours[0].private_to == late
    claimed = await room.press(waiting, "Claim win")
    assert any("ran out of time" in message.text for message in claimed)
    final = await room.stores.matches.load_match(match.info.id)
    assert final.info.status == "finished"
    assert final.state.games[-1].reason == "forfeit"
    assert await clock.tick() == []


async def test_a_challenge_expires_after_a_day(timed: tuple[Room, Clock, FakeTime]) -> None:
    room, clock, time = timed
    await room.command("anna", "/challenge @bob 3")
    time.now = datetime.now(UTC) + timedelta(hours=25)
    expired = await clock.tick()
    assert len(expired) == 1
    assert "expired" in expired[0].text
    late = await room.press("bob", "Accept")
    assert "already been answered" in late[0].text


async def _started(room: Room, rules: str) -> tuple[str, str, int]:
    """A timed match between anna and bob: (who is to move, who waits, match id). With the
    fixed seeds Bob opens."""
    await room.command("anna", f"/challenge @bob {rules}")
    started = await room.press("bob", "Accept")
    assert headline(started[-1]).startswith("Bob to play")
    chat = await room.stores.chats.upsert_chat(PLATFORM, "group")
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    match = await room.stores.matches.active_match_for(chat.id, anna.id)
    assert match is not None
    return "bob", "anna", match.info.id


async def test_an_unanswered_resignation_is_accepted_by_the_clock_not_claimed(
    timed: tuple[Room, Clock, FakeTime],
) -> None:
    room, clock, time = timed
    resigner, answerer, match_id = await _started(room, "3 time=4h")
    await room.command(resigner, "/resign")
    offered = await room.press(resigner, "Resign")
    assert offered[-1].mention == (answerer,)  # the one who must answer is on the clock
    loaded = await room.stores.matches.load_match(match_id)
    answerer_user = await room.stores.users.upsert_user(PLATFORM, answerer, answerer.title())
    assert loaded.info.turn_user_id == answerer_user.id
    assert loaded.info.deadline == time.now + timedelta(hours=4)
    time.now += timedelta(hours=4, minutes=1)
    claim = await room.command(resigner, "/claim")
    assert [message.text for message in claim] == ["A resignation is waiting for an answer."]
    settled = await clock.tick()
    texts = [message.text for message in settled]
    # Said first on the board that follows, with the game's result.
    assert settled[-1].lead.startswith(
        f"{answerer.title()} did not answer the offer to resign in time, so it counts as accepted."
        f" Game 1: {answerer.title()} wins 1 point (resignation, cube 1)."
    )
    assert not any("ran out of time" in text for text in texts)
    after = await room.stores.matches.load_match(match_id)
    assert after.info.status == "active"  # the match goes on with the next game
    assert after.state.game_number == 2
    assert await clock.tick() == []


async def test_only_the_player_who_waited_for_a_cube_answer_may_claim(
    timed: tuple[Room, Clock, FakeTime],
) -> None:
    room, _clock, time = timed
    mover, other, match_id = await _started(room, "3 time=4h")
    loaded = await room.stores.matches.load_match(match_id)
    await room.command(mover, f"/move {loaded.state.legal_plays()[0]}")
    doubled = await room.command(other, "/double")
    assert doubled[-1].mention == (mover,)  # the doubled player is on the clock
    time.now += timedelta(hours=5)
    late = await room.command(mover, "/claim")
    assert [message.text for message in late] == ["Your opponent's time has not run out."]
    claimed = await room.command(other, "/claim")
    assert any("ran out of time" in message.text for message in claimed)


async def test_two_processes_clocks_remind_once(migrated_url: str) -> None:
    """Every bot process ticks its clock each minute: a reminder, a time-up notice and an
    expired challenge go out once in all, whichever process gets there first."""
    databases = [Database(migrated_url), Database(migrated_url)]
    time = FakeTime()
    cores = [
        Core(database, render_images=False, clock=time, server_seeds=fixed_seeds())
        for database in databases
    ]
    room = Room(cores[0], ChatRef(PLATFORM, "group"))
    clocks = [core.ports.clock for core in cores]
    try:
        await room.command("anna", "/challenge @bob 3 time=4h")
        await room.press("bob", "Accept")
        await room.command("carl", "/challenge @dora 3")  # never answered: it expires
        chat = await cores[0].ports.repositories.chats.upsert_chat(PLATFORM, "group")
        bob = await cores[0].ports.repositories.users.upsert_user(PLATFORM, "bob", "Bob")
        match = await cores[0].ports.repositories.matches.active_match_for(chat.id, bob.id)
        assert match is not None
        assert match.info.deadline is not None
        for moment in (
            match.info.deadline - timedelta(hours=1, minutes=59),  # half time
            match.info.deadline - timedelta(minutes=30),  # the last hour
            match.info.deadline + timedelta(minutes=1),  # time is up
        ):
            time.now = moment
            ticked = await asyncio.gather(*(clock.tick() for clock in clocks))  # at once
            texts = [message.text for messages in ticked for message in messages]
            assert len([text for text in texts if "match 1" in text]) == 1, texts
        time.now += timedelta(days=1)
        ticked = await asyncio.gather(*(clock.tick() for clock in clocks))
        texts = [message.text for messages in ticked for message in messages]
        assert len([text for text in texts if "has expired" in text]) == 1, texts
    finally:
        for database in databases:
            await database.close()


async def test_the_clock_accepts_a_resignation_as_the_bot_and_calls_the_late_player(
    timed: tuple[Room, Clock, FakeTime],
) -> None:
    """The answerer let the time run out: the clock accepts for them, and the end of the
    match that follows calls both players, the late answerer too (they were away)."""
    room, clock, time = timed
    resigner, answerer, _match_id = await _started(room, "1 time=4h")
    await room.command(resigner, "/resign")
    await room.press(resigner, "Resign")
    time.now += timedelta(hours=4, minutes=1)
    settled = await clock.tick()
    assert headline(settled[-1]).startswith(f"Match over: {answerer.title()} wins 1–0.")
    assert sorted(settled[-1].mention) == sorted([resigner, answerer])
    assert answerer in settled[-1].notify  # away for four hours
