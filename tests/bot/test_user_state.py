"""The command layer on a user's transient state and typed preferences."""

from __future__ import annotations

import asyncio

from gammon.actions import Move
from tests.bot.scripted import PLATFORM, Room


async def test_two_presses_of_confirm_play_the_move_once(room: Room) -> None:
    for name in ("anna", "bob"):
        await room.command(name, "/settings")
        await room.press(name, "Confirm each move: off")
    await room.command("anna", "/challenge @bob 1 nocube")
    started = await room.press("bob", "Accept")
    mover = started[-1].mention[0]
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    user = await room.stores.users.upsert_user(PLATFORM, mover, mover.title())
    loaded = await room.stores.matches.active_match_for(chat.id, user.id)
    assert loaded is not None
    await room.command(mover, f"/move {loaded.state.legal_plays()[0]}")
    answers = await asyncio.gather(*(room.press(mover, "Confirm") for _ in range(2)))
    refused = [answer for answer in answers if "out of date" in answer[0].text]
    assert len(refused) == 1
    matches = room.stores.matches
    moved = await matches.with_history(await matches.load_match(loaded.info.id))
    player = loaded.info.player_index(user.id)
    played = moved.state.actions[loaded.info.version]  # then the turn passed on
    assert isinstance(played, Move)
    assert played.player == player
    assert (await room.stores.users.get_user(user.id)).pending_move is None


async def test_settings_read_odd_stored_values_as_the_defaults(room: Room) -> None:
    await room.command("anna", "/help")
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    await room.stores.users.set_preferences(
        anna.id, {"auto_roll": "yes", "confirm_moves": 1, "theme": 5}
    )
    shown = await room.command("anna", "/settings")
    labels = [button.label for button in shown[0].buttons]
    assert "Auto-roll when I cannot double: on" in labels
    assert "Confirm each move: off" in labels
    assert "Board: classic" in labels
    toggled = await room.press("anna", "Auto-roll when I cannot double: on")
    labels = [button.label for button in toggled[0].buttons]
    assert "Auto-roll when I cannot double: off" in labels
    assert (await room.stores.users.get_user(anna.id)).preferences["auto_roll"] is False
