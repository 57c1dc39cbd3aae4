"""The one table driver (bot/core/tables.py), against a table of its own kind held in memory:
what it does with versions, repeats, refusals and a write beaten by another writer is the same
for every table, so it is tested here once, and at a match and a chouette through the chat
(tests/bot/test_repeated_presses.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.core.context import Context
from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.refusal import Refusal
from bot.core.runtime.locks import MatchLocks
from bot.core.tables import Admitted, TableDriver
from storage import AlreadyAppliedError, ChatRecord, ConflictError, NotFoundError, UserRecord

CHAT = ChatRef("test", "group")
STALE = "That button is out of date."


def _context(event_id: str = "") -> Context:
    request = Request(Actor("test", "ann", "Ann"), CHAT, event_id=event_id)
    user = UserRecord(1, "test", "ann", "Ann", None)
    return Context(request, user, ChatRecord(1, "test", "group", None), "en", "en")


def _said(answer: list[Message]) -> list[str]:
    return [message.text for message in answer]


@dataclass
class Counter:
    """A table that counts: each action adds one. ``beaten`` appends are beaten by another
    writer first (who adds one meanwhile); ``log`` holds the event ids written."""

    at: int = 0  # the version
    over: bool = False
    beaten: int = 0
    ends_when_beaten: bool = False
    refuse: bool = False
    log: list[str] = field(default_factory=list)
    planned_at: list[int] = field(default_factory=list)

    async def load(self, context: Context, table_id: int) -> int:
        if table_id != 7:
            raise NotFoundError("no such table")
        return self.at

    def version(self, loaded: int) -> int:
        return loaded

    async def check(self, context: Context, loaded: int) -> list[Message] | None:
        return context.refuse("It is over.") if self.over else None

    async def admit(self, context: Context, loaded: int) -> Admitted[int]:
        return Admitted(loaded, lead=[Message(CHAT, "lead")])

    async def plan(self, context: Context, loaded: int) -> int:
        self.planned_at.append(loaded)
        if self.refuse:
            raise Refusal("Not now.")
        return loaded + 1

    async def append(self, context: Context, loaded: int, planned: int) -> int:
        event_id = context.request.event_id
        if event_id in self.log:
            raise AlreadyAppliedError(event_id)
        if self.beaten:
            self.beaten -= 1
            self.at += 1
            self.log.append("other")
            self.over = self.ends_when_beaten
            raise ConflictError("beaten")
        if loaded != self.at:
            raise ConflictError("stale")
        self.at = planned
        self.log.append(event_id)
        return planned

    async def present(
        self, context: Context, admitted: Admitted[int], planned: int, written: int
    ) -> list[Message]:
        return [*admitted.lead, Message(CHAT, f"now {written}")]

    async def current(self, context: Context, table_id: int) -> list[Message]:
        return [Message(CHAT, f"as it is: {self.at}")]

    async def applied(self, table_id: int, event_id: str) -> bool:
        return event_id in self.log


async def _act(table: Counter, version: int | None, event_id: str = "e1") -> list[str]:
    answer = await TableDriver(MatchLocks()).act(_context(event_id), table, 7, version)
    return _said(answer)


async def test_an_action_is_planned_written_and_presented() -> None:
    table = Counter()
    assert await _act(table, None) == ["lead", "now 1"]
    assert await _act(table, 1, "e2") == ["lead", "now 2"]
    assert table.log == ["e1", "e2"]


async def test_a_button_of_another_version_is_out_of_date_and_a_repeat_gets_the_table() -> None:
    table = Counter()
    await _act(table, 0, "e1")
    assert await _act(table, 0, "e1") == ["as it is: 1"]  # the same press again: quietly
    assert await _act(table, 0, "e2") == [STALE]  # another press of the old button
    assert table.log == ["e1"]


async def test_a_repeat_met_at_the_right_version_gets_the_table() -> None:
    table = Counter()
    await _act(table, None, "e1")
    assert await _act(table, None, "e1") == ["as it is: 1"]
    assert table.log == ["e1"]


async def test_a_refusal_is_said_after_what_played_by_itself_unless_it_is_a_repeat() -> None:
    table = Counter()
    await _act(table, None, "e1")
    table.refuse = True
    assert await _act(table, None, "e2") == ["lead", "Not now."]
    assert await _act(table, None, "e1") == ["as it is: 1"]


async def test_a_typed_action_beaten_once_is_tried_once_more_against_the_table_as_it_is() -> None:
    table = Counter(beaten=1)
    assert await _act(table, None) == ["lead", "now 2"]
    assert table.planned_at == [0, 1]
    assert table.log == ["other", "e1"]


async def test_a_typed_action_beaten_twice_is_out_of_date() -> None:
    table = Counter(beaten=2)
    assert await _act(table, None) == ["lead", STALE]
    assert table.planned_at == [0, 1]
    assert table.log == ["other", "other"]


async def test_a_pressed_action_beaten_is_not_tried_again() -> None:
    table = Counter(beaten=1)
    assert await _act(table, 0) == ["lead", STALE]
    assert table.planned_at == [0]


async def test_a_table_that_ended_meanwhile_says_so_pressed_or_typed() -> None:
    pressed = Counter(beaten=1, ends_when_beaten=True)
    assert await _act(pressed, 0) == ["It is over."]
    typed = Counter(beaten=1, ends_when_beaten=True)
    assert await _act(typed, None) == ["It is over."]
    assert typed.planned_at == [0]


async def test_no_table_or_a_table_that_is_over() -> None:
    missing = await TableDriver(MatchLocks()).act(_context(), Counter(), 8, None)
    assert [(m.text, m.private_to) for m in missing] == [(STALE, "ann")]
    assert await _act(Counter(over=True), None) == ["It is over."]
