"""Every board of a match says first what was just played, as FIBS does: the play with its
roll, the cube, offers to resign and their answers, the opening roll. A board that takes the
place of the previous one (a pressed roll) says again what that one said, so the message a
chat platform edits in place keeps its record. The expected lines are written from the rules:
the dice are read from the match, the play is the one typed."""

from __future__ import annotations

import random
import re

from bot.core.model import ChatRef, Message
from bot.core.service import Core
from bot.core.text.direction import (
    LEFT_TO_RIGHT_ISOLATE,
    POP_DIRECTIONAL_ISOLATE,
    RIGHT_TO_LEFT_MARK,
)
from gammon.flow import Phase
from storage import Database, LoadedMatch
from tests.bot.scripted import PLATFORM, Room, headline
from tests.seeds import fixed_seeds


def _roll(loaded: LoadedMatch) -> str:
    dice = loaded.state.dice
    assert dice is not None
    return f"{max(dice)}-{min(dice)}"


def _board(answer: list[Message]) -> Message:
    boards = [message for message in answer if message.slot and message.slot.startswith("board:")]
    assert len(boards) == 1, [message.text for message in answer]
    return boards[0]


async def _opened(room: Room, rules: str = "3") -> tuple[str, str, LoadedMatch]:
    """Anna challenges Bob, Bob accepts (in any language); with the fixed seeds Bob opens."""
    offer = await room.command("anna", f"/challenge @bob {rules}")
    await room.send("bob", token=offer[0].buttons[0].token)  # [Accept]
    loaded = await room.match_of("bob")
    assert loaded is not None
    assert loaded.state.turn == 1
    return "bob", "anna", loaded


async def test_the_board_after_a_play_says_it_with_its_roll_and_nothing_else_is_posted(
    room: Room,
) -> None:
    mover, _waiting, loaded = await _opened(room)
    play = str(loaded.state.legal_plays()[0])
    answer = await room.command(mover, f"/move {play}")
    assert answer == [_board(answer)]  # one message: no note of its own before the board
    board = answer[0]
    assert board.text.startswith(f"Bob rolled {_roll(loaded)} and played {play}.\nAnna to roll.")
    assert board.lead == f"Bob rolled {_roll(loaded)} and played {play}."
    # /board shows the same board again, with the same first line.
    again = await room.command("anna", "/board")
    assert again[-1].lead == board.lead


async def test_a_pressed_roll_keeps_the_line_of_the_board_it_replaces(room: Room) -> None:
    mover, waiting, loaded = await _opened(room)
    play = str(loaded.state.legal_plays()[0])
    before = _board(await room.command(mover, f"/move {play}"))
    rolled = _board(await room.press(waiting, "Roll"))
    assert rolled.lead == before.lead == f"Bob rolled {_roll(loaded)} and played {play}."
    after = await room.match_of(waiting)
    assert after is not None
    assert headline(rolled) == f"Anna to play {_roll(after)}: /move …"


async def test_the_cube_and_an_offer_to_resign_are_said_on_the_boards_that_follow(
    room: Room,
) -> None:
    mover, waiting, loaded = await _opened(room)
    await room.command(mover, f"/move {loaded.state.legal_plays()[0]}")
    doubled = _board(await room.press(waiting, "Double"))
    assert doubled.lead == "Anna doubles to 2."
    assert headline(doubled) == "Bob, take or drop the double to 2?"
    taken = _board(await room.press(mover, "Take"))
    assert taken.lead == "Bob takes. The cube is at 2."
    # Anna's roll was automatic (Bob owns the cube): she plays, Bob resigns, Anna says no.
    rolled = await room.match_of(waiting)
    assert rolled is not None
    await room.command(waiting, f"/move {rolled.state.legal_plays()[0]}")
    await room.command(mover, "/resign gammon")
    offered = _board(await room.press(mover, "Resign"))
    assert offered.lead == ""  # the headline asks it: not said twice
    assert headline(offered) == "Bob offers to resign a gammon. Anna, accept?"
    rejected = _board(await room.press(waiting, "Reject"))
    assert rejected.lead == "Anna rejects the resignation. Play on!"


async def test_an_arabic_chat_keeps_the_play_left_to_right(migrated_url: str) -> None:
    database = Database(migrated_url)
    core = Core(database, render_images=False, server_seeds=fixed_seeds())
    room = Room(core, ChatRef(PLATFORM, "group-ar", locale="ar"))
    try:
        mover, _waiting, loaded = await _opened(room)
        play = str(loaded.state.legal_plays()[0])
        board = _board(await room.command(mover, f"/move {play}"))
        first = board.text.split("\n")[0]
        assert first.startswith(RIGHT_TO_LEFT_MARK)
        assert f"{LEFT_TO_RIGHT_ISOLATE}{play}{POP_DIRECTIONAL_ISOLATE}" in first
        isolated = re.findall(f"{LEFT_TO_RIGHT_ISOLATE}([^{POP_DIRECTIONAL_ISOLATE}]*)", first)
        assert any(_roll(loaded) in run for run in isolated), first  # with the name: "Bob 6-3"
        assert "رمى" in first  # "rolled", in the chat's language
    finally:
        await database.close()


async def test_against_the_bot_one_board_says_both_plays(bot_room: Room) -> None:
    await bot_room.command("anna", "/play 3 nocube")
    await bot_room.press("anna", "Start")
    loaded = await bot_room.match_of("anna")
    assert loaded is not None
    assert loaded.state.phase is Phase.MOVING  # the bot opened, or Anna did
    play = str(loaded.state.legal_plays()[0])
    answer = await bot_room.command("anna", f"/move {play}")
    board = _board(answer)
    assert answer[-1] is board
    said = f"Anna rolled {_roll(loaded)} and played {play}. gammonbot rolled "
    assert board.lead.startswith(said), board.lead
    assert " and played " in board.lead[len(said) :]
    assert not [message for message in answer if message.slot is None]  # no separate note


async def test_a_roll_always_keeps_the_line_of_the_board_it_replaces(room: Room) -> None:
    """Whatever happened in between (dances, only plays made automatically, doubles, a game's
    end), a board after a pressed roll that waits for the same player starts with what the
    board it replaces said; after the roll alone, it says exactly that."""
    await room.command("anna", "/challenge @bob 5")
    await room.press("bob", "Accept")
    rng = random.Random(4)
    rolls = 0
    for _step in range(400):
        loaded = await room.match_of("anna")
        if loaded is None:
            break
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        name = "anna" if actor == 0 else "bob"
        if state.phase is Phase.ROLLING and rng.random() < 0.9:
            before = [message for message in room.log if message.slot == f"board:{loaded.info.id}"]
            board = _board(await room.command(name, "/roll"))
            if not headline(board).startswith(f"{name.title()} to"):
                continue  # the roll could not be played: a board that calls the other player
            assert board.lead.startswith(before[-1].lead), (before[-1].text, board.text)
            after = await room.match_of("anna")
            if after is not None and after.info.version == loaded.info.version + 1:
                rolls += 1
                assert board.lead == before[-1].lead, (before[-1].text, board.text)
        elif state.phase is Phase.ROLLING:
            await room.command(name, "/double")
        elif state.phase is Phase.DOUBLED:
            await room.press(name, "Take")
        else:
            await room.command(name, f"/move {rng.choice(state.legal_plays())}")
    assert rolls > 10
