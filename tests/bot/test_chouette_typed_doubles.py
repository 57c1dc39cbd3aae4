"""/double typed at a chouette: the box doubles the members it names (every member it may
double when it names none); a member doubles the box only on their own cube."""

from __future__ import annotations

import random

from tests.bot.chouette_play_helpers import (
    at_the_start_of_a_turn,
    current,
    name_of,
    open_and_start,
    play_until_rolling,
)
from tests.bot.scripted import Room


async def test_the_box_doubles_only_the_members_it_names(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", "dee", "eve")
    game = await play_until_rolling(room, people, 0, random.Random(3))
    box, _captain, second, _third, fourth = (name_of(people, p) for p in game.table.order)
    doubled = await room.command(box, f"/double {second} @{fourth}")
    assert doubled[0].text == f"{box.title()} (box) doubles {second.title()}, {fourth.title()}."
    after = (await current(room)).game
    assert after is not None
    waiting = {name_of(people, cube.member) for cube in after.pending}
    assert waiting == {second, fourth}


async def test_a_mention_alone_doubles_that_member(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(4))
    box, captain, _second = (name_of(people, p) for p in game.table.order)
    doubled = await room.command(box, f"/double @{captain}")
    assert doubled[0].text == f"{box.title()} (box) doubles {captain.title()}."
    after = (await current(room)).game
    assert after is not None
    assert [name_of(people, cube.member) for cube in after.pending] == [captain]


async def test_a_name_the_box_cannot_double_is_refused_and_nothing_doubled(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(5))
    box, captain, _second = (name_of(people, p) for p in game.table.order)
    stranger = await room.command(box, f"/double {captain} zed")
    assert stranger[0].text == "Nobody called \u2068zed\u2069 plays at this table."  # as typed
    assert stranger[0].private_to == box
    itself = await room.command(box, f"/double {box}")
    assert itself[0].text == "You are the box: name the members of the team you double."
    after = (await current(room)).game
    assert after is not None
    assert after.pending == ()


async def test_a_member_doubles_only_their_own_cube(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 1, random.Random(6))
    box, captain, second = (name_of(people, p) for p in game.table.order)
    other = await room.command(second, f"/double {captain}")
    assert other[0].text == (
        "Each member doubles only the box, on their own cube: type /double without a name."
    )
    after = (await current(room)).game
    assert after is not None
    assert after.pending == ()
    own = await room.command(second, f"/double {box}")  # the box is whom a member doubles
    assert own[0].text == f"{second.title()} doubles the box to 2."


async def test_double_all_doubles_every_member_and_is_no_name(room: Room) -> None:
    """The word all is not read as the start of Allan's name: the box doubles the team."""
    people, _rng, (box, captain, second) = await at_the_start_of_a_turn(
        room, 0, 7, "ann", "bob", "allan"
    )
    doubled = await room.command(box, "/double All")
    assert doubled[0].text == f"{box.title()} (box) doubles {captain.title()}, {second.title()}."
    after = (await current(room)).game
    assert after is not None
    assert {name_of(people, cube.member) for cube in after.pending} == {captain, second}


async def test_a_member_s_double_all_is_refused(room: Room) -> None:
    _people, _rng, (_box, _captain, second) = await at_the_start_of_a_turn(
        room, 1, 6, "ann", "bob", "cy"
    )
    refused = await room.command(second, "/double all")
    assert refused[0].text == (
        "Each member doubles only the box, on their own cube: type /double without a name."
    )
    after = (await current(room)).game
    assert after is not None
    assert after.pending == ()
