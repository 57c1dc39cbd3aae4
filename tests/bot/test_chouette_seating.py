"""Joining and leaving a chouette: between games at once, during a game when it ends; a
request taken back by the other kind, a request made twice, a seat that the game's end frees,
and seat changes that meet another process's."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.core.model import ChatRef
from bot.core.service import Core
from storage import ChouetteInfo, Database
from tests.bot.chouette_play_helpers import (
    current,
    ids,
    name_of,
    open_and_start,
    play_until_rolling,
)
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds
from tests.storage.pauses import pause_after_first_statement

# Races between processes: each database settles them its own way.
pytestmark = pytest.mark.both_databases


async def _end_the_game(room: Room, people: dict[str, int], seed: int) -> None:
    """The box doubles everyone and every member drops: the game ends at once."""
    game = await play_until_rolling(room, people, 0, random.Random(seed))
    box, *team = (name_of(people, player) for player in game.table.order)
    await room.press(box, "Double all")
    for member in team:
        await room.command(member, "/drop")


async def test_a_request_during_a_game_is_taken_back_by_the_other_kind(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    third = name_of(people, (await current(room)).game.table.order[2])  # type: ignore[union-attr]
    await room.command("dee", "/chouette join")
    back = await room.command("dee", "/chouette leave")
    assert back[0].text == "Dee will not sit down after all."
    assert back[0].private_to is None  # the table reads it
    await room.command(third, "/chouette leave")
    stays = await room.command(third, "/chouette join")
    assert stays[0].text == f"{third.title()} stays at the table."
    await _end_the_game(room, people, 1)
    seats = (await current(room)).info.seats
    assert sorted(seats) == sorted(people.values())  # nobody left, Dee did not sit down


async def test_a_request_made_twice_is_answered_privately(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    await room.command("dee", "/chouette join")
    again = await room.command("dee", "/chouette join")
    assert again[0].text == "You asked already: you sit down when this game ends."
    assert again[0].private_to == "dee"
    leaver = name_of(people, (await current(room)).info.table.order[1])
    await room.command(leaver, "/chouette leave")
    twice = await room.command(leaver, "/chouette leave")
    assert twice[0].text == "You asked already: you leave the table when this game ends."
    assert twice[0].private_to == leaver


async def test_a_seat_the_game_frees_may_be_asked_for_during_it(room: Room) -> None:
    names = ("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8")
    people = await open_and_start(room, *names)
    leaver = name_of(people, (await current(room)).info.table.order[3])
    await room.command(leaver, "/chouette leave")
    joined = await room.command("a9", "/chouette join")
    assert joined[0].text == "A9 sits down at the end of the line when this game ends."
    full = await room.command("a10", "/chouette join")
    assert full[0].text == "The table is full: a chouette seats at most eight players."
    back = await room.command(leaver, "/chouette join")  # too late: A9 was promised the seat
    assert [(message.text, message.private_to) for message in back] == [
        (
            "Your seat is promised to a player who asked to join: you leave the table when "
            "this game ends.",
            leaver,
        )
    ]
    await _end_the_game(room, people, 2)
    seats = (await current(room)).info.seats
    newcomer = (await ids(room, "a9"))["a9"]
    assert len(seats) == 8
    assert seats[-1] == newcomer
    assert people[leaver] not in seats


async def test_a_join_meeting_another_process_s_join_is_seated(room: Room) -> None:
    await room.command("ann", "/chouette")
    await room.command("bob", "/chouette join")
    repository = room.stores.chouettes
    original = repository.join
    other = (await ids(room, "cy"))["cy"]
    calls = 0

    async def join_after_another(
        chouette_id: int, user_id: int, version: int, **options: Any
    ) -> ChouetteInfo:
        """Another process seats Cy at the version this request read, just before."""
        nonlocal calls
        calls += 1
        if calls == 1:
            await original(chouette_id, other, version, **options)
        return await original(chouette_id, user_id, version, **options)

    repository.join = join_after_another  # type: ignore[method-assign]
    answer = await room.command("dee", "/chouette join")
    assert answer[0].text == "Dee sits down at the chouette."
    assert len((await current(room)).info.seats) == 4


async def test_the_board_names_in_its_scores_a_player_who_left(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", "dee")
    leaver = name_of(people, (await current(room)).info.table.order[2])
    await room.command(leaver, "/chouette leave")
    await _end_the_game(room, people, 3)
    board = room.log[-1]
    assert board.text.startswith("Chouette, game 2")
    scores = board.text.splitlines()[-2]  # above the gnubg IDs
    assert f"{leaver.title()} −1" in scores
    assert "?" not in scores


async def test_options_for_a_table_that_is_open_already_are_refused(room: Room) -> None:
    await room.command("ann", "/chouette")
    answer = await room.command("bob", "/chouette captain jacoby")
    assert answer[0].text == (
        "This chat has a chouette table already; its options stay as they are."
    )
    assert answer[0].private_to == "bob"
    assert answer[1].text.startswith("Chouette (the team may advise the captain)")
    shown = await room.command("bob", "/chouette")  # the bare command just shows it
    assert shown[0].text.startswith("Chouette (the team may advise the captain)")


async def test_a_play_command_between_games_says_no_game_is_being_played(room: Room) -> None:
    await room.command("ann", "/chouette")
    await room.command("bob", "/chouette join")
    answer = await room.command("bob", "/roll")
    assert answer[0].text == "No chouette game is being played here."
    assert answer[0].private_to == "bob"
    number = (await current(room)).info.id
    private = Room(room.core, ChatRef(PLATFORM, "@bob", private=True), prefix="p-")
    named = await private.command("bob", f"/roll #c{number}")
    assert named[0].text == f"No game is being played at chouette #c{number} now."
    stranger = await room.command("eve", "/roll")  # not at the table: their match is meant
    assert stranger[0].text.startswith("You have no match in this chat")


async def test_the_last_seat_asked_for_in_two_processes_at_once_goes_to_one(
    migrated_url: str,
) -> None:
    """Seven play; two newcomers ask for the last seat at the same moment, each through
    another process, the second while the first stands still at its first statement on the
    requests (where it read them, or wrote its own): one is promised the seat, the other is
    refused at once, and the game's end seats the one."""
    first, second = Database(migrated_url), Database(migrated_url)
    await first.migrate()
    chat = ChatRef(PLATFORM, "group")
    one = Room(Core(first, render_images=False, server_seeds=fixed_seeds()), chat, prefix="one-")
    two = Room(Core(second, render_images=False, server_seeds=fixed_seeds()), chat, prefix="two-")
    try:
        people = await open_and_start(one, "a1", "a2", "a3", "a4", "a5", "a6", "a7")
        paused = pause_after_first_statement(first, "chouette_requests", seconds=1.0)
        slow = asyncio.create_task(one.command("a8", "/chouette join"))
        assert await asyncio.to_thread(paused.wait, 5)
        refused = await two.command("a9", "/chouette join")
        assert [(message.text, message.private_to) for message in refused] == [
            ("The table is full: a chouette seats at most eight players.", "a9")
        ]
        joined = await slow
        assert joined[0].text == "A8 sits down at the end of the line when this game ends."
        await _end_the_game(one, people, 2)
        seats = (await current(one)).info.seats
        assert len(seats) == 8
        assert seats[-1] == (await ids(one, "a8"))["a8"]
    finally:
        await first.close()
        await second.close()
