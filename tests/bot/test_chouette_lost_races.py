"""Two processes at one chouette table, one of them losing a race: between its read of the
table and its write, the other process starts the game, ends the session, plays, or its clock
decides a game. The loser's answer says what happened (a game is being played already, the
session has ended, or the question before ending a game that started meanwhile), on either
database, and nobody is told "Sorry, something went wrong"."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest

from bot.core.model import ChatRef, Message
from bot.core.service import Core
from gammon.flow import Phase
from storage import ChouetteInfo, ChouetteStatus, Database
from tests.bot.chouette_play_helpers import (
    at_the_start_of_a_turn,
    current,
    ids,
    open_and_start,
)
from tests.bot.chouette_race_helpers import (
    SETTLED,
    Marks,
    before,
    both_drop_but_the_last,
    meanwhile,
    texts,
)
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds

# Races between processes: each database settles them its own way.
pytestmark = pytest.mark.both_databases

ENDED = (
    "This chouette has ended already. Open a new table with /chouette.\n"
    "Scores: no game finished yet."
)
ASKED = (
    "Game 1 is being played. Ending the session now abandons it: that game scores no points, "
    "and the scores stay as they were after the last finished game. End the session?"
)


def answered(answer: list[Message]) -> list[tuple[str, str | None]]:
    """Each message's text and whom alone it is for (None: the chat)."""
    return [(message.text, message.private_to) for message in answer]


def public(answer: list[Message]) -> list[str]:
    return [message.text for message in answer if message.private_to is None]


async def seated(room: Room) -> None:
    """Ann opens a table (she is its host), Bob and Cy sit down: no game yet."""
    await room.command("ann", "/chouette")
    for name in ("bob", "cy"):
        await room.command(name, "/chouette join")


async def asked_in(process: Room, name: str = "dee") -> None:
    """``name`` (an administrator, by default) asks to end the session in ``process``, whose
    log then holds their [End the session]."""
    answer = await process.command(name, "/chouette end", admin=True)
    assert answer[0].text.startswith("Game "), answer


# --- start against start, and against an end ------------------------------------------------


async def test_of_two_starts_at_once_the_one_beaten_twice_is_told_a_game_is_being_played(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob and Cy type /chouette start in two processes; both read the table before either
    wrote. Bob's process fixes the client seed first, so Cy's tries again against the table
    with that seed; then Bob's starts the game before Cy's can: Cy is told that a game is
    being played already, and one game starts, with one opening roll."""
    await seated(room)
    marks = Marks()
    before(monkeypatch, other_process, "set_client_seed", lambda: marks.wait("cy read"))
    before(monkeypatch, other_process, "start_game", marks.step("bob seeded", "cy starts"))
    by_bob = asyncio.create_task(other_process.command("bob", "/chouette start"))
    before(monkeypatch, room, "set_client_seed", marks.step("cy read", "bob seeded"))

    async def bob_starts() -> None:
        marks.reach("cy starts")
        await by_bob

    before(monkeypatch, room, "start_game", bob_starts)
    by_cy = await room.command("cy", "/chouette start")
    started = await by_bob
    assert answered(by_cy) == [("A game is being played already.", "cy")]
    assert started[0].text.startswith("Seating dice: ")
    assert started[-1].text.startswith("Chouette, game 1\n")
    after = await current(room)
    assert (after.info.status, after.info.game_number) == (ChouetteStatus.PLAYING, 1)
    assert after.info.client_seed == f"{PLATFORM}:o1"  # Bob's process's message
    assert after.game is not None
    assert after.game.board.phase is not Phase.OPENING


async def test_a_start_beaten_by_an_end_is_told_the_session_has_ended(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cy's /chouette start read the table; before its first write, Ann ends the session in
    another process: the start is told that the session has ended, not that a game is being
    played."""
    await seated(room)
    ended = meanwhile(
        monkeypatch,
        room,
        "set_client_seed",
        lambda: other_process.command("ann", "/chouette end"),
        after=False,
    )
    by_cy = await room.command("cy", "/chouette start")
    assert public(ended[0])[0].startswith("The chouette is over. Games played: 0.\n")
    assert answered(by_cy) == [(ENDED, "cy")]
    assert (await room.stores.chouettes.info(1)).status is ChouetteStatus.ENDED


async def test_an_end_beaten_by_a_start_asks_first(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann types /chouette end between games; before her process writes the end, Bob's
    /chouette start in another process starts the first game. Ann is asked first, as for
    any end during a game, and the game goes on until she answers."""
    await seated(room)
    started = meanwhile(
        monkeypatch,
        room,
        "end",
        lambda: other_process.command("bob", "/chouette start"),
        after=False,
    )
    asked = await room.command("ann", "/chouette end")
    assert texts(started[0]).startswith("Seating dice: ")
    assert answered(asked) == [(ASKED, "ann")]
    assert [button.label for button in asked[0].buttons] == ["End the session", "Keep playing"]
    assert (await current(room)).info.status is ChouetteStatus.PLAYING


async def test_an_open_refused_for_a_table_ended_since_opens_one(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's /chouette found no table; before her process writes the new one, Bob opens one
    in another process, so hers is refused; Bob ends his before her process reads what is
    open. The chat is free again, and Ann's table opens."""
    real = room.stores.chouettes.open_table
    by_bob: list[list[Message]] = []

    async def interleaved(*arguments: Any, **options: Any) -> ChouetteInfo:
        if by_bob:
            return await real(*arguments, **options)
        by_bob.append(await other_process.command("bob", "/chouette"))
        try:
            return await real(*arguments, **options)
        finally:
            by_bob.append(await other_process.command("bob", "/chouette end"))

    monkeypatch.setattr(room.stores.chouettes, "open_table", interleaved)
    opened = await room.command("ann", "/chouette")
    assert texts(by_bob[0]).startswith("Bob opens a chouette table (")
    assert texts(by_bob[1]).startswith("The chouette is over. Games played: 0.\n")
    assert answered(opened)[0][0].startswith("Ann opens a chouette table (")
    assert (await current(room)).info.host_id == (await ids(room, "ann"))["ann"]


# --- end against end ------------------------------------------------------------------------


async def test_of_two_ends_typed_at_once_the_later_is_told_it_has_ended(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between games Ann (the host) and Dee (an administrator) type /chouette end in two
    processes; Dee's writes first: Ann is told that the session has ended already, with its
    final scores, and the session ended once."""
    await seated(room)
    by_dee = meanwhile(
        monkeypatch,
        room,
        "end",
        lambda: other_process.command("dee", "/chouette end", admin=True),
        after=False,
    )
    by_ann = await room.command("ann", "/chouette end")
    assert public(by_dee[0])[0].splitlines()[:2] == [
        "The chouette is over. Games played: 0.",
        "Scores: no game finished yet.",
    ]
    assert answered(by_ann) == [(ENDED, "ann")]


async def test_an_end_that_found_the_table_before_another_ended_it_is_told_it_has_ended(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's /chouette end found the open table; Dee's end in another process is written
    before Ann's process reads the table again: Ann is told that it has ended already (not
    that a button is out of date: she pressed none)."""
    await seated(room)
    meanwhile(
        monkeypatch,
        room,
        "active_for_chat",
        lambda: other_process.command("dee", "/chouette end", admin=True),
        after=True,
    )
    assert answered(await room.command("ann", "/chouette end")) == [(ENDED, "ann")]


@pytest.mark.parametrize(
    ("name", "command"),
    [("ann", "/chouette end"), ("cy", "/chouette start"), ("dee", "/chouette join")],
)
async def test_a_command_read_after_another_process_ended_the_session_is_told_so(
    room: Room, other_process: Room, name: str, command: str
) -> None:
    """The other process's end was written before this command read anything: it is told
    that the chat's chouette has ended, with its final scores (not that there is none)."""
    await seated(room)
    await other_process.command("ann", "/chouette end")
    assert answered(await room.command(name, command)) == [(ENDED, name)]


async def test_of_two_presses_of_end_session_the_later_is_told_it_has_ended(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """During a game Ann and Dee (an administrator) each asked to end it, in two processes,
    and both press [End the session]; Dee's end is written first. Ann is told that it has
    ended already, and so is a second press of hers."""
    await open_and_start(room, "ann", "bob", "cy")
    await asked_in(room, "ann")
    await asked_in(other_process)
    by_dee = meanwhile(
        monkeypatch,
        room,
        "end",
        lambda: other_process.press("dee", "End the session"),
        after=False,
    )
    by_ann = await room.press("ann", "End the session")
    assert public(by_dee[0])[0].splitlines()[:3] == [
        "The chouette is over. Games played: 0.",
        "Game 1 was abandoned: it scores no points.",
        "Scores: no game finished yet.",
    ]
    assert answered(by_ann) == [(ENDED, "ann")]
    assert answered(await room.press("ann", "End the session")) == [(ENDED, "ann")]


# --- end against a play ---------------------------------------------------------------------


async def test_an_end_pressed_while_another_process_writes_a_roll_ends_the_game_as_it_is(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann pressed [End the session]; before her process writes the end, Bob (the box) rolls
    in another process. The end is written after the roll, against the game as it is then."""
    await at_the_start_of_a_turn(room, 0, 2, "ann", "bob", "cy")
    await asked_in(room, "ann")
    rolled = meanwhile(
        monkeypatch, room, "end", lambda: other_process.command("bob", "/roll"), after=False
    )
    ended = await room.press("ann", "End the session")
    assert texts(rolled[0]).startswith("Chouette, game 1\nBob (box) rolled ")
    assert public(ended)[0].splitlines()[:3] == [
        "The chouette is over. Games played: 0.",
        "Game 1 was abandoned: it scores no points.",
        "Scores: no game finished yet.",
    ]


@pytest.mark.parametrize("pressed", [False, True], ids=["typed", "pressed"])
async def test_a_roll_beaten_by_an_end_is_told_the_session_has_ended(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch, pressed: bool
) -> None:
    """Bob (the box) types /roll or presses [Roll]; before his process writes the roll, Dee
    ends the session in another process: Bob is told that it has ended, and nothing is
    written after the end."""
    await at_the_start_of_a_turn(room, 0, 2, "ann", "bob", "cy")
    await asked_in(other_process)
    ended = meanwhile(
        monkeypatch,
        room,
        "append",
        lambda: other_process.press("dee", "End the session"),
        after=False,
    )
    version = (await current(room)).info.version
    rolled = await (room.press("bob", "Roll") if pressed else room.command("bob", "/roll"))
    assert public(ended[0])[0].startswith("The chouette is over. Games played: 0.\n")
    assert answered(rolled) == [(ENDED, "bob")]
    assert (await room.stores.chouettes.info(1)).version == version + 1  # the end's write only


async def test_an_end_just_after_the_last_play_settled_the_game(
    room: Room, other_process: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann's drop ends game 1; her process writes its points and starts game 2, and then,
    before it rolls game 2's opening roll, Dee's end is written in another process. Ann's
    answer still has the settlement, then says that the session has ended, with the final
    scores (game 1's); game 2 is abandoned."""
    await both_drop_but_the_last(room)
    await asked_in(other_process)
    ended = meanwhile(
        monkeypatch,
        room,
        "finish_game",
        lambda: other_process.press("dee", "End the session"),
        after=True,
    )
    dropped = await room.command("ann", "/drop")
    scores = "Scores: Bob +2 · Cy −1 · Ann −1"
    assert public(ended[0])[0].splitlines()[:3] == [
        "The chouette is over. Games played: 1.",
        "Game 2 was abandoned: it scores no points.",
        scores,
    ]
    assert answered(dropped) == [
        ("Ann drops the box's double and pays 1.", None),
        (SETTLED, None),
        (ENDED.replace("Scores: no game finished yet.", scores), "ann"),
    ]


# --- joining and leaving against an end -----------------------------------------------------


@pytest.mark.parametrize("during_a_game", [False, True], ids=["between-games", "during-a-game"])
@pytest.mark.parametrize(("name", "command"), [("dee", "join"), ("cy", "leave")])
async def test_a_seat_change_beaten_by_an_end_is_told_the_session_has_ended(
    room: Room,
    other_process: Room,
    monkeypatch: pytest.MonkeyPatch,
    during_a_game: bool,
    name: str,
    command: str,
) -> None:
    """Dee's /chouette join or Cy's /chouette leave read the table; before its write (at once
    between games, a request during one), the session is ended in another process: the
    answer says that it has ended."""
    if during_a_game:
        await open_and_start(room, "ann", "bob", "cy")
        await asked_in(other_process, "ann")
        write = "request"
        end = partial(other_process.press, "ann", "End the session")
    else:
        await seated(room)
        write = command
        end = partial(other_process.command, "ann", "/chouette end")
    ended = meanwhile(monkeypatch, room, write, end, after=False)
    changed = await room.command(name, f"/chouette {command}")
    assert public(ended[0])[0].startswith("The chouette is over. Games played: 0.\n")
    assert answered(changed) == [(ENDED, name)]
    assert await room.stores.chouettes.requests(1) == []


# --- the clock against an end ---------------------------------------------------------------


class FakeTime:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 29, 12, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


Clocked = tuple[Room, Room, FakeTime]


@pytest.fixture
async def clocked(migrated_url: str) -> AsyncIterator[Clocked]:
    """Two processes on one chat, on one database, with one made-up time: a table with a
    one-hour move time limit, its first game started, whose move time is up."""
    time = FakeTime()
    databases = Database(migrated_url), Database(migrated_url)
    chat = ChatRef(PLATFORM, "group-1")
    room, other = (
        Room(
            Core(database, render_images=False, clock=time, server_seeds=fixed_seeds()),
            chat,
            prefix=prefix,
        )
        for database, prefix in zip(databases, ("e", "o"), strict=True)
    )
    await open_and_start(room, "ann", "bob", "cy", options="time=1h")
    deadline = (await current(room)).info.deadline
    assert deadline is not None
    time.now = deadline + timedelta(seconds=1)
    yield room, other, time
    for database in databases:
        await database.close()


async def test_an_end_pressed_as_the_clock_decides_the_game_ends_the_next_one(
    clocked: Clocked, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann pressed [End the session] as the move time ran out; before her process writes the
    end, the other process's clock decides game 1 (the late side loses it) and starts game
    2. The end is written after that: game 1 counts, game 2 is abandoned."""
    room, other, _time = clocked
    await asked_in(room, "ann")
    ticked = meanwhile(monkeypatch, room, "end", lambda: other.core.ports.clock.tick(), after=False)
    ended = await room.press("ann", "End the session")
    assert "has run out of time" in texts(ticked[0])
    assert public(ended)[0].splitlines()[:2] == [
        "The chouette is over. Games played: 1.",
        "Game 2 was abandoned: it scores no points.",
    ]


async def test_the_clock_beaten_by_an_end_says_nothing(
    clocked: Clocked, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock was about to write game 1's points when the session was ended in another
    process: it writes nothing and says nothing; the end's message said that game 1 was
    abandoned."""
    room, other, _time = clocked
    await asked_in(other)
    ended = meanwhile(
        monkeypatch, room, "finish_game", lambda: other.press("dee", "End the session"), after=False
    )
    assert await room.core.ports.clock.tick() == []
    assert public(ended[0])[0].splitlines()[:2] == [
        "The chouette is over. Games played: 0.",
        "Game 1 was abandoned: it scores no points.",
    ]


async def test_an_end_just_after_the_clock_decided_the_game(
    clocked: Clocked, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock wrote game 1's points and started game 2; before it rolls game 2's opening
    roll, the session is ended in another process. The clock's messages still go out (the
    time-up, the settlement), and nothing more: the end's message says the rest."""
    room, other, _time = clocked
    await asked_in(other)
    ended = meanwhile(
        monkeypatch, room, "finish_game", lambda: other.press("dee", "End the session"), after=True
    )
    ticked = await room.core.ports.clock.tick()
    assert len(ticked) == 2
    assert "has run out of time" in ticked[0].text
    assert "This game:" in ticked[1].text
    assert all(message.private_to is None for message in ticked)
    assert public(ended[0])[0].splitlines()[:2] == [
        "The chouette is over. Games played: 1.",
        "Game 2 was abandoned: it scores no points.",
    ]


# --- many rounds at once --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "lost"),
    [
        (("bob", "/chouette start"), ("cy", "/chouette start"), "A game is being played already."),
        (("ann", "/chouette end"), ("dee", "/chouette end"), ENDED),
    ],
    ids=["start-start", "end-end"],
)
async def test_two_processes_at_once_round_after_round(
    room: Room,
    other_process: Room,
    first: tuple[str, str],
    second: tuple[str, str],
    lost: str,
) -> None:
    """30 rounds, each in a chat of its own, of the same two commands typed in two processes
    at the same moment (however the database interleaves them): one of them does it, the
    other is told what happened instead, and never "Sorry"."""
    for number in range(30):
        chat = ChatRef(PLATFORM, f"group-{number + 2}")
        here = Room(room.core, chat, prefix=f"e{number}-")
        there = Room(other_process.core, chat, prefix=f"o{number}-")
        await seated(here)
        answers = await asyncio.gather(
            here.command(*first),
            there.command(second[0], second[1], admin=True),
        )
        refused = [answer for answer in answers if answer[0].private_to is not None]
        assert [answered(answer) for answer in refused] == [
            [(lost, answer[0].private_to)] for answer in refused
        ], answers
        assert len(refused) == 1, [texts(answer) for answer in answers]
