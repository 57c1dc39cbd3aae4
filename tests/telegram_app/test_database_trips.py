"""A typed move costs at most four trips to the database thread, from the update's arrival to
the board posted: who is speaking with the match the command means and its players (one
read), the version-checked append with what the end sets off (one write), the slots and
users the posting needs (one read) and the record of the posted board (one write). Counted
by wrapping the database facade: every statement, read or transaction reaches the database
thread through ``ThreadedEngine.run``."""

from __future__ import annotations

import statistics
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from gammon.flow import Phase
from storage.threaded import ThreadedEngine
from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness
from tests.telegram_app.test_match import _match

T = TypeVar("T")
MOST_TRIPS = 4


class TripCounter:
    def __init__(self) -> None:
        self.counting = False
        self.trips = 0

    def wrap(self, run: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
        async def counted(engine: ThreadedEngine, function: Callable[..., T], *args: Any) -> T:
            if self.counting:
                self.trips += 1
            return await run(engine, function, *args)

        return counted


async def test_a_typed_move_makes_at_most_four_trips_to_the_database(
    telegram: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")
    await telegram.press_label(BOB, GROUP, "Accept")
    counter = TripCounter()
    monkeypatch.setattr(ThreadedEngine, "run", counter.wrap(ThreadedEngine.run))
    per_move: list[int] = []
    for _step in range(60):
        loaded = await _match(telegram)
        assert loaded is not None
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        player = ANNA if actor == 0 else BOB
        if state.phase is Phase.MOVING:
            counter.counting, counter.trips = True, 0
            calls = await telegram.say(player, GROUP, f"/move {state.legal_plays()[0]}")
            counter.counting = False
            assert any(call.method in ("sendPhoto", "editMessageMedia") for call in calls)
            per_move.append(counter.trips)
            if len(per_move) == 12:
                break
        elif state.phase is Phase.ROLLING:
            await telegram.press_label(player, GROUP, "Roll")
        else:
            raise AssertionError(f"unexpected phase {state.phase}")
    assert len(per_move) == 12
    # The first move of the process reads once what it then remembers (the dice's roller,
    # when each player last acted): every later one keeps to the budget.
    assert max(per_move[1:]) <= MOST_TRIPS, per_move
    assert statistics.median(per_move) <= MOST_TRIPS
