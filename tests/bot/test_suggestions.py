"""Move suggestions for autocomplete, and who gets a private notification."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.core.model import Actor, ChatRef
from gammon.flow import Phase
from tests.bot.scripted import PLATFORM, Room


def actor(name: str) -> Actor:
    return Actor(PLATFORM, name, name.title())


async def mover(room: Room) -> str:
    """The player to move once the opening roll has been played."""
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    loaded = await room.stores.matches.active_match_for(chat.id, anna.id)
    assert loaded is not None
    assert loaded.state.phase is Phase.MOVING
    return "anna" if loaded.info.player_index(anna.id) == loaded.state.turn else "bob"


async def test_suggestions_are_the_movers_legal_plays_filtered_by_what_is_typed(
    room: Room,
) -> None:
    assert await room.core.suggest_moves(actor("anna"), room.chat) == []  # never seen
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    on_move, waiting = "bob", "anna"  # with the fixed seeds Bob opens, with 6-3
    assert await mover(room) == on_move
    everything = await room.core.suggest_moves(actor(on_move), room.chat, "", limit=100)
    # The 14 distinct plays of 6-3 from the starting position.
    assert len(everything) == 14
    assert all("/" in play for play in everything)
    assert await room.core.suggest_moves(actor(waiting), room.chat) == []
    assert await room.core.suggest_moves(actor("carl"), room.chat) == []
    elsewhere = ChatRef(PLATFORM, "group-2")
    assert await room.core.suggest_moves(actor(on_move), elsewhere) == []
    prefix = everything[0].split()[0]
    narrowed = await room.core.suggest_moves(actor(on_move), room.chat, prefix)
    assert narrowed[0].replace("*", "").startswith(prefix.replace("*", ""))
    assert set(narrowed) <= set(everything)
    assert len(await room.core.suggest_moves(actor(on_move), room.chat, "", limit=3)) == 3
    assert await room.core.suggest_moves(actor(on_move), room.chat, "zz") == []
    # Whatever is suggested is accepted as a move.
    played = await room.command(on_move, f"/move {everything[-1]}")
    assert not any(message.private_to for message in played)


async def test_private_notifications_follow_the_preference_and_reachability(room: Room) -> None:
    offer = await room.command("anna", "/challenge @bob 3")
    assert offer[0].mention == ("bob",)
    assert offer[0].notify == ("bob",)
    marked = await room.core.delivery.mark_unreachable(actor("bob"))
    assert marked is not None
    assert (marked.name, marked.reachable) == ("Bob", False)
    again = await room.command("anna", "/challenge @bob 5")
    assert again[0].mention == ("bob",)
    assert again[0].notify == ()
    await room.core.delivery.mark_unreachable(actor("bob"), unreachable=False)
    # Anna challenged 11 minutes ago and has not been back since: she is away, so her turn
    # comes privately too (someone at the table is only mentioned).
    start = datetime.now(UTC)
    room.core.clock = lambda: start + timedelta(minutes=11)
    await room.press("bob", "Accept")
    on_move, waiting = "anna", "bob"  # the second challenge's seeds: Anna opens
    assert await mover(room) == on_move
    prompts = [message for message in room.log if message.mention == (on_move,)]
    assert prompts
    assert prompts[-1].notify == (on_move,)
    await room.command(waiting, "/settings")
    await room.press(waiting, "Private notifications: on")
    play = (await room.core.suggest_moves(actor(on_move), room.chat))[0]
    room.core.clock = lambda: start + timedelta(minutes=30)  # Bob is away now, but said no
    await room.command(on_move, f"/move {play}")
    prompts = [message for message in room.log if message.mention == (waiting,)]
    assert prompts
    assert prompts[-1].notify == ()
