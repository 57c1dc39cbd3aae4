"""The chouette's board message: turned to whoever the game waits for (the picture and the
console's text board), its caption saying what was just played, and gnubg's IDs at its end.

The table (the test dice are fixed): Ann, Bob and Cy sit down, Cy starts it; the seating
dice make Bob the box and Cy the captain, and Bob wins the opening roll with 6-4."""

from __future__ import annotations

import io
import re
from functools import partial
from typing import Any

import pytest

from bot.console_app.chat import ConsoleChat
from bot.core.model import Message
from gammon.flow import Phase
from gammon.match import GameState, Match
from gammon.position import Position
from storage import LoadedChouette
from tests.bot.chouette_play_helpers import current, open_and_start
from tests.bot.scripted import Room

START = "4HPwATDgc/ABMA"  # GNU Backgammon's Position ID of the starting position


class Drawn:
    """The pictures the chouette asks for: what each would be drawn from (a painter that
    records the drawing instead of drawing it)."""

    def __init__(self) -> None:
        self.perspectives: list[int] = []

    async def paint(self, drawing: partial[bytes]) -> bytes:
        self.perspectives.append(drawing.keywords.get("perspective", 1))  # the old default
        return b"picture"


@pytest.fixture
def drawn(room: Room, monkeypatch: pytest.MonkeyPatch) -> Drawn:
    recorder = Drawn()
    view = room.core.ports.services.chouette.play.view
    monkeypatch.setattr(view, "enabled", True)
    monkeypatch.setattr(room.core.ports.workers.painter, "paint", recorder.paint)
    return recorder


def board_of(answer: list[Message]) -> Message:
    """The board message of an answer (the last one shown, when given the whole log)."""
    return [message for message in answer if message.board is not None][-1]


def ids(board: Message) -> tuple[str, Match]:
    found = re.fullmatch(r"Position ID: (\S{14}) · Match ID: (\S{12})", board.text.splitlines()[-1])
    assert found is not None, board.text
    return found.group(1), Match.from_id(found.group(2))


async def test_each_board_is_turned_to_whoever_must_act_and_says_what_was_played(
    room: Room, drawn: Drawn
) -> None:
    await open_and_start(room, "ann", "bob", "cy")
    started = board_of(room.log)
    # Bob (box) won the opening roll 6-4: his move, drawn and numbered from his side.
    assert started.text.splitlines()[1] == "Bob (box) starts with 6-4."
    assert (drawn.perspectives[-1], started.board and started.board.turn) == (0, 0)
    position, match = ids(started)
    assert position == START
    assert (match.length, match.score, match.cube_value, match.cube_owner) == (0, (0, 0), 1, None)
    assert (match.player_on_roll, match.turn, match.dice) == (0, 0, (6, 4))
    assert match.game_state is GameState.PLAYING
    assert not match.double_offered

    # Bob types his own point numbers; then the team rolls: the captain's side.
    moved = board_of(await room.command("bob", "/move 8/2 6/2"))
    assert moved.text.splitlines()[1] == "Bob (box) rolled 6-4 and played 8/2 6/2."
    assert drawn.perspectives[-1] == 1
    rolled = board_of(await room.command("cy", "/roll"))
    assert rolled.text.splitlines()[1] == "Cy (captain) rolled 4-4."
    assert drawn.perspectives[-1] == 1
    played = board_of(await room.command("cy", "/move 13/9(2) 24/20(2)"))
    assert played.text.splitlines()[1] == "Cy (captain) rolled 4-4 and played 24/20(2) 13/9(2)."
    assert drawn.perspectives[-1] == 0  # the box to roll

    # The box doubles the captain: the team must answer, so the team's side.
    doubled = board_of(await room.press("bob", "Double Cy"))
    assert doubled.text.splitlines()[1] == "Bob (box) doubles Cy to 2."
    assert (drawn.perspectives[-1], doubled.board and doubled.board.turn) == (1, 1)
    _position, match = ids(doubled)
    assert (match.double_offered, match.player_on_roll, match.turn, match.cube_value) == (
        True,
        0,
        1,
        1,
    )
    taken = board_of(await room.command("cy", "/take"))
    assert taken.text.splitlines()[1] == "Cy takes the box's double: their cube is at 2."
    assert drawn.perspectives[-1] == 0
    _position, match = ids(taken)
    assert (match.double_offered, match.cube_value, match.cube_owner, match.turn) == (
        False,
        2,
        1,
        0,
    )

    # Ann, not the captain, doubles the box on her own cube: the box must answer.
    await room.command("bob", "/roll")
    game = (await current(room)).game
    assert game is not None
    await room.command("bob", f"/move {game.board.legal_plays()[0]}")
    asked = board_of(await room.command("ann", "/double"))
    assert asked.text.splitlines()[1] == "Ann doubles the box to 2."
    assert (drawn.perspectives[-1], asked.board and asked.board.turn) == (0, 0)
    _position, match = ids(asked)
    # Ann's double is not on the captain's cube: the captain's game waits for the team's roll.
    assert (match.double_offered, match.cube_value, match.player_on_roll) == (False, 2, 1)


async def test_the_board_shown_again_still_says_what_was_played_last(
    room: Room, drawn: Drawn
) -> None:
    await open_and_start(room, "ann", "bob", "cy")
    await room.command("bob", "/move 8/2 6/2")
    shown = board_of(await room.command("ann", "/chouette"))
    assert shown.text.splitlines()[1] == "Bob (box) rolled 6-4 and played 8/2 6/2."
    assert drawn.perspectives[-1] == 1


async def test_a_caption_is_in_the_chat_s_language(room: Room) -> None:
    await room.command("ann", "/defaults language de", admin=True)
    await room.command("ann", "/chouette")
    await room.command("bob", "/chouette join")
    await room.command("cy", "/chouette join")
    await room.command("cy", "/chouette start")
    # These dice: Ann is the box, Bob the captain, and Bob starts with 4-1.
    started = board_of(room.log).text.splitlines()
    assert started[:2] == ["Chouette, Spiel 1", "Bob (Kapitän) beginnt mit 4-1."]
    moved = board_of(await room.command("bob", "/move 6/5 13/9"))
    assert moved.text.splitlines()[1] == "Bob (Kapitän) hat 4-1 gewürfelt und 13/9 6/5 gezogen."


def _expected_bottom_row(loaded: LoadedChouette, viewer: int) -> str:
    """The text board's lower cells (the viewer's points 12 down to 1) for the position
    stored, read from its checkers: ``x`` the box's, ``o`` the team's."""
    game = loaded.game
    assert game is not None
    own: Position = game.board.board_for(viewer)
    cells = []
    for point in range(12, 0, -1):
        mine, theirs = own.player[point], own.opponent[25 - point]
        marks = ("x", "o") if viewer == 0 else ("o", "x")
        cell = f"{marks[0]}{mine}" if mine else f"{marks[1]}{theirs}" if theirs else "."
        cells.append(cell.ljust(3))
    return f" {''.join(cells[:6])}|   |{''.join(cells[6:])}"


async def test_the_console_board_turns_to_the_box_when_a_member_doubles_it(room: Room) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output)
    chat.session = "turned-"
    for line in ("ann: /chouette", "bob: /chouette join", "cy: /chouette join"):
        await chat.line(line)
    await chat.line("cy: /chouette start")
    loaded = await _loaded(room)
    assert loaded.game is not None
    by_id = {str(user): name for name, user in await _people(room, "ann", "bob", "cy")}
    box = by_id[loaded.game.table.box]
    captain = by_id[loaded.game.table.captain]
    # Play on until the team is at the start of its turn, then the captain doubles the box.
    for _step in range(40):
        loaded = await _loaded(room)
        game = loaded.game
        assert game is not None
        board = game.board
        if board.player_on_roll == 1 and board.phase is Phase.ROLLING:
            break
        mover = box if board.player_on_roll == 0 else captain
        if board.phase is Phase.ROLLING:
            await chat.line(f"{mover}: [Roll]")
        else:
            await chat.line(f"{mover}: /move {board.legal_plays()[0]}")
    before = len(output.getvalue())
    await chat.line(f"{captain}: /double")
    printed = output.getvalue()[before:].splitlines()
    loaded = await _loaded(room)
    bottom = printed[-3]  # above the numbers 12 … 1 and the footer
    assert printed[-2].split() == [str(point) for point in range(12, 0, -1)]
    assert bottom.rstrip() == _expected_bottom_row(loaded, 0).rstrip()  # the box's side
    assert bottom.rstrip() != _expected_bottom_row(loaded, 1).rstrip()


async def _loaded(room: Room) -> LoadedChouette:
    found = await room.stores.chats.find_chat("console", "main")
    assert found is not None
    loaded = await room.stores.chouettes.active_for_chat(found.id)
    assert loaded is not None
    return loaded


async def _people(room: Room, *names: str) -> list[tuple[str, Any]]:
    return [
        (name, (await room.stores.users.upsert_user("console", name, name)).id) for name in names
    ]
