"""Races settled by the database: one active match per player and chat, whatever accepts at
the same moment (in one process or two), and a lost race after one's own action was stored is
not an error."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import sqlalchemy as sa

from bot.core.model import Actor, ChatRef, Request
from bot.core.service import Core
from gammon.flow import Phase
from gammon.match_rules import MatchRules
from storage import Database, SeatTakenError
from storage.schema import challenges, match_seats, matches
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds
from tests.storage.players import create_match

# Races between processes: each database settles them its own way.
pytestmark = pytest.mark.both_databases


@pytest.fixture
async def two_processes(migrated_url: str) -> AsyncIterator[tuple[Room, Room]]:
    """Two bots on one SQLite file, each with its own connections and database thread, as two
    processes would be."""
    first, second = Database(migrated_url), Database(migrated_url)
    chat = ChatRef(PLATFORM, "group")
    yield (
        Room(Core(first, render_images=False, server_seeds=fixed_seeds()), chat, prefix="one-"),
        Room(Core(second, render_images=False, server_seeds=fixed_seeds()), chat, prefix="two-"),
    )
    await first.close()
    await second.close()


def _accept(room: Room, name: str, challenge_id: int) -> Request:
    room.events += 1
    return Request(
        Actor(PLATFORM, name, name.title()),
        room.chat,
        token=f"bg1:accept:c{challenge_id}:0",
        event_id=f"accept-{name}-{room.events}",
    )


async def _active_matches(room: Room) -> list[Any]:
    return (
        await room.stores.matches.engine.read(
            sa.select(matches.c.id).where(matches.c.status == "active")
        )
    ).all()


async def test_two_challenges_accepted_at_once_start_one_match(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    await room.command("carl", "/challenge @bob 5")
    answers = await asyncio.gather(
        room.core.handle(_accept(room, "bob", 1)), room.core.handle(_accept(room, "bob", 2))
    )
    started = [answer for answer in answers if any("Match " in m.text for m in answer)]
    refused = [answer for answer in answers if answer not in started]
    assert len(started) == 1
    assert [message.text for message in refused[0]] == [
        "You are already playing a match in this chat."
    ]
    assert len(await _active_matches(room)) == 1
    # The other challenge is still open: bob may take it once his match is over.
    still_open = await room.stores.matches.engine.read(
        sa.select(challenges.c.id).where(challenges.c.state == "open")
    )
    assert len(still_open.all()) == 1


@pytest.mark.parametrize("round_", range(5))
async def test_two_processes_accepting_at_once_start_one_match(
    two_processes: tuple[Room, Room], round_: int
) -> None:
    one, other = two_processes
    await one.command("anna", "/challenge @bob 3")
    await other.command("carl", "/challenge @bob 3")
    answers = await asyncio.gather(
        one.core.handle(_accept(one, "bob", 1)), other.core.handle(_accept(other, "bob", 2))
    )
    texts = [[message.text for message in answer] for answer in answers]
    assert sum(any(text.startswith("Match ") for text in answer) for answer in texts) == 1
    assert ["You are already playing a match in this chat."] in texts
    assert len(await _active_matches(one)) == 1


async def test_the_database_refuses_a_second_seat_for_one_player(room: Room) -> None:
    chat = await room.stores.chats.upsert_chat(PLATFORM, "group")
    users = [
        (await room.stores.users.upsert_user(PLATFORM, name, name)).id
        for name in ("anna", "bob", "carl")
    ]
    first = await create_match(
        room.stores.matches,
        chat_id=chat.id,
        player_ids=(users[0], users[1]),
        rules=MatchRules(length=1),
        server_seed=bytes(32),
        client_seeds=("a", "b"),
    )
    with pytest.raises(SeatTakenError) as refused:
        await create_match(
            room.stores.matches,
            chat_id=chat.id,
            player_ids=(users[2], users[1]),
            rules=MatchRules(length=1),
            server_seed=bytes(32),
            client_seeds=("a", "b"),
        )
    assert refused.value.user_id == users[1]
    with pytest.raises(sa.exc.IntegrityError):  # the constraint itself, without our check
        async with room.stores.matches.engine.begin() as connection:
            await connection.execute(
                sa.insert(match_seats).values(
                    chat_id=chat.id, user_id=users[1], match_id=first.info.id
                )
            )


async def test_a_move_and_the_automatic_roll_after_it_are_one_write(
    two_processes: tuple[Room, Room],
) -> None:
    """Another process presses Roll for the opponent right after the move is stored: before,
    the automatic roll that follows the move was a second write, lost that race, and the mover
    got "Sorry, something went wrong" although the move was kept."""
    one, other = two_processes
    await one.command("anna", "/challenge @bob 3 nocube")  # no cube: every roll is automatic
    await one.press("bob", "Accept")
    chat = await one.core.ports.repositories.chats.upsert_chat(PLATFORM, "group")
    anna = await one.core.ports.repositories.users.upsert_user(PLATFORM, "anna", "Anna")
    loaded = await one.core.ports.repositories.matches.active_match_for(chat.id, anna.id)
    assert loaded is not None
    assert loaded.state.phase is Phase.MOVING
    mover, waiting = "bob", "anna"  # Bob opens with the fixed seeds
    bob = await one.core.ports.repositories.users.upsert_user(PLATFORM, "bob", "Bob")
    assert loaded.info.turn_user_id == bob.id
    assert loaded.state.player_on_roll == 1
    play = str(loaded.state.legal_plays()[0])
    version = loaded.info.version
    write: Callable[..., Any] = one.core.ports.repositories.matches.engine.write
    raced: list[list[str]] = []

    async def write_then_race(work: Any) -> Any:
        result = await write(work)
        if not raced:  # the first write of the move: the other process acts at once
            answer = await other.command(waiting, "/roll")
            raced.append([message.text for message in answer])
        return result

    one.core.ports.repositories.matches.engine.write = write_then_race  # type: ignore[method-assign]
    answer = await one.command(mover, f"/move {play}")
    texts = [message.text for message in answer]
    assert not any("went wrong" in text for text in texts), texts
    assert "Position ID: " in texts[-1]
    assert raced == [["You have rolled already: play your dice with /move."]]
    after = await one.core.ports.repositories.matches.load_match(loaded.info.id)
    assert after.info.version == version + 2  # the move and the opponent's roll
    assert after.state.player_on_roll == 0  # Anna rolled
