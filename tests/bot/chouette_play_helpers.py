"""Scripted chouette players: read the stored game and act through the chat like people."""

from __future__ import annotations

import random

from bot.core.model import Message
from gammon.chouette import ChouetteGame
from gammon.flow import Phase
from storage import LoadedChouette
from tests.bot.scripted import PLATFORM, Room


async def ids(room: Room, *names: str) -> dict[str, int]:
    """Our user ids of the named players (created as they would be on first use)."""
    found = {}
    for name in names:
        found[name] = (await room.stores.users.upsert_user(PLATFORM, name, name.title())).id
    return found


async def current(room: Room) -> LoadedChouette:
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    loaded = await room.stores.chouettes.active_for_chat(chat.id)
    assert loaded is not None
    return loaded


async def open_and_start(room: Room, *names: str, options: str = "") -> dict[str, int]:
    """The first named opens the table, the others join, the last starts it."""
    await room.command(names[0], f"/chouette {options}".strip())
    for name in names[1:]:
        await room.command(name, "/chouette join")
    answer = await room.command(names[-1], "/chouette start")
    assert any("Seating dice" in message.text for message in answer), answer
    return await ids(room, *names)


def name_of(people: dict[str, int], player: str) -> str:
    return next(name for name, user_id in people.items() if str(user_id) == player)


async def whose_turn(room: Room, people: dict[str, int]) -> str:
    """Who the board waits for to roll or move: the box or the acting captain."""
    game = (await current(room)).game
    assert game is not None
    box = game.board.player_on_roll == 0
    return name_of(people, game.table.box if box else game.acting_captain or "")


async def play_until_rolling(
    room: Room, people: dict[str, int], side: int, rng: random.Random, limit: int = 400
) -> ChouetteGame:
    """Roll and move (a random legal play) until ``side`` (0 the box, 1 the team) is at the
    start of its turn, before rolling."""
    for _step in range(limit):
        game = (await current(room)).game
        assert game is not None
        assert not game.finished
        board = game.board
        box, captain = name_of(people, game.table.box), name_of(people, game.acting_captain or "")
        mover = box if board.player_on_roll == 0 else captain
        if board.phase is Phase.ROLLING:
            if board.player_on_roll == side:
                return game
            await room.command(mover, "/roll")
        elif board.phase is Phase.MOVING:
            await room.command(mover, f"/move {rng.choice(board.legal_plays())}")
        else:
            raise AssertionError(board.phase)
    raise AssertionError("never there")


async def play_to_the_end(
    room: Room,
    people: dict[str, int],
    rng: random.Random,
    limit: int = 3000,
    said: list[Message] | None = None,
) -> int:
    """Roll and move until the game being played ends; the game number played. ``said``
    gets every answer of the bot on the way."""
    number = (await current(room)).info.game_number
    for _step in range(limit):
        loaded = await current(room)
        if loaded.info.game_number != number or loaded.game is None:
            return number
        board = loaded.game.board
        mover = name_of(
            people,
            loaded.game.table.box
            if board.player_on_roll == 0
            else loaded.game.acting_captain or "",
        )
        if board.phase is Phase.ROLLING:
            answer = await room.command(mover, "/roll")
        else:
            answer = await room.command(mover, f"/move {rng.choice(board.legal_plays())}")
        if said is not None:
            said += answer
    raise AssertionError("the game did not end")


async def at_the_start_of_a_turn(
    room: Room, side: int, seed: int, *names: str, options: str = ""
) -> tuple[dict[str, int], random.Random, list[str]]:
    """A table of ``names`` started and played (random legal plays, from ``seed``) until
    ``side`` (0 the box, 1 the team) is to roll: the players, the random source to play on
    with, and their names in the table's order (box, captain, then the line)."""
    people = await open_and_start(room, *names, options=options)
    rng = random.Random(seed)
    game = await play_until_rolling(room, people, side, rng)
    return people, rng, [name_of(people, player) for player in game.table.order]
