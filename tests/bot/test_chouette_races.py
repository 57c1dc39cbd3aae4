"""Two processes at one chouette table, each acting between two writes of the other: between a
game's last action and its points, between the points and the next game's opening roll, and
between reading a game left before its opening roll and writing that roll. Exactly one of them
writes each step, and neither loses its messages: the other gets the table as it is, or is told
that a game is being played already."""

from __future__ import annotations

import pytest

from gammon.flow import Phase
from tests.bot.chouette_play_helpers import current
from tests.bot.chouette_race_helpers import SETTLED, both_drop_but_the_last, meanwhile, texts
from tests.bot.scripted import Room

# Races between processes: each database settles them its own way.
pytestmark = pytest.mark.both_databases


async def test_a_start_typed_while_a_game_is_settled_starts_nothing(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player types /chouette start in another process just after the game's points were
    written: the settlement started the next game in that same write, so the start is told
    that a game is being played already, and the settlement's messages all go out, the new
    board with them."""
    await both_drop_but_the_last(room)
    started = meanwhile(
        monkeypatch,
        room,
        "finish_game",
        lambda: other_process.command("bob", "/chouette start"),
        after=True,
    )
    settled = await room.command("ann", "/drop")
    assert [texts(answer) for answer in started] == ["A game is being played already."]
    assert settled[1].text == SETTLED
    assert settled[2].text.startswith("Game 2: Box: Bob · captain: Ann · then: Cy\nOpening roll:")
    assert settled[-1].text.startswith("Chouette, game 2\n")
    after = await current(room)
    assert (after.info.game_number, len(after.games)) == (2, 1)
    assert after.game is not None
    assert after.game.board.phase is not Phase.OPENING


async def test_a_roll_typed_before_the_next_opening_roll_makes_it_once(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player types /roll in another process between the points (and the next game's start)
    and the next game's opening roll: that process makes the opening roll; the settling one
    finds it made and shows the table as it is, after the settlement's messages."""
    await both_drop_but_the_last(room)
    rolled = meanwhile(
        monkeypatch, room, "finish_game", lambda: other_process.command("bob", "/roll"), after=True
    )
    settled = await room.command("ann", "/drop")
    assert texts(rolled[0]).startswith("Game 2: Box: Bob · captain: Ann · then: Cy\nOpening roll:")
    assert settled[1].text == SETTLED
    assert "Opening roll:" not in texts(settled)
    assert "went wrong" not in texts(settled)
    assert settled[-1].text.startswith("Chouette, game 2\n")
    assert settled[-1].board == rolled[0][-1].board
    assert len((await current(room)).games) == 1


async def test_a_player_settling_the_game_first_leaves_the_last_answer_its_messages(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The third's drop ends the game; before that process writes the points, a player's
    /roll in another process settles it. The drop's own note still goes out, with the table
    as it is; the game is settled once."""
    await both_drop_but_the_last(room)
    settling = meanwhile(
        monkeypatch, room, "finish_game", lambda: other_process.command("bob", "/roll"), after=False
    )
    dropped = await room.command("ann", "/drop")
    assert texts(settling[0]).startswith(SETTLED.splitlines()[0])
    assert dropped[0].text == "Ann drops the box's double and pays 1."
    assert "went wrong" not in texts(dropped)
    assert "This game:" not in texts(dropped)
    assert dropped[-1].text.startswith("Chouette, game 2\n")
    assert len((await current(room)).games) == 1


async def test_a_roll_pressed_on_a_game_left_before_its_opening_roll_as_another_makes_it(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped after starting a game, before its opening roll. A player presses the
    board's [Roll]; while that process reads the game, another one's /roll makes the opening
    roll: the press shows the table as it is, not an apology, and one opening roll is made."""
    for name in ("ann", "bob", "cy"):
        await room.command(name, "/chouette join" if name != "ann" else "/chouette")
    info = (await current(room)).info
    info = await room.stores.chouettes.set_client_seed(info.id, info.version, "test:seed")
    await room.stores.chouettes.start_game(info.id, info.version, list(info.seats))
    await room.command("bob", "/chouette")
    rolled = meanwhile(
        monkeypatch, room, "append", lambda: other_process.command("cy", "/roll"), after=False
    )
    pressed = await room.press("ann", "Roll")
    assert "Opening roll: Ann" in texts(rolled[0])
    assert "went wrong" not in texts(pressed)
    assert "Opening roll:" not in texts(pressed)
    assert pressed[-1].text.startswith("Chouette, game 1\n")
    assert pressed[-1].board == rolled[0][-1].board
