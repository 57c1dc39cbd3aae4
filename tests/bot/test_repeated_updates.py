"""An update handled twice (a process died after writing its effect but before marking the
update handled, and another process took it over) changes nothing the second time: the
action is in the match's log once, the challenge exists once, and the second answer is the
board as it is now."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from bot.core.model import Actor, Request
from storage.schema import challenges
from tests.bot.scripted import PLATFORM, Room

# Races between processes: each database settles them its own way.
pytestmark = pytest.mark.both_databases


def _typed(room: Room, name: str, command: str, argument: str, event_id: str) -> Request:
    mentions = tuple(
        Actor(PLATFORM, word[1:], word[1:].title())
        for word in argument.split()
        if word.startswith("@")
    )
    return Request(
        Actor(PLATFORM, name, name.title()),
        room.chat,
        command=command,
        argument=argument,
        event_id=event_id,
        mentions=mentions,
    )


async def test_a_challenge_sent_twice_is_made_once(room: Room) -> None:
    request = _typed(room, "anna", "challenge", "@bob 3", "tg-100")
    first = await room.core.handle(request)
    again = await room.core.handle(request)
    assert first[0].text == again[0].text
    assert [button.token for button in first[0].buttons] == [
        button.token for button in again[0].buttons
    ]
    made = await room.stores.challenges.engine.read(
        sa.select(sa.func.count()).select_from(challenges)
    )
    assert made.scalar() == 1


async def test_a_move_sent_twice_is_played_once(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    loaded = await room.match_of("anna")
    assert loaded is not None
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    mover = "anna" if loaded.state.turn == loaded.info.player_index(anna.id) else "bob"
    play = str(loaded.state.legal_plays()[0])
    request = _typed(room, mover, "move", play, "tg-200")
    await room.core.handle(request)
    after_first = await room.stores.matches.load_match(loaded.info.id)
    again = await room.core.handle(request)
    after_again = await room.stores.matches.load_match(loaded.info.id)
    assert after_again.info.version == after_first.info.version
    assert len(again) == 1
    assert again[0].slot == f"board:{loaded.info.id}"  # the board as it is, no refusal
    assert again[0].private_to is None
    events = await room.stores.matches.events(loaded.info.id)
    assert sum(1 for event in events if getattr(event, "play", None) == play) == 1
