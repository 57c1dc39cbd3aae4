"""One player's hints delay nobody: the bot's decisions never queue behind hints, and each
player has one hint at a time and a few a minute, in all their chats."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

import pytest

from bot.core.computer.computer import Computer
from bot.core.computer.hint_limits import HintLimits
from bot.core.model import ChatRef
from bot.core.service import Core
from engine import tasks
from engine.api import Decision, Hint, HintPlay, Level, Situation
from gammon.actions import OpeningRoll
from gammon.flow import MatchState, apply, new_match
from gammon.match_rules import MatchRules
from storage import Database
from tests.bot.held_analyses import until
from tests.bot.scripted import PLATFORM, Room, headline
from tests.seeds import fixed_seeds

QUEUED_HINTS = 40
# Only code that queues the decision behind the held hints waits this long; correct code
# answers at once. The test's verdict is the order of the answers, not a time.
BROKEN_CODE_WAITS = 30.0
HELD_HINT = Hint((3, 1), (HintPlay("8/5 6/5", 0.1, 0.0),), None)


class HeldEngine:
    """The engine's worker functions, as the worker threads run them: a hint blocks until the
    test releases it; a decision answers at once."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.hints_begun = 0
        self._count = threading.Lock()

    def hint(self, situation: Situation, dice: tuple[int, int] | None, level: Level) -> Hint:
        with self._count:
            self.hints_begun += 1
        self.release.wait()
        return HELD_HINT

    @staticmethod
    def decide(state: MatchState, seat: int, level: Level, seed: int) -> Decision:
        return Decision("move", "8/5 6/5")


def _opening() -> MatchState:
    return apply(new_match(MatchRules(length=7)), OpeningRoll((3, 1)))


async def test_a_bot_decision_after_40_queued_hints_is_answered_before_any_hint(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = HeldEngine()
    monkeypatch.setattr(tasks, "hint", engine.hint)
    monkeypatch.setattr(tasks, "decide", engine.decide)
    computer = Computer(processes=False, move_workers=1)
    state = _opening()
    answered: list[str] = []

    async def ask_hint() -> None:
        await computer.hint(Situation.of(state, 0), (3, 1), Level.WORLD_CLASS)
        answered.append("hint")

    async def ask_decision() -> Decision:
        decision = await computer.decide(state, 0, Level.EXPERT, 7)
        answered.append("decision")
        return decision

    try:
        hints = [asyncio.create_task(ask_hint()) for _ in range(QUEUED_HINTS)]
        await until(lambda: engine.hints_begun >= 1, "the hints' worker is busy")
        decision = asyncio.create_task(ask_decision())
        await asyncio.wait({decision}, timeout=BROKEN_CODE_WAITS)
    finally:
        engine.release.set()
    await asyncio.gather(*hints)
    assert await decision == Decision("move", "8/5 6/5")
    assert answered == ["decision"] + ["hint"] * QUEUED_HINTS
    computer.close()


class SlowHints(Computer):
    """Hints that take as long as the test wants; decisions are the real engine's."""

    def __init__(self) -> None:
        super().__init__(processes=False)
        self.release = asyncio.Event()
        self.waiting = 0

    async def hint(self, situation: Situation, dice: tuple[int, int] | None, level: Level) -> Hint:
        self.waiting += 1
        await self.release.wait()
        return HELD_HINT


@pytest.fixture
async def slow_core(migrated_url: str) -> AsyncIterator[tuple[Core, SlowHints]]:
    database = Database(migrated_url)
    computer = SlowHints()
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), computer=computer)
    yield core, computer
    computer.release.set()
    computer.close()
    await database.close()


async def _matches_against_the_bot(core: Core, name: str, chats: list[str]) -> list[Room]:
    rooms = [Room(core, ChatRef(PLATFORM, chat)) for chat in chats]
    for room in rooms:
        await room.command(name, "/play 3")  # the offer, with its commitment
        started = await room.press(name, "Start")
        assert "vs gammonbot" in started[0].text
    return rooms


async def test_a_second_hint_while_the_first_is_computed_is_refused_in_any_chat(
    slow_core: tuple[Core, SlowHints],
) -> None:
    core, computer = slow_core
    first_chat, second_chat = await _matches_against_the_bot(core, "anna", ["one", "two"])
    (bobs_chat,) = await _matches_against_the_bot(core, "bob", ["three"])
    first = asyncio.create_task(first_chat.command("anna", "/hint"))
    await until(lambda: computer.waiting == 1, "anna's first hint is being computed")
    second = asyncio.create_task(second_chat.command("anna", "/hint"))
    await until(lambda: second.done() or computer.waiting == 2, "the second /hint is answered")
    assert second.done(), "anna's second hint was computed while her first one was"
    assert [(message.text, message.private_to) for message in second.result()] == [
        ("Your previous hint is still being computed: it comes in a moment.", "anna")
    ]
    german = await first_chat.command("anna", "/hint", locale="de")
    assert [message.text for message in german] == [
        "Dein vorheriger Hinweis wird noch berechnet: er kommt gleich."
    ]
    bobs = asyncio.create_task(bobs_chat.command("bob", "/hint"))  # another player: computed
    await until(lambda: computer.waiting == 2, "bob's hint is being computed")
    computer.release.set()
    assert "8/5 6/5" in (await first)[0].text
    assert "8/5 6/5" in (await bobs)[0].text
    assert "8/5 6/5" in (await second_chat.command("anna", "/hint"))[0].text  # hers again


async def test_a_hint_that_failed_does_not_hold_the_next_one(
    migrated_url: str,
) -> None:
    class FailingOnce(SlowHints):
        async def hint(
            self, situation: Situation, dice: tuple[int, int] | None, level: Level
        ) -> Hint:
            self.waiting += 1
            if self.waiting == 1:
                raise RuntimeError("the engine worker died")
            return HELD_HINT

    database = Database(migrated_url)
    computer = FailingOnce()
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), computer=computer)
    (room,) = await _matches_against_the_bot(core, "anna", ["one"])
    failed = await room.command("anna", "/hint")
    assert "8/5 6/5" not in failed[0].text
    assert "8/5 6/5" in (await room.command("anna", "/hint"))[0].text
    computer.close()
    await database.close()


async def test_hints_past_the_rate_are_refused_with_the_time_to_wait(migrated_url: str) -> None:
    database = Database(migrated_url)
    computer = SlowHints()
    computer.release.set()
    now = [1000.0]
    limits = HintLimits(per_minute=2, clock=lambda: now[0])
    core = Core(
        database,
        render_images=False,
        server_seeds=fixed_seeds(),
        computer=computer,
        hint_limits=limits,
    )
    first_chat, second_chat = await _matches_against_the_bot(core, "anna", ["one", "two"])
    assert "8/5 6/5" in (await first_chat.command("anna", "/hint"))[0].text
    assert "8/5 6/5" in (await second_chat.command("anna", "/hint"))[0].text
    # Two a minute: one every 30 seconds once both are used.
    refused = await first_chat.command("anna", "/hint")
    assert [(message.text, message.private_to) for message in refused] == [
        ("Hints are limited to 2 a minute: ask again in 30 seconds.", "anna")
    ]
    now[0] += 29.5
    assert [message.text for message in await second_chat.command("anna", "/hint")] == [
        "Hints are limited to 2 a minute: ask again in 1 second."
    ]
    assert [
        message.text for message in await second_chat.command("anna", "/hint", locale="ru")
    ] == ["Подсказок — не больше 2 в минуту: спроси снова через 1 секунду."]
    now[0] += 0.5
    assert "8/5 6/5" in (await first_chat.command("anna", "/hint"))[0].text
    computer.close()
    await database.close()


class RecordingHints(SlowHints):
    """Hints answered at once; the situations asked about are kept."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Situation] = []

    async def hint(self, situation: Situation, dice: tuple[int, int] | None, level: Level) -> Hint:
        self.asked.append(situation)
        return HELD_HINT


@pytest.mark.parametrize(
    ("options", "jacoby", "beavers"),
    [("money jacoby beaver hints", True, True), ("money hints", False, False)],
)
async def test_a_money_hint_is_judged_with_the_matchs_jacoby_and_beavers(
    migrated_url: str, options: str, jacoby: bool, beavers: bool
) -> None:
    database = Database(migrated_url)
    computer = RecordingHints()
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), computer=computer)
    room = Room(core, ChatRef(PLATFORM, "group-1"))
    await room.command("anna", f"/challenge @bob {options}")
    started = await room.press("bob", "Accept")
    mover = "bob" if headline(started[-1]).startswith("Bob to play") else "anna"
    answer = await room.command(mover, "/hint")
    assert "8/5 6/5" in answer[0].text
    [situation] = computer.asked
    assert situation.is_money
    assert (situation.jacoby, situation.beavers) == (jacoby, beavers)
    computer.close()
    await database.close()
