"""Ending a chouette: during a game the host (or an administrator) is asked first, since the
game in play is abandoned and scores nothing; only whoever asked answers, and a second or
stale press changes nothing (it is told that the session has ended). Between games the
session ends at once."""

from __future__ import annotations

import random

from bot.core.model import Message
from storage import ChouetteStatus
from tests.bot.chouette_play_helpers import (
    current,
    name_of,
    open_and_start,
    play_until_rolling,
)
from tests.bot.scripted import Room

ASKED = (
    "Game 1 is being played. Ending the session now abandons it: that game scores no points, "
    "and the scores stay as they were after the last finished game. End the session?"
)


def public(answer: list[Message]) -> list[Message]:
    return [message for message in answer if message.private_to is None]


async def test_ending_during_a_game_asks_the_host_first(room: Room) -> None:
    await open_and_start(room, "ann", "bob", "cy")
    asked = await room.command("ann", "/chouette end")
    assert [(message.text, message.private_to) for message in asked] == [(ASKED, "ann")]
    assert [button.label for button in asked[0].buttons] == ["End the session", "Keep playing"]
    assert (await current(room)).info.status is ChouetteStatus.PLAYING

    # Only the one who asked answers: another player's press changes nothing.
    other = await room.press("bob", "End the session")
    assert [(message.text, message.private_to) for message in other] == [
        ("Only the one who asked can answer this.", "bob")
    ]
    kept = await room.press("ann", "Keep playing")
    assert [(message.text, message.private_to) for message in kept] == [
        ("The session goes on.", "ann")
    ]
    assert (await current(room)).info.status is ChouetteStatus.PLAYING

    ended = await room.press("ann", "End the session")
    [end] = public(ended)
    assert end.text.splitlines()[:3] == [
        "The chouette is over. Games played: 0.",
        "Game 1 was abandoned: it scores no points.",
        "Scores: no game finished yet.",
    ]
    # The same button again (a double click, a repeated update): it has ended, nothing else.
    again = await room.press("ann", "End the session")
    assert [(message.text, message.private_to) for message in again] == [
        (
            "This chouette has ended already. Open a new table with /chouette.\n"
            "Scores: no game finished yet.",
            "ann",
        )
    ]
    assert (await room.command("ann", "/chouette"))[0].text.startswith("Ann opens a chouette")


async def test_an_administrator_ends_a_game_in_play_and_its_points_stay_out(room: Room) -> None:
    """The first game ends by drops (the box doubles the team, both drop: the box +2); game 2
    is abandoned: the scores are those of game 1."""
    people = await open_and_start(room, "ann", "bob", "cy")
    game = await play_until_rolling(room, people, 0, random.Random(5))
    box, captain, third = (name_of(people, player) for player in game.table.order)
    await room.press(box, "Double all")
    await room.press(captain, "Drop")
    await room.press(third, "Drop")
    assert (await current(room)).info.game_number == 2
    refused = await room.command("bob", "/chouette end")  # ann opened the table
    assert "Only the host" in refused[0].text
    asked = await room.command("dee", "/chouette end", admin=True)  # not seated: an admin
    assert asked[0].text.startswith("Game 2 is being played.")
    ended = public(await room.press("dee", "End the session"))
    scores = f"Scores: {box.title()} +2 · {captain.title()} −1 · {third.title()} −1"
    assert ended[0].text.splitlines()[:3] == [
        "The chouette is over. Games played: 1.",
        "Game 2 was abandoned: it scores no points.",
        scores,
    ]


async def test_between_games_the_session_ends_at_once(room: Room) -> None:
    await room.command("ann", "/chouette")
    await room.command("bob", "/chouette join")
    ended = await room.command("ann", "/chouette end")
    assert [message.private_to for message in ended] == [None]
    assert ended[0].buttons == ()
    assert ended[0].text.splitlines()[:2] == [
        "The chouette is over. Games played: 0.",
        "Scores: no game finished yet.",
    ]
    assert ended[0].attachments == ()  # nothing was rolled: nothing to check but the seed
