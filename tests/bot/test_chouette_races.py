"""Two processes at one chouette table, each acting between two writes of the other: between a
game's last action and its points, between the points and the next game's opening roll, and
between reading a game left before its opening roll and writing that roll. Exactly one of them
writes each step, and neither loses its messages: the other gets the table as it is, or is told
that a game is being played already."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from bot.core.model import Message
from bot.core.service import Core
from gammon.flow import Phase
from storage import Database
from tests.bot.chouette_play_helpers import at_the_start_of_a_turn, current
from tests.bot.scripted import Room
from tests.seeds import fixed_seeds


@pytest.fixture
async def other(room: Room, migrated_url: str) -> AsyncIterator[Room]:
    """The same chat served by another process: a bot of its own on the same database."""
    database = Database(migrated_url)
    core = Core(database, render_images=False, server_seeds=fixed_seeds())
    yield Room(core, room.chat, prefix="o")
    await database.close()


def meanwhile(
    monkeypatch: pytest.MonkeyPatch,
    room: Room,
    write: str,
    other_acts: Callable[[], Awaitable[list[Message]]],
    *,
    after: bool,
) -> list[list[Message]]:
    """When ``room``'s bot next makes the chouette write ``write`` (a method of its
    repository), ``other_acts`` runs to its end just before it (or just after it, with
    ``after``), as another process would between two writes: its answer, once it ran."""
    answers: list[list[Message]] = []
    real = getattr(room.core.chouettes, write)

    async def interleaved(*arguments: Any, **options: Any) -> Any:
        if answers:
            return await real(*arguments, **options)
        if not after:
            answers.append(await other_acts())
        written = await real(*arguments, **options)
        if after:
            answers.append(await other_acts())
        return written

    monkeypatch.setattr(room.core.chouettes, write, interleaved)
    return answers


def texts(answer: list[Message]) -> str:
    return "\n".join(message.text for message in answer)


async def _both_drop_but_the_last(room: Room) -> None:
    """Three play; the box, Bob (these dice), doubles both members and the captain, Cy,
    drops: Ann's answer ends the game."""
    _people, _rng, order = await at_the_start_of_a_turn(room, 0, 2, "ann", "bob", "cy")
    assert order == ["bob", "cy", "ann"]
    await room.press("bob", "Double all")
    await room.command("cy", "/drop")


SETTLED = (
    "Every team member's game is over: the game ends.\n"
    "This game: Bob +2, Cy −1, Ann −1\n"
    "Scores: Bob +2 · Cy −1 · Ann −1"
)


async def test_a_start_typed_while_a_game_is_settled_starts_nothing(
    room: Room, other: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player types /chouette start in another process just after the game's points were
    written: the settlement started the next game in that same write, so the start is told
    that a game is being played already, and the settlement's messages all go out, the new
    board with them."""
    await _both_drop_but_the_last(room)
    started = meanwhile(
        monkeypatch,
        room,
        "finish_game",
        lambda: other.command("bob", "/chouette start"),
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
    room: Room, other: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player types /roll in another process between the points (and the next game's start)
    and the next game's opening roll: that process makes the opening roll; the settling one
    finds it made and shows the table as it is, after the settlement's messages."""
    await _both_drop_but_the_last(room)
    rolled = meanwhile(
        monkeypatch, room, "finish_game", lambda: other.command("bob", "/roll"), after=True
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
    room: Room, other: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The third's drop ends the game; before that process writes the points, a player's
    /roll in another process settles it. The drop's own note still goes out, with the table
    as it is; the game is settled once."""
    await _both_drop_but_the_last(room)
    settling = meanwhile(
        monkeypatch, room, "finish_game", lambda: other.command("bob", "/roll"), after=False
    )
    dropped = await room.command("ann", "/drop")
    assert texts(settling[0]).startswith(SETTLED.splitlines()[0])
    assert dropped[0].text == "Ann drops the box's double and pays 1."
    assert "went wrong" not in texts(dropped)
    assert "This game:" not in texts(dropped)
    assert dropped[-1].text.startswith("Chouette, game 2\n")
    assert len((await current(room)).games) == 1


async def test_a_roll_pressed_on_a_game_left_before_its_opening_roll_as_another_makes_it(
    room: Room, other: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopped after starting a game, before its opening roll. A player presses the
    board's [Roll]; while that process reads the game, another one's /roll makes the opening
    roll: the press shows the table as it is, not an apology, and one opening roll is made."""
    for name in ("ann", "bob", "cy"):
        await room.command(name, "/chouette join" if name != "ann" else "/chouette")
    info = (await current(room)).info
    info = await room.core.chouettes.set_client_seed(info.id, info.version, "test:seed")
    await room.core.chouettes.start_game(info.id, info.version, list(info.seats))
    await room.command("bob", "/chouette")
    rolled = meanwhile(
        monkeypatch, room, "append", lambda: other.command("cy", "/roll"), after=False
    )
    pressed = await room.press("ann", "Roll")
    assert "Opening roll: Ann" in texts(rolled[0])
    assert "went wrong" not in texts(pressed)
    assert "Opening roll:" not in texts(pressed)
    assert pressed[-1].text.startswith("Chouette, game 1\n")
    assert pressed[-1].board == rolled[0][-1].board
