"""/take, /drop and /beaver typed at a chouette: each member answers the box's double on their
own cube; the box names the member whose double it answers, and may leave the name out only
when one member's double waits."""

from __future__ import annotations

import random

import pytest

from bot.core.chouette.answers import named_player
from bot.core.model import Actor
from bot.core.refusal import Refusal
from bot.core.text.i18n import speech
from gammon.chouette import CubeOwner
from storage import UserRecord
from tests.bot.chouette_play_helpers import current, name_of, open_and_start, play_until_rolling
from tests.bot.scripted import PLATFORM, Room


async def test_the_box_doubles_two_members_and_each_types_an_answer(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(3))
    box, captain, second = (name_of(people, player) for player in game.table.order)
    doubled = await room.command(box, "/double")
    assert doubled[0].text == f"{box.title()} (box) doubles {captain.title()}, {second.title()}."
    taken = await room.command(captain, "/take")
    assert taken[0].text == f"{captain.title()} takes the box's double: their cube is at 2."
    dropped = await room.command(second, "/drop")
    assert dropped[0].text == f"{second.title()} drops the box's double and pays 1."
    after = (await current(room)).game
    assert after is not None
    assert [(cube.value, cube.owner, cube.live) for cube in after.cubes] == [
        (2, CubeOwner.MEMBER, True),
        (1, CubeOwner.CENTRE, False),
    ]
    again = await room.command(captain, "/take")
    assert again[0].text == "No double waits for your answer."
    assert again[0].private_to == captain


async def test_a_member_doubles_and_the_box_takes_by_mention_or_drops_by_name(
    room: Room,
) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", "dee")
    game = await play_until_rolling(room, people, 1, random.Random(7))
    box, captain, second, third = (name_of(people, player) for player in game.table.order)
    await room.command(captain, "/double")
    taken = await room.command(box, f"/take @{captain}")
    assert taken[0].text == (
        f"{box.title()} (box) takes {captain.title()}'s double: that cube is at 2."
    )
    await room.command(second, "/double")
    dropped = await room.command(box, f"/drop {second.upper()}")  # a name, in any case
    assert dropped[0].text == f"{box.title()} (box) drops {second.title()}'s double and pays 1."
    after = (await current(room)).game
    assert after is not None
    assert [(cube.value, cube.owner, cube.live) for cube in after.cubes] == [
        (2, CubeOwner.BOX, True),
        (1, CubeOwner.CENTRE, False),
        (1, CubeOwner.CENTRE, True),
    ]
    assert third


async def test_the_box_answers_one_waiting_double_without_a_name_but_not_two(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 1, random.Random(12))
    box, captain, second = (name_of(people, player) for player in game.table.order)
    nothing = await room.command(box, "/take")
    assert nothing[0].text == "No double waits for your answer."
    await room.command(captain, "/double")
    await room.command(second, "/double")
    both = f"{captain.title()}, {second.title()}"
    for command in ("take", "drop", "beaver"):
        refused = await room.command(box, f"/{command}")
        assert refused[0].text == (
            f"Several doubles wait for you: {both}. Answer one with /{command} NAME."
        )
        assert refused[0].private_to == box
    loaded = await current(room)
    assert loaded.game is not None
    assert len(loaded.game.pending) == 2
    await room.command(box, f"/drop @{captain}")
    only = await room.command(box, "/take")  # one double waits now: that one is meant
    assert only[0].text == (
        f"{box.title()} (box) takes {second.title()}'s double: that cube is at 2."
    )


async def test_names_that_do_not_fit_are_refused(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(5))
    box, captain, second = (name_of(people, player) for player in game.table.order)
    await room.command(box, "/double")
    other = await room.command(captain, f"/take @{second}")
    assert other[0].text == (
        "Each member answers only the double on their own cube: type /take without a name."
    )
    stranger = await room.command(box, "/take @eve")
    assert stranger[0].text == "Nobody called Eve plays at this table."
    # Naming oneself, or the box whose double it is, is the same as naming nobody.
    own = await room.command(captain, f"/take @{captain}")
    assert own[0].text.startswith(f"{captain.title()} takes the box's double")
    boxed = await room.command(second, f"/drop {box}")
    assert boxed[0].text.startswith(f"{second.title()} drops the box's double")


async def test_a_beaver_is_typed_only_where_beavers_are_played(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(5))
    box, captain, _second = (name_of(people, player) for player in game.table.order)
    await room.press(box, f"Double {captain.title()}")
    refused = await room.command(captain, "/beaver")
    assert refused[0].text == "Beavers are not played at this chouette."
    await room.command(box, "/chouette end", admin=True)
    await room.press(box, "End the session")

    people = await open_and_start(room, "ann", "bob", "cy", options="beaver")
    game = await play_until_rolling(room, people, 0, random.Random(5))
    box, captain, _second = (name_of(people, player) for player in game.table.order)
    await room.press(box, f"Double {captain.title()}")
    beavered = await room.command(captain, "/beaver")
    assert beavered[0].text == f"{captain.title()} beavers the box's double: their cube is at 4."


def _seated(*names: str) -> dict[int, UserRecord]:
    return {
        number: UserRecord(number, PLATFORM, name.lower(), name, None)
        for number, name in enumerate(names, start=1)
    }


def test_a_name_is_read_whole_or_by_its_start_and_a_mention_by_its_account() -> None:
    _ = speech("en")
    users = _seated("Bob", "Bobby Tables", "Cy")
    assert named_player(_, users, (), "") is None
    assert named_player(_, users, (), "bob") == "1"  # the whole name, before any start
    assert named_player(_, users, (), "@BOBBY") == "2"
    assert named_player(_, users, (), " cy ") == "3"
    assert named_player(_, users, (Actor(PLATFORM, "cy", "Cy"),), "bob") == "3"
    with pytest.raises(Refusal) as several:
        named_player(_, users, (), "bo")
    assert str(several.value) == (
        "Several players here are called \u2068bo\u2069: Bob, Bobby Tables. Mention the one you "
        "mean."
    )
    with pytest.raises(Refusal) as nobody:
        named_player(_, users, (Actor("other", "cy", "Cy"),), "")
    assert str(nobody.value) == "Nobody called Cy plays at this table."


def test_a_typed_name_is_looked_up_as_it_is_shown() -> None:
    """A name typed with a right-to-left override (or any control) in it means the player
    whose name it shows: the lookup and the refusal read the same cleaned name."""
    _ = speech("en")
    users = _seated("p5", "p6")
    assert named_player(_, users, (), "\u202ep6") == "2"
    assert named_player(_, users, (), "\u2067@p6\u2069") == "2"
    with pytest.raises(Refusal) as nobody:
        named_player(_, users, (), "\u202ezed")
    assert str(nobody.value) == "Nobody called \u2068zed\u2069 plays at this table."
