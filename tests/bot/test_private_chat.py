"""Moves typed in the private chat with the bot reach the player's match in its group chat."""

from __future__ import annotations

from bot.core.model import ChatRef
from gammon.flow import Phase
from storage import LoadedMatch
from tests.bot.scripted import PLATFORM, Room


def _private(room: Room, name: str) -> Room:
    return Room(room.core, ChatRef(PLATFORM, f"@{name}", private=True), events=room.events + 100)


async def _start(room: Room) -> tuple[LoadedMatch, str]:
    """Anna challenges, Bob accepts: the match and its mover, Bob (he opens with the fixed
    seeds)."""
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    loaded = await room.stores.matches.active_match_for(chat.id, anna.id)
    assert loaded is not None
    bob = await room.stores.users.upsert_user(PLATFORM, "bob", "Bob")
    assert loaded.info.turn_user_id == bob.id
    return loaded, "bob"


async def test_a_move_typed_privately_is_played_in_the_match_chat(room: Room) -> None:
    loaded, mover = await _start(room)
    play = str(loaded.state.legal_plays()[0])
    answer = await _private(room, mover).send(mover, text=play)
    after = await room.stores.matches.load_match(loaded.info.id)
    assert after.info.version > loaded.info.version
    board = [message for message in answer if "Position ID" in message.text]
    assert [message.chat for message in board] == [room.chat]
    receipt = answer[-1]
    assert receipt.chat.chat_id == f"@{mover}"
    assert receipt.text == f"Done in match {loaded.info.id}: the board is in the match's chat."


async def test_a_refused_private_move_is_answered_privately(room: Room) -> None:
    loaded, mover = await _start(room)
    answer = await _private(room, mover).send(mover, text="24/1")
    assert [(message.chat.chat_id, message.private_to) for message in answer] == [
        (f"@{mover}", mover)
    ]
    waiting = "anna"
    not_yours = await _private(room, waiting).command(waiting, "/move 13/10 6/5")
    assert [message.text for message in not_yours] == ["It is not your turn."]
    assert (await room.stores.matches.load_match(loaded.info.id)).info.version == (
        loaded.info.version
    )


async def test_with_two_matches_waiting_the_player_names_one(room: Room) -> None:
    first, mover = await _start(room)
    other = Room(room.core, ChatRef(PLATFORM, "group-2"), events=room.events + 50)
    await other.command(mover, "/challenge @carl 3")
    started = await other.press("carl", "Accept")
    assert started[-1].mention == (mover,)  # the new match waits for the mover too
    user = await room.stores.users.upsert_user(PLATFORM, mover, mover.title())
    ids = sorted(info.id for info in await room.stores.matches.active_matches_of(user.id))
    assert len(ids) == 2
    asked = await _private(room, mover).send(mover, text="13/10 6/5")
    assert asked[0].text == (
        f"Several of your matches wait for you (#{ids[0]}, #{ids[1]}). Put the match number "
        f"first, e.g. #{ids[0]} 13/10* 6/5, or play in the match's chat."
    )
    play = str(first.state.legal_plays()[0])
    answer = await _private(room, mover).send(mover, text=f"#{first.info.id} {play}")
    assert (await room.stores.matches.load_match(first.info.id)).info.version > first.info.version
    assert answer[-1].text.startswith(f"Done in match {first.info.id}")


async def test_board_and_resign_work_from_the_private_chat(room: Room) -> None:
    _loaded, mover = await _start(room)
    private = _private(room, mover)
    board = await private.command(mover, "/board")
    assert [message.chat.chat_id for message in board] == [f"@{mover}"]
    assert "Position ID" in board[0].text
    asked = await private.command(mover, "/resign")
    assert [button.label for button in asked[0].buttons] == ["Resign", "Keep playing"]
    offered = await private.press(mover, "Resign")
    waiting = "anna"
    prompt = [message for message in offered if message.mention == (waiting,)]
    assert [message.chat for message in prompt] == [room.chat]
    assert "accept?" in prompt[0].text


async def test_a_board_asked_for_privately_pings_nobody(room: Room) -> None:
    _loaded, mover = await _start(room)
    waiting = "anna"
    board = await _private(room, waiting).command(waiting, "/board")
    assert [(message.mention, message.notify) for message in board] == [((), ())]
    assert f"{mover.title()} to play" in board[0].text


async def _until_it_waits_for_a_roll(room: Room, match_id: int, roller: str, other: str) -> None:
    """Play the match in its chat, both sides, until ``roller`` is to roll."""
    user = await room.stores.users.upsert_user(PLATFORM, roller, roller.title())
    for _turn in range(40):
        loaded = await room.stores.matches.load_match(match_id)
        ours = loaded.info.turn_user_id == user.id
        if ours and loaded.state.phase is Phase.ROLLING:
            return
        name = roller if ours else other
        if loaded.state.phase is Phase.ROLLING:
            await room.command(name, "/roll")
        else:
            await room.command(name, f"/move {loaded.state.legal_plays()[0]}")
    raise AssertionError(f"the match never waited for {roller} to roll")


async def test_roll_and_double_name_the_match_when_several_wait(room: Room) -> None:
    """/roll and /double typed privately take the match number as their argument, as moves
    take it first: with two matches waiting for a roll, the bare command is refused and
    names both with the command typed as the example, /roll #N rolls in match N and
    /double #M doubles in match M."""
    first, _mover = await _start(room)
    await _until_it_waits_for_a_roll(room, first.info.id, "anna", "bob")
    other = Room(room.core, ChatRef(PLATFORM, "group-2"), events=room.events + 50)
    await other.command("carl", "/challenge @anna 3")
    await other.press("anna", "Accept")
    chat = await room.stores.chats.upsert_chat(PLATFORM, "group-2")
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    second = await room.stores.matches.active_match_for(chat.id, anna.id)
    assert second is not None
    await _until_it_waits_for_a_roll(other, second.info.id, "anna", "carl")
    private = _private(room, "anna")
    ids = sorted((first.info.id, second.info.id))
    for command in ("roll", "double"):  # the example is the command typed, not a move
        bare = await private.command("anna", f"/{command}")
        assert [message.text for message in bare] == [
            f"Several of your matches wait for you (#{ids[0]}, #{ids[1]}). Put the match "
            f"number first, e.g. /{command} #{ids[0]}, or play in the match's chat."
        ]
    rolled = await private.command("anna", f"/roll #{second.info.id}")
    assert rolled[-1].text == f"Done in match {second.info.id}: the board is in the match's chat."
    assert (await room.stores.matches.load_match(second.info.id)).state.phase is Phase.MOVING
    doubled = await private.command("anna", f"/double #{first.info.id}")
    assert doubled[-1].text == f"Done in match {first.info.id}: the board is in the match's chat."
    assert (await room.stores.matches.load_match(first.info.id)).state.phase is Phase.DOUBLED
    unknown = await private.command("anna", "/roll #999999")
    assert [message.text for message in unknown] == [
        "You have no active match 999999. /matches lists yours."
    ]


async def test_with_no_match_waiting_board_and_resign_name_one(room: Room) -> None:
    """With two matches and neither waiting for the player, a command that names no match is
    refused with that reason (not "several wait for you"); /board #N and /resign #N name one."""
    first, _mover = await _start(room)  # Bob is to play: it waits for him, not for Anna
    other = Room(room.core, ChatRef(PLATFORM, "group-2"), events=room.events + 50)
    await other.command("anna", "/challenge @carl 3")
    await other.press("carl", "Accept")
    chat = await room.stores.chats.upsert_chat(PLATFORM, "group-2")
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    second = await room.stores.matches.active_match_for(chat.id, anna.id)
    assert second is not None
    for _step in range(10):  # Anna plays until the match waits for Carl
        loaded = await room.stores.matches.load_match(second.info.id)
        if loaded.info.turn_user_id != anna.id:
            break
        if loaded.state.phase is Phase.ROLLING:
            await other.command("anna", "/roll")
        else:
            await other.command("anna", f"/move {loaded.state.legal_plays()[0]}")
    private = _private(room, "anna")
    ids = sorted((first.info.id, second.info.id))
    for command in ("/board", "/roll", "/resign"):
        refused = await private.command("anna", command)
        assert [message.text for message in refused] == [
            f"None of your matches waits for you now (#{ids[0]}, #{ids[1]}). To act in one, "
            f"put its number first, e.g. /board #{ids[0]}."
        ]
    board = await private.command("anna", f"/board #{second.info.id}")
    assert "Carl to" in board[0].text
    assert [message.chat for message in board] == [private.chat]
    asked = await private.command("anna", f"/resign #{first.info.id} gammon")
    assert asked[0].text == "Do you really offer to resign a gammon?"
    offered = await private.press("anna", "Resign")
    resigning = await room.stores.matches.load_match(first.info.id)
    assert resigning.state.phase is Phase.RESIGNING
    assert any(message.chat == room.chat for message in offered)


async def test_hint_names_the_match_like_the_other_commands(bot_room: Room) -> None:
    """``/hint #N`` in a private chat means match N; ``/hint`` alone asks which, when several
    wait."""
    await bot_room.command("anna", "/challenge @bob 3 hints")
    await bot_room.press("bob", "Accept")
    other = Room(bot_room.core, ChatRef(PLATFORM, "group-2"), events=bot_room.events + 50)
    await other.command("bob", "/challenge @carl 3")  # no hints in this one
    await other.press("carl", "Accept")
    bob = await bot_room.core.ports.repositories.users.upsert_user(PLATFORM, "bob", "Bob")
    mine = await bot_room.core.ports.repositories.matches.active_matches_of(bob.id)
    hinted, plain = sorted(info.id for info in mine)
    private = _private(bot_room, "bob")
    asked = await private.command("bob", "/hint")
    assert asked[0].text == (
        f"Several of your matches wait for you (#{hinted}, #{plain}). Put the match number "
        f"first, e.g. /hint #{hinted}, or play in the match's chat."
    )
    refused = await private.command("bob", f"/hint #{plain}")
    assert "challenge allowed them" in refused[0].text
    answered = await private.command("bob", f"/hint #{hinted}")
    assert [(message.chat.chat_id, message.private_to) for message in answered] == [("@bob", "bob")]
    assert "Best plays for" in answered[0].text
