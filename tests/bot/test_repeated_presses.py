"""A press handled twice (the platform sent it again, or a process died after writing its
effect and another took the update over) meets one behaviour at every kind of table: the
second time its button names a version that is gone, yet its event is in the log, so it gets
the table as it is now, quietly (no refusal), and nothing is applied twice. A stale press whose
event is not in the log is still out of date."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.core.model import Actor, Message, Request
from tests.bot.chouette_play_helpers import current, name_of, open_and_start, play_until_rolling
from tests.bot.scripted import PLATFORM, Room

# A repeat is caught by the database (the event id's unique index, the version): each its own way.
pytestmark = pytest.mark.both_databases


def _token(room: Room, label: str) -> str:
    return next(b.token for m in reversed(room.log) for b in m.buttons if b.label == label)


async def _match_waiting_for_a_roll(room: Room) -> tuple[str, int]:
    """A match whose player on roll has a [Roll] button: their name and the match's id."""
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    for _ in range(4):
        loaded = await room.match_of("anna")
        assert loaded is not None
        anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
        name = "anna" if loaded.state.turn == loaded.info.player_index(anna.id) else "bob"
        if any(b.label == "Roll" for m in room.log[-1:] for b in m.buttons):
            return name, loaded.info.id
        await room.command(name, f"/move {loaded.state.legal_plays()[0]}")
    raise AssertionError("no [Roll] button")


def _quiet_board(answer: list[Message], slot: str) -> None:
    assert [message.private_to for message in answer] == [None] * len(answer)
    assert all("out of date" not in message.text for message in answer)
    assert answer[-1].slot == slot


async def test_a_match_button_pressed_twice_gets_the_board_quietly(room: Room) -> None:
    name, match_id = await _match_waiting_for_a_roll(room)
    request = Request(Actor(PLATFORM, name, name.title()), room.chat, token=_token(room, "Roll"))
    request = replace(request, event_id="press-1")
    before = await room.stores.matches.load_match(match_id)
    await room.core.handle(request)
    rolled = await room.stores.matches.load_match(match_id)
    assert rolled.info.version > before.info.version
    again = await room.core.handle(replace(request))
    _quiet_board(again, f"board:{match_id}")
    after = await room.stores.matches.load_match(match_id)
    assert after.info.version == rolled.info.version
    assert after.state.dice_events == before.state.dice_events + 1


async def test_a_stale_match_button_of_another_press_is_out_of_date(room: Room) -> None:
    name, _match = await _match_waiting_for_a_roll(room)
    token = _token(room, "Roll")
    actor = Actor(PLATFORM, name, name.title())
    await room.core.handle(Request(actor, room.chat, token=token, event_id="press-1"))
    other = await room.core.handle(Request(actor, room.chat, token=token, event_id="press-2"))
    assert [(m.text, m.private_to) for m in other] == [("That button is out of date.", name)]


async def test_a_chouette_button_pressed_twice_gets_the_board_quietly(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(8))
    box = name_of(people, game.table.box)
    actor = Actor(PLATFORM, box, box.title())
    request = Request(actor, room.chat, token=_token(room, "Roll"), event_id="press-1")
    await room.core.handle(request)
    rolled = await current(room)
    again = await room.core.handle(replace(request))
    _quiet_board(again, again[-1].slot or "a board")
    assert "(box) to play" in again[-1].text
    after = await current(room)
    assert after.info.version == rolled.info.version
    assert after.game is not None
    assert after.game.board.dice_events == game.board.dice_events + 1
    other = await room.core.handle(replace(request, event_id="press-2"))
    assert [(m.text, m.private_to) for m in other] == [("That button is out of date.", box)]
