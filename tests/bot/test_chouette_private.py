"""Chouette moves typed in the private chat with the bot: /move, a plain move, /roll and
/double reach the player's chouette game that waits for them, as if typed in its chat (the
board there, a receipt and the refusals in the private chat); with a match waiting too, the
player names one (#12 a match, #c3 a chouette)."""

from __future__ import annotations

import random

from bot.core.model import ChatRef, Message
from gammon.flow import Phase
from tests.bot.chouette_play_helpers import (
    current,
    ids,
    name_of,
    open_and_start,
    play_until_rolling,
    whose_turn,
)
from tests.bot.scripted import PLATFORM, Room


def _private(room: Room, name: str) -> Room:
    return Room(room.core, ChatRef(PLATFORM, f"@{name}", private=True), prefix=f"p-{name}-")


def _in(answer: list[Message], chat: ChatRef) -> list[Message]:
    return [message for message in answer if message.chat.same_chat(chat)]


async def test_a_move_and_a_roll_typed_privately_are_played_at_the_chouette(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    before = await current(room)
    assert before.game is not None
    assert before.game.board.phase is Phase.MOVING  # the opening roll is played
    mover = await whose_turn(room, people)
    private = _private(room, mover)
    answer = await private.send(mover, text=str(before.game.board.legal_plays()[0]))
    after = await current(room)
    assert after.info.version > before.info.version
    boards = [message for message in answer if "Chouette, game 1" in message.text]
    assert [message.chat for message in boards] == [room.chat]
    assert answer[-1].chat == private.chat
    assert answer[-1].private_to == mover
    assert answer[-1].text == (f"Done in chouette #c{after.info.id}: the board is in its chat.")

    assert after.game is not None
    assert after.game.board.phase is Phase.ROLLING
    roller = await whose_turn(room, people)
    rolled = await _private(room, roller).command(roller, "/roll")
    game = (await current(room)).game
    assert game is not None
    assert game.board.dice_events == after.game.board.dice_events + 1
    assert [message.chat for message in rolled[:-1]] == [room.chat] * (len(rolled) - 1)
    assert rolled[-1].text.startswith("Done in chouette #c")


async def test_a_refused_private_move_is_answered_privately(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    loaded = await current(room)
    assert loaded.game is not None
    mover = await whose_turn(room, people)
    waiting = next(name for name in people if name != mover)
    private = _private(room, mover)
    for name, text in ((mover, "24/1"), (waiting, "13/10 6/5")):
        answer = await _private(room, name).send(name, text=text)
        assert [(message.chat.chat_id, message.private_to) for message in answer] == [
            (f"@{name}", name)
        ], answer
    named = await private.send(mover, text="#c999 13/10 6/5")
    assert [message.text for message in named] == ["You do not sit at a chouette #c999."]
    stranger = await _private(room, "dee").send("dee", text="13/10 6/5")
    assert stranger[0].text.startswith("You have no active match")
    assert (await current(room)).info.version == loaded.info.version


async def test_a_member_doubles_the_box_from_the_private_chat(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 1, random.Random(4))
    member = name_of(people, next(p for p in game.table.team if p != game.acting_captain))
    answer = await _private(room, member).command(member, "/double")
    notes = "\n".join(message.text for message in _in(answer, room.chat))
    assert f"{member.title()} doubles the box to 2." in notes
    assert answer[-1].text.startswith("Done in chouette #c")
    after = (await current(room)).game
    assert after is not None
    assert [cube.member for cube in after.pending] == [str(people[member])]


async def test_the_box_takes_a_double_typed_in_the_private_chat(room: Room) -> None:
    """A member doubles the box in the chat; the box types /take in its private chat: the
    only double that waits is taken, the note goes to the chouette's chat."""
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 1, random.Random(4))
    member = name_of(people, next(p for p in game.table.team if p != game.acting_captain))
    box = name_of(people, game.table.box)
    await room.command(member, "/double")
    answer = await _private(room, box).command(box, "/take")
    notes = "\n".join(message.text for message in _in(answer, room.chat))
    assert f"{box.title()} (box) takes {member.title()}'s double: that cube is at 2." in notes
    assert answer[-1].text.startswith("Done in chouette #c")
    after = (await current(room)).game
    assert after is not None
    assert after.pending == ()
    assert after.cube(str(people[member])).value == 2


async def _match_with_zed(room: Room, name: str) -> tuple[Room, int]:
    """A match between ``name`` and Zed in another group: that group, and the match's id."""
    other = Room(room.core, ChatRef(PLATFORM, "group-2"), prefix="g2-")
    await other.command(name, "/challenge @zed 3")
    await other.press("zed", "Accept")
    loaded = await other.match_of(name)
    assert loaded is not None
    return other, loaded.info.id


async def _play_until_it_waits_for(other: Room, match_id: int, name: str, opponent: str) -> None:
    """Whoever the match waits for rolls and moves until it waits for ``name``."""
    people = await ids(other, name, opponent)
    by_id = {user_id: person for person, user_id in people.items()}
    for _step in range(20):
        loaded = await other.core.ports.repositories.matches.load_match(match_id)
        turn = loaded.info.turn_user_id
        assert turn is not None
        if turn == people[name]:
            return
        state = loaded.state
        if state.phase is Phase.MOVING:
            await other.command(by_id[turn], f"/move {state.legal_plays()[0]}")
        else:
            await other.command(by_id[turn], "/roll")
    raise AssertionError(f"the match never waited for {name}")


async def test_with_a_match_waiting_too_the_player_names_one(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    mover = await whose_turn(room, people)
    other, match_id = await _match_with_zed(room, mover)
    await _play_until_it_waits_for(other, match_id, mover, "zed")
    loaded = await current(room)
    assert loaded.game is not None
    chouette_id = loaded.info.id
    private = _private(room, mover)
    play = str(loaded.game.board.legal_plays()[0])
    asked = await private.send(mover, text=play)
    assert [message.text for message in asked] == [
        f"Several of your games wait for you (#{match_id}, #c{chouette_id}; #c marks a "
        f"chouette). Put the number first, e.g. #c{chouette_id} 13/10* 6/5, or play in the "
        "game's chat."
    ]
    assert (await current(room)).info.version == loaded.info.version
    played = await private.command(mover, f"/move #c{chouette_id} {play}")
    assert (await current(room)).info.version > loaded.info.version
    assert played[-1].text == f"Done in chouette #c{chouette_id}: the board is in its chat."
    # The chouette no longer waits for the mover: the match alone does, found as before.
    state = (await room.stores.matches.load_match(match_id)).state
    if state.phase is Phase.MOVING:
        answer = await private.send(mover, text=str(state.legal_plays()[0]))
    else:
        answer = await private.command(mover, "/roll")
    assert answer[-1].text == f"Done in match {match_id}: the board is in the match's chat."


async def test_a_roll_typed_privately_names_the_chouette_first(room: Room) -> None:
    """/roll takes the game's number as its argument (/roll #c3), as a move takes it first."""
    people = await open_and_start(room, "ann", "bob", "cy")
    mover = await whose_turn(room, people)
    loaded = await current(room)
    assert loaded.game is not None
    await room.command(mover, f"/move {loaded.game.board.legal_plays()[0]}")
    roller = await whose_turn(room, people)
    other, match_id = await _match_with_zed(room, roller)
    await _play_until_it_waits_for(other, match_id, roller, "zed")
    rolling = await current(room)
    assert rolling.game is not None
    assert rolling.game.board.phase is Phase.ROLLING
    private = _private(room, roller)
    numbers = f"#{match_id}, #c{rolling.info.id}; #c marks a chouette"
    for command in ("/roll", "/double"):  # the example is the command typed, not a move
        bare = await private.command(roller, command)
        assert [message.text for message in bare] == [
            f"Several of your games wait for you ({numbers}). Put the number first, e.g. "
            f"{command} #c{rolling.info.id}, or play in the game's chat."
        ]
    assert (await current(room)).info.version == rolling.info.version
    rolled = await private.command(roller, f"/roll #c{rolling.info.id}")
    assert rolled[-1].text == f"Done in chouette #c{rolling.info.id}: the board is in its chat."
    after = await current(room)
    assert after.game is not None
    assert after.game.board.dice_events == rolling.game.board.dice_events + 1


async def test_with_nothing_waiting_the_match_answers_as_before(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    mover = await whose_turn(room, people)
    waiting = next(name for name in people if name != mover)
    other, match_id = await _match_with_zed(room, waiting)
    await _play_until_it_waits_for(other, match_id, "zed", waiting)
    answer = await _private(room, waiting).send(waiting, text="13/10 6/5")
    assert [message.text for message in answer] == ["It is not your turn."]
