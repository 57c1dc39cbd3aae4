"""The chouette's cubes through the chat: each member's own cube, settled cube by cube, and
every refusal a clear private answer."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.core.model import Message
from bot.core.text.i18n import LOCALES, speech
from gammon.chouette import CubeOwner
from rendering import DEFAULT_LABELS
from tests.bot.chouette_play_helpers import (
    at_the_start_of_a_turn,
    current,
    name_of,
    open_and_start,
    play_to_the_end,
    play_until_rolling,
)
from tests.bot.scripted import Room


async def test_four_players_with_takes_and_drops_settle_cube_by_cube(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", "dee")
    rng = random.Random(11)
    game = await play_until_rolling(room, people, 0, rng)
    box, captain, second, third = (name_of(people, player) for player in game.table.order)
    await room.press(box, "Double all")
    await room.press(captain, "Take")
    dropped = await room.press(second, "Drop")
    assert f"{second.title()} drops the box's double and pays 1." in dropped[0].text
    await room.press(third, "Take")
    game = (await current(room)).game
    assert game is not None
    assert [(cube.value, cube.owner, cube.live) for cube in game.cubes] == [
        (2, CubeOwner.MEMBER, True),
        (1, CubeOwner.CENTRE, False),
        (2, CubeOwner.MEMBER, True),
    ]
    # The member who dropped is out: no more doubles, no more advice.
    await play_until_rolling(room, people, 1, rng)
    refused = await room.press(second, "Double the box")
    assert refused[0].private_to == second
    assert refused[0].text == "You are out of this game: the double on your cube was dropped."
    advice = await room.command(second, "/suggest 24/23 13/11")
    assert advice[0].text == "You dropped out of this game: you no longer advise."
    played = await play_to_the_end(room, people, rng)
    loaded = await current(room)
    points = next(record for record in loaded.games if record.game_number == played).points
    won = points[people[captain]]
    assert won in (2, 4, 6, -2, -4, -6)  # a cube at 2, single, gammon or backgammon
    assert points[people[third]] == won
    assert points[people[second]] == -1
    assert points[people[box]] == -(2 * won - 1)


async def test_the_box_doubles_only_some_members(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", "dee")
    game = await play_until_rolling(room, people, 0, random.Random(2))
    box, captain, second, third = (name_of(people, player) for player in game.table.order)
    board = await room.press(box, f"Double {second.title()}")
    assert board[0].text == f"{box.title()} (box) doubles {second.title()}."
    labels = [button.label for button in board[-1].buttons]
    assert labels == ["Take", "Drop"]  # no roll while the double waits, no second double
    assert board[-1].mention == (second,)
    again = await room.command(box, "/double")
    assert again[0].text == "The box has already doubled this turn."
    other = await room.press(captain, "Take")
    assert other[0].text == "No double waits for your answer."
    await room.press(second, "Take")
    game = (await current(room)).game
    assert game is not None
    assert [cube.value for cube in game.cubes] == [1, 2, 1]
    rolled = await room.command(box, "/roll")
    assert "(box) to play" in rolled[-1].text
    assert third


async def test_acting_out_of_role_is_refused_naming_the_role(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    rng = random.Random(4)
    game = await play_until_rolling(room, people, 1, rng)
    box, captain, third = (name_of(people, player) for player in game.table.order)
    rolls = "Only the box and the acting captain roll and move."
    assert (await room.command(third, "/roll"))[0].text == rolls
    assert (await room.command(box, "/roll"))[0].text == "It is not your turn."
    no_cube = (
        "The box has no cube of its own: the members double the box and answer its doubles "
        "on their own cubes."
    )
    assert (await room.press(box, "Double the box"))[0].text == no_cube
    stranger = await room.command("eve", "/roll")
    assert stranger[0].text.startswith("You have no match in this chat")
    await play_until_rolling(room, people, 0, rng)
    only_box = "Only the box doubles the members of the team and answers their doubles."
    assert (await room.press(captain, "Double all"))[0].text == only_box
    await room.press(box, f"Double {third.title()}")
    waits = await room.command(box, "/roll")
    assert waits[0].text == "Nobody rolls while a double waits for an answer."
    assert (await room.press(captain, "Take"))[0].text == "No double waits for your answer."
    assert (await room.press(box, "Drop"))[0].text == no_cube
    await room.press(third, "Drop")
    out = await room.command(third, "/roll")
    assert out[0].text == "You are out of this game: the double on your cube was dropped."


async def test_a_stale_button_and_a_second_press_are_refused(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(6))
    box = name_of(people, game.table.box)
    roll = next(b for m in reversed(room.log) for b in m.buttons if b.label == "Roll")
    first = await room.press(box, "Double all")
    assert "(box) doubles" in first[0].text
    second = await room.send(
        box,
        token=next(
            b.token for m in reversed(room.log[:-2]) for b in m.buttons if b.label == "Double all"
        ),
    )
    assert second[0].text == "That button is out of date."
    stale = await room.send(box, token=roll.token)
    assert stale[0].text == "That button is out of date."
    assert stale[0].private_to == box
    doubled = (await current(room)).game
    assert doubled is not None
    assert len(doubled.pending) == 2


async def test_the_same_update_twice_is_applied_once(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(8))
    box = name_of(people, game.table.box)
    token = next(b.token for m in reversed(room.log) for b in m.buttons if b.label == "Roll")
    from bot.core.model import Actor, Request

    request = Request(Actor("test", box, box.title()), room.chat, token=token, event_id="twice")
    once = await room.core.handle(request)
    again = await room.core.handle(replace(request))
    assert "(box) to play" in once[-1].text
    assert "(box) to play" in again[-1].text  # the board as it is now, nothing applied twice
    after = (await current(room)).game
    assert after is not None
    assert after.board.dice_events == game.board.dice_events + 1


async def test_suggestions_by_the_team_and_their_refusals(room: Room) -> None:
    _people, _rng, (box, captain, third) = await at_the_start_of_a_turn(
        room, 1, 9, "ann", "bob", "cy"
    )
    await room.command(captain, "/roll")
    game = (await current(room)).game
    assert game is not None
    play = str(game.board.legal_plays()[0])
    said = await room.command(third, f"/suggest {play}")
    assert said[0].text == f"{third.title()} suggests {play}"
    assert said[0].mention == (captain,)
    assert (await room.command(box, f"/suggest {play}"))[0].text.startswith("The box plays alone")
    own = await room.command(captain, f"/suggest {play}")
    assert own[0].text == "You are the captain: play it with /move."


async def test_the_captain_option_allows_no_advice(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", options="captain")
    game = await play_until_rolling(room, people, 1, random.Random(10))
    third = name_of(people, game.table.order[2])
    refused = await room.command(third, "/suggest 24/23")
    assert refused[0].text == "At this table the captain decides alone: nobody advises."


async def test_beavers_by_button_at_a_table_that_plays_them(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", options="beaver")
    rng = random.Random(5)
    game = await play_until_rolling(room, people, 0, rng)
    box, captain, second = (name_of(people, player) for player in game.table.order)
    board = await room.press(box, f"Double {captain.title()}")
    assert [button.label for button in board[-1].buttons] == ["Take", "Beaver", "Drop"]
    beavered = await room.press(captain, "Beaver")
    assert f"{captain.title()} beavers the box's double: their cube is at 4." in beavered[0].text
    game = (await current(room)).game
    assert game is not None
    assert (game.cubes[0].value, game.cubes[0].owner) == (4, CubeOwner.MEMBER)
    await play_until_rolling(room, people, 1, rng)
    board = await room.command(second, "/double")
    labels = [button.label for button in board[-1].buttons]
    assert labels[:3] == [
        f"Take {second.title()}",
        f"Beaver {second.title()}",
        f"Drop {second.title()}",
    ]
    beavered = await room.press(box, f"Beaver {second.title()}")
    assert f"{box.title()} (box) beavers {second.title()}'s double: that cube is at 4." in (
        beavered[0].text
    )


async def test_no_beaver_button_without_the_option(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(5))
    box, captain, _second = (name_of(people, player) for player in game.table.order)
    board = await room.press(box, f"Double {captain.title()}")
    assert [button.label for button in board[-1].buttons] == ["Take", "Drop"]


async def test_advice_refusals_name_the_real_reason(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", "dee")
    rng = random.Random(13)
    game = await play_until_rolling(room, people, 1, rng)
    box, _captain, second, _third = (name_of(people, player) for player in game.table.order)
    stranger = await room.command("eve", "/suggest 24/23")  # a game runs, eve is not in it
    assert stranger[0].text == "You do not play in this game."
    await room.command(second, "/double")
    await room.command(box, f"/drop {second}")  # the box drops: second's game is won, over
    won = await room.command(second, "/suggest 24/23")
    assert won[0].text == "The box dropped your double: your game is over, you no longer advise."


async def test_the_board_offers_a_double_only_to_those_who_may_double(room: Room) -> None:
    people, rng, (box, captain, third) = await at_the_start_of_a_turn(
        room, 1, 15, "ann", "bob", "cy"
    )
    await room.command(captain, "/double")
    await room.command(third, "/double")
    await room.command(box, f"/take {captain}")
    board = await room.command(box, f"/take {third}")  # the box owns both cubes now
    assert board[-1].text.splitlines()[2] == f"{captain.title()} (captain) to roll for the team."
    assert [button.label for button in board[-1].buttons] == ["Roll"]
    await play_until_rolling(room, people, 0, rng)
    await room.press(box, "Double all")
    await room.command(captain, "/take")
    board = await room.command(third, "/take")  # the box doubled this turn
    assert board[-1].text.splitlines()[2] == f"{box.title()} (box) to roll."
    assert [button.label for button in board[-1].buttons] == ["Roll"]


async def test_the_headline_names_an_acting_captain_as_such(room: Room) -> None:
    """The box drops the captain's double: the captain's game is won and over, the next
    member in line plays for the team, and the board and the notice call them acting captain."""
    _people, _rng, (box, captain, third) = await at_the_start_of_a_turn(
        room, 1, 15, "ann", "bob", "cy"
    )
    await room.command(captain, "/double")
    board = await room.command(box, f"/drop {captain}")
    assert board[-1].text.splitlines()[2] == (
        f"{third.title()} (acting captain) to roll for the team; members may double the box first."
    )


async def test_the_result_names_who_played_for_the_team(room: Room) -> None:
    """The captain dropped the box's double: the next member in line, the acting captain,
    plays on and wins on the board; the result names them, not the captain who was out."""
    people, rng, (box, captain, third) = await at_the_start_of_a_turn(
        room, 0, 2, "ann", "bob", "cy"
    )
    await room.press(box, f"Double {captain.title()}")
    await room.command(captain, "/drop")
    said: list[Message] = []
    await play_to_the_end(room, people, rng, said=said)
    ended = [message.text for message in said if "on the board" in message.text]
    assert (box, captain, third) == ("bob", "cy", "ann")  # these dice: Ann plays, and wins
    assert ended[0].splitlines()[0] == "The team (Ann) wins a single game on the board."


@pytest.mark.parametrize("locale", LOCALES)
def test_the_picture_calls_the_captain_and_the_acting_captain_as_the_texts_do(
    locale: str,
) -> None:
    """The tags on the picture's panel are the roles the board's text gives, in every
    language: "Cy (acting captain) to roll" above a picture that tags Cy "Acting captain"."""
    _ = speech(locale)
    for key, role in (
        ("chouette_captain", "{name} (captain)"),
        ("chouette_acting", "{name} (acting captain)"),
    ):
        tag = _(DEFAULT_LABELS[key])
        assert _(role).format(name="Cy").casefold() == f"Cy ({tag})".casefold()
