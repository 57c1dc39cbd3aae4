"""A match clock against the bot (``/play 1 beginner clock=10s+1m``, fake time, the engine in
threads). The person's clock runs out like anyone's; the bot is never on the clock: it plays at
once after the person, and a turn of its interrupted (a restart, a failed decision) costs it
nothing; a match the person had won for sure is not lost on time. With the fixed seeds and event
ids anna opens with 6-3."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.console_app.chat import ConsoleChat
from bot.core.computer.computer import Computer
from bot.core.service import Core
from gammon.actions import TimeOut
from gammon.clock import parse_clock
from gammon.flow import GameEnd, MatchState, Phase
from gammon.match_rules import MatchRules
from gammon.position import Position
from gammon.serialization import state_to_dict
from storage import Database, LoadedMatch
from storage.schema import matches
from tests.bot.test_clock import FakeTime
from tests.bot.test_console_computer import Console
from tests.seeds import fixed_seeds


@dataclass
class TimedConsole(Console):
    """The console of :mod:`tests.bot.test_console_computer`, on fake time."""

    time: FakeTime

    async def match(self) -> LoadedMatch:
        """anna's match against the bot."""
        loaded = await self.match_of("anna")
        assert loaded is not None
        return loaded


def _core(database: Database, time: FakeTime) -> Core:
    return Core(
        database,
        render_images=False,
        clock=time,
        server_seeds=fixed_seeds(),
        computer=Computer(processes=False),
    )


@pytest.fixture
async def console(migrated_url: str, tmp_path: Path) -> AsyncIterator[TimedConsole]:
    database = Database(migrated_url)
    time = FakeTime()
    core = _core(database, time)
    out = io.StringIO()
    chat = ConsoleChat(core, out)
    chat.session = "bot-clock-"  # the event ids, so the client seeds and the dice, are fixed
    try:
        yield TimedConsole(core, chat, out, tmp_path, time)
    finally:
        core.ports.workers.computer.close()
        await database.close()


async def _started(console: TimedConsole) -> LoadedMatch:
    """A 1-point match against the bot with 10 s a period and a minute's reserve: anna to
    move her opening 6-3, both reserves full."""
    await console.line("anna: /play 1 beginner clock=10s+1m")
    started = await console.line("anna: [Start]")
    assert "anna starts with 6-3." in started
    assert "Clock: anna 1:00 · gammonbot 1:00" in started
    return await console.match()


async def test_the_person_loses_on_time_against_the_bot(console: TimedConsole) -> None:
    loaded = await _started(console)
    console.time.now += timedelta(seconds=25)  # 15 s beyond her delay
    answered = await console.line(f"anna: /move {loaded.state.legal_plays()[0]}")
    assert "gammonbot rolled " in answered  # at once, in the same answer
    # The bot's turn cost it nothing; anna's next period runs from the bot's play.
    assert "Clock: anna 0:45 · gammonbot 1:00" in answered
    after = await console.match()
    assert after.info.clock is not None
    assert after.info.clock.running == 0
    assert after.info.clock.deadline == console.time.now + timedelta(seconds=10 + 45)
    console.time.now += timedelta(seconds=10 + 44)  # a second left
    assert await console.core.ports.clock.clocks() == []
    console.time.now += timedelta(seconds=1)
    told = [message.text for message in await console.core.ports.clock.clocks()]
    assert len(told) == 1
    assert told[0].count("anna's time ran out: the match is lost on time.") == 1
    assert "Match over: gammonbot wins 1–0." in told[0]
    assert await console.core.ports.clock.clocks() == []  # told once
    assert await console.core.ports.clock.tick() == []
    events = await console.core.ports.repositories.matches.events(after.info.id)
    assert [event for event in events if isinstance(event, TimeOut)] == [TimeOut(0)]
    final = await console.core.ports.repositories.matches.load_match(after.info.id)
    assert final.info.status == "finished"
    assert final.state.phase is Phase.FINISHED
    assert final.state.games[-1].reason is GameEnd.FORFEIT


async def test_an_interrupted_bot_turn_costs_the_bot_nothing(
    console: TimedConsole, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's decision fails after anna's move (as a restart would leave it): its turn
    waits for the clock's minute tick, and however long that takes the bot is not charged,
    has no deadline the match clocks' timer would chase, and anna's period starts when the
    bot has played."""
    loaded = await _started(console)
    computer = console.core.ports.workers.computer
    decide = computer.decide

    async def fails(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the engine's worker died")

    monkeypatch.setattr(computer, "decide", fails)
    console.time.now += timedelta(seconds=5)  # within anna's delay
    moved = await console.line(f"anna: /move {loaded.state.legal_plays()[0]}")
    assert "gammonbot rolled " not in moved
    waiting = await console.match()
    assert waiting.state.turn == 1  # the bot's turn, left
    monkeypatch.setattr(computer, "decide", decide)
    console.time.now += timedelta(minutes=2)  # past any delay and reserve of the bot's
    clock = console.core.ports.clock
    assert await clock.next_clock(timedelta(seconds=2)) is None  # nothing for the timer
    assert await clock.clocks() == []
    resumed = "".join(message.text for message in await clock.tick())
    assert "gammonbot rolled " in resumed
    assert "Clock: anna 1:00 · gammonbot 1:00" in resumed
    after = await console.match()
    assert after.info.clock is not None
    assert after.info.clock.reserves == (60_000, 60_000)
    assert after.info.clock.running == 0
    assert after.info.clock.deadline == console.time.now + timedelta(seconds=10 + 60)


async def test_a_match_the_person_won_for_sure_is_not_lost_on_time(
    console: TimedConsole, migrated_url: str
) -> None:
    """anna is on roll with her last checker on her 1 point, the bot's on its 6 point
    (hand-built, stored as the match's snapshot): any roll bears it off first. Her time runs
    out: the match is hers all the same (WBGF § 4.3 iii)."""
    loaded = await _started(console)
    race = MatchState(
        rules=MatchRules(length=1, clock=parse_clock("10s+1m")),
        phase=Phase.ROLLING,
        position=Position.from_points({1: 1}, {6: 1}),
        player_on_roll=0,
        score=(0, 0),
        game_number=1,
    )
    assert replace(loaded.state, position=race.position).rules == race.rules
    engine = console.core.ports.repositories.matches.engine
    async with engine.begin() as connection:
        await connection.execute(
            sa.update(matches)
            .where(matches.c.id == loaded.info.id)
            .values(snapshot=state_to_dict(race, with_actions=False))
        )
    console.time.now += timedelta(seconds=10 + 60)  # her delay and reserve, all of it
    restarted = Database(migrated_url)  # a process that reads the stored snapshot
    fresh = _core(restarted, console.time)
    try:
        told = [message.text for message in await fresh.ports.clock.clocks()]
        assert len(told) == 1
        assert (
            told[0].count(
                "anna's time ran out, but the match was already won for sure: it counts as won."
            )
            == 1
        )
        assert "Match over: anna wins 1–0." in told[0]
        assert await fresh.ports.clock.clocks() == []
        final = await fresh.ports.repositories.matches.load_match(loaded.info.id)
        assert final.state.winner == 0
        assert final.state.games[-1].reason is GameEnd.TIME_OUT
    finally:
        fresh.ports.workers.computer.close()
        await restarted.close()
