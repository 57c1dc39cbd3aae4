"""A chouette through the chat: seating, games one after another, rotation and scores, each
checked by hand against the rules (gammon/chouette's docstring)."""

from __future__ import annotations

import asyncio
import random

from bot.core.model import ChatRef
from bot.core.service import Core
from gammon.flow import Phase
from storage import ChouetteStatus, Database
from tests.bot.chouette_play_helpers import (
    current,
    name_of,
    open_and_start,
    play_to_the_end,
    play_until_rolling,
)
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds


def names(people: dict[str, int], order: tuple[int, ...] | list[int]) -> list[str]:
    by_id = {user_id: name for name, user_id in people.items()}
    return [by_id[user_id] for user_id in order]


async def test_three_players_rotate_through_several_games(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    rng = random.Random(3)
    first = names(people, (await current(room)).info.seats)
    box, captain, third = first
    assert sorted(first) == ["ann", "bob", "cy"]
    # Game 1: the box doubles everyone, both drop: the box won the captain's game, so it stays
    # and the captain goes to the end of the line.
    await play_until_rolling(room, people, 0, rng)
    await room.press(box, "Double all")
    await room.press(captain, "Drop")
    answer = await room.press(third, "Drop")
    texts = "\n".join(message.text for message in answer)
    assert f"This game: {box.title()} +2, {captain.title()} −1, {third.title()} −1" in texts
    loaded = await current(room)
    assert names(people, loaded.info.seats) == [box, third, captain]
    assert loaded.info.game_number == 2
    assert "Opening roll" in texts
    # Game 2: the new captain and the other member double the box, the box drops both: the
    # captain won, becomes the box, and the old box goes to the end of the line.
    captain, third = third, captain
    await play_until_rolling(room, people, 1, rng)
    await room.press(captain, "Double the box")
    await room.press(third, "Double the box")
    await room.press(box, f"Drop {captain.title()}")
    answer = await room.press(box, f"Drop {third.title()}")
    texts = "\n".join(message.text for message in answer)
    assert f"This game: {box.title()} −2, {captain.title()} +1, {third.title()} +1" in texts
    loaded = await current(room)
    assert names(people, loaded.info.seats) == [captain, third, box]
    assert loaded.totals == {people[box]: 0, people[captain]: 0, people[third]: 0}
    # Game 3: played out on the board; the captain's single cube decides the rotation.
    box, captain, third = captain, third, box
    played = await play_to_the_end(room, people, rng)
    loaded = await current(room)
    record = next(game for game in loaded.games if game.game_number == played)
    won = record.points[people[captain]]
    assert won != 0
    assert record.points[people[third]] == won
    assert record.points[people[box]] == -2 * won
    expected = [captain, box, third] if won > 0 else [box, third, captain]
    assert names(people, loaded.info.seats) == expected
    assert sum(loaded.totals.values()) == 0
    score = await room.command("ann", "/chouette score")
    assert "Games played: 3." in score[0].text


async def test_the_session_ends_with_the_seed_and_the_scores(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy", "dee")
    refused = await room.command("bob", "/chouette end")
    assert refused[0].private_to == "bob"
    assert "Only the host" in refused[0].text
    await room.command("ann", "/chouette end")  # game 1 is being played: asked first
    ended = await room.press("ann", "End the session")
    assert "The chouette is over. Games played: 0." in ended[0].text
    assert "server seed" in ended[0].text
    assert (await room.command("ann", "/roll"))[0].text.startswith("You have no match")
    again = await room.command("bob", "/chouette")  # a new table, bob the host
    assert "Bob opens a chouette table" in again[0].text
    assert people


async def test_join_and_leave_during_a_game_take_effect_when_it_ends(room: Room) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    rng = random.Random(5)
    box, captain, third = names(people, (await current(room)).info.seats)
    joined = await room.command("dee", "/chouette join")
    assert "Dee sits down at the end of the line when this game ends." in joined[0].text
    left = await room.command(third, "/chouette leave")
    assert "leaves the table when this game ends" in left[0].text
    await play_until_rolling(room, people, 0, rng)
    await room.press(box, "Double all")
    await room.press(captain, "Drop")
    answer = await room.press(third, "Drop")
    texts = "\n".join(message.text for message in answer)
    assert "Dee sits down at the end of the line." in texts
    loaded = await current(room)
    dee = (await room.stores.users.upsert_user(PLATFORM, "dee", "Dee")).id
    assert list(loaded.info.seats) == [people[box], people[captain], dee]


async def test_a_game_that_leaves_two_at_the_table_starts_no_other(room: Room) -> None:
    """The points and the next game's start are one write, made only while three or more
    are seated then: a leave that leaves two ends the game with the table open."""
    people = await open_and_start(room, "ann", "bob", "cy")
    box, captain, third = names(people, (await current(room)).info.seats)
    await room.command(third, "/chouette leave")
    await play_until_rolling(room, people, 0, random.Random(5))
    await room.press(box, "Double all")
    await room.press(captain, "Drop")
    answer = await room.press(third, "Drop")
    assert answer[-1].text.endswith(
        "Fewer than three players are left: /chouette join to sit down, "
        "/chouette start to play on, or /chouette end."
    )
    loaded = await current(room)
    assert (loaded.info.status, loaded.info.game_number, loaded.game) == (
        ChouetteStatus.OPEN,
        2,
        None,
    )
    assert list(loaded.info.seats) == [people[box], people[captain]]


async def test_a_restarted_bot_continues_the_game(room: Room, migrated_url: str) -> None:
    people = await open_and_start(room, "ann", "bob", "cy")
    rng = random.Random(7)
    game = await play_until_rolling(room, people, 1, rng)
    captain = name_of(people, game.table.captain)
    database = Database(migrated_url)
    restarted = Room(
        Core(database, render_images=False, server_seeds=fixed_seeds()),
        ChatRef(PLATFORM, "group-1"),
        prefix="restarted-",
    )
    answer = await restarted.command(captain, "/roll")
    assert "for the team" in answer[-1].text or "box" in answer[-1].text
    after = (await current(restarted)).game
    assert after is not None
    assert after.board.dice_events == game.board.dice_events + 1
    await database.close()


async def test_two_starts_typed_at_once_start_one_game(room: Room) -> None:
    """Two players type /chouette start together: one game starts; the other is told that a
    game is being played already (not that a button is out of date: none was pressed)."""
    await room.command("ann", "/chouette")
    for name in ("bob", "cy"):
        await room.command(name, "/chouette join")
    first, second = await asyncio.gather(
        room.command("bob", "/chouette start"), room.command("cy", "/chouette start")
    )
    refusal, started = sorted([first, second], key=len)
    assert [message.text for message in refusal] == ["A game is being played already."]
    assert any("Seating dice" in message.text for message in started)
    assert (await current(room)).info.game_number == 1


async def test_a_game_stopped_before_its_opening_roll_gets_it_at_the_next_action(
    room: Room,
) -> None:
    """The process stopped between starting a game and writing its opening roll: the board
    says so, and the next action of a player makes the opening roll."""
    await room.command("ann", "/chouette")
    await room.command("bob", "/chouette join")
    await room.command("cy", "/chouette join")
    info = (await current(room)).info
    info = await room.stores.chouettes.set_client_seed(info.id, info.version, "test:seed")
    await room.stores.chouettes.start_game(info.id, info.version, list(info.seats))
    shown = await room.command("bob", "/chouette")
    assert shown[-1].text.splitlines()[1] == "Ann (box) and Bob (captain): the opening roll, /roll."
    assert [button.label for button in shown[-1].buttons] == ["Roll"]
    answer = await room.command("bob", "/roll")
    assert "Opening roll: Ann" in answer[0].text
    game = (await current(room)).game
    assert game is not None
    assert game.board.phase is Phase.MOVING


async def test_a_first_start_stopped_after_the_client_seed_still_seats_by_the_dice(
    room: Room,
) -> None:
    """The process stopped after fixing the client seed and before starting the game: the
    next /chouette start seats the players by the dice all the same (the same dice, read from
    the same nonces), not in the order they sat down."""
    await room.command("ann", "/chouette")
    for name in ("bob", "cy", "dee"):
        await room.command(name, "/chouette join")
    info = (await current(room)).info
    await room.stores.chouettes.set_client_seed(info.id, info.version, "test:e5")
    answer = await room.command("dee", "/chouette start")
    assert answer[0].text.startswith("Seating dice: Ann ")
    started = (await current(room)).info
    assert started.game_nonce > info.dice_nonce  # the seating dice are spent


async def test_the_seating_dice_mark_each_tie_s_re_roll(room: Room) -> None:
    """Three tie at 3 and two at 5: each tie rolls again on its own, marked as a re-roll, and
    the two still tied after it roll once more."""
    await room.command("ann", "/chouette")
    for name in ("bob", "cy", "dee", "eve", "fay"):
        await room.command(name, "/chouette join")
    answer = await room.command("fay", "/chouette start")
    assert answer[0].text.splitlines()[0] == (
        "Seating dice: Ann 3, Bob 2, Cy 3, Dee 5, Eve 5, Fay 3; re-roll for a tie: Ann 5, Cy 4, "
        "Fay 4; re-roll for a tie: Dee 2, Eve 3; re-roll for a tie: Cy 6, Fay 1."
    )
