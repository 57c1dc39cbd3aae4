"""Races between two processes at one chouette table, made deterministic: one process's bot
is held at a chosen write of its repository while the other acts, in the one event loop the
tests run in (each process has its own connections, so the database settles the race)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.core.model import Message
from tests.bot.chouette_play_helpers import at_the_start_of_a_turn
from tests.bot.scripted import Room

WAIT = 10  # seconds: a step that never comes fails the test instead of hanging it


async def both_drop_but_the_last(room: Room) -> None:
    """Three play; the box, Bob (these dice), doubles both members and the captain, Cy,
    drops: Ann's answer ends the game."""
    _people, _rng, order = await at_the_start_of_a_turn(room, 0, 2, "ann", "bob", "cy")
    assert order == ["bob", "cy", "ann"]
    await room.press("bob", "Double all")
    await room.command("cy", "/drop")


SETTLED = (
    "Every team member's game is over: the game ends.\n"
    "This game: Bob +2, Cy −1, Ann −1\n"
    "Scores: Bob +2 · Cy −1 · Ann −1"
)


def texts(answer: list[Message]) -> str:
    return "\n".join(message.text for message in answer)


def before(
    monkeypatch: pytest.MonkeyPatch,
    room: Room,
    write: str,
    step: Callable[[], Awaitable[object]],
    *,
    after: bool = False,
) -> None:
    """When ``room``'s bot next calls ``write`` (a method of its chouette repository),
    ``step`` runs to its end just before the call (or just after it, with ``after``): what
    another process does between two statements of this one. Later calls run as usual."""
    real = getattr(room.stores.chouettes, write)
    done: list[bool] = []

    async def interleaved(*arguments: Any, **options: Any) -> Any:
        if done:
            return await real(*arguments, **options)
        done.append(True)
        if not after:
            await asyncio.wait_for(step(), WAIT)
        written = await real(*arguments, **options)
        if after:
            await asyncio.wait_for(step(), WAIT)
        return written

    monkeypatch.setattr(room.stores.chouettes, write, interleaved)


def meanwhile(
    monkeypatch: pytest.MonkeyPatch,
    room: Room,
    write: str,
    other_acts: Callable[[], Awaitable[list[Message]]],
    *,
    after: bool,
) -> list[list[Message]]:
    """:func:`before` for another process's whole request: its answer, once it ran."""
    answers: list[list[Message]] = []

    async def acting() -> None:
        answers.append(await other_acts())

    before(monkeypatch, room, write, acting, after=after)
    return answers


class Marks:
    """Named points two requests pass, each waiting for the other's where it must."""

    def __init__(self) -> None:
        self._marks: dict[str, asyncio.Event] = {}

    def _event(self, name: str) -> asyncio.Event:
        return self._marks.setdefault(name, asyncio.Event())

    def reach(self, name: str) -> None:
        self._event(name).set()

    async def wait(self, name: str) -> None:
        await asyncio.wait_for(self._event(name).wait(), WAIT)

    def step(self, reached: str, waited: str) -> Callable[[], Awaitable[None]]:
        """A step for :func:`before`: mark ``reached``, then wait for ``waited``."""

        async def run() -> None:
            self.reach(reached)
            await self.wait(waited)

        return run
