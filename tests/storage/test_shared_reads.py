"""Reads that save trips to the database: several statements in one hand-over, a match with
its players, and "has this player acted since?" answered from what this process saw, which
another process's writes can never make wrong."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from gammon.actions import Move, OpeningRoll, Roll
from storage import ChatRepository, Database, MatchRepository, UserRepository
from storage.schema import users
from storage.threaded import ThreadedEngine
from tests.storage.players import Table, append_action, open_table

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


async def test_read_many_reads_each_statement_as_read_would(table: Table) -> None:
    engine = table.database.engine
    first = sa.select(users.c.id).order_by(users.c.id)
    second = sa.select(sa.func.count()).select_from(users)
    one, two = await engine.read_many((first, None), (second, None))
    assert one.scalars() == (await engine.read(first)).scalars() == list(table.player_ids)
    assert two.scalar() == 2


async def test_a_match_comes_with_its_players(table: Table) -> None:
    match = await table.new_match()
    loaded, players = await table.matches.load_match_with_players(match.info.id)
    assert loaded.info.id == match.info.id
    assert sorted(players) == sorted(table.player_ids)
    assert {user.display_name for user in players.values()} == {"Anna", "Bob"}


async def test_acted_since_is_never_wrong_across_two_processes(migrated_url: str) -> None:
    table = await open_table(migrated_url, migrate=False)
    other_process = Database(migrated_url)
    try:
        theirs = MatchRepository(other_process)
        anna, bob = table.player_ids
        match = await table.new_match()
        match_id = match.info.id
        opened = await append_action(table.matches, match_id, 0, OpeningRoll((3, 1)), now=T0)
        version = opened.match.info.version
        assert not await table.matches.acted_since(match_id, 10_000, T0)  # not a player
        # Anna moves through this process at T0 + 1 min: known here without a read.
        state = opened.match.state
        mover = table.player_ids[state.player_on_roll]
        play = state.legal_plays()[0]
        moved = await append_action(
            table.matches,
            match_id,
            version,
            Move(state.player_on_roll, str(play)),
            actor_id=mover,
            now=T0 + timedelta(minutes=1),
        )
        assert await table.matches.acted_since(match_id, mover, T0)
        assert not await table.matches.acted_since(match_id, mover, T0 + timedelta(minutes=2))
        # The other player rolls through the other process at T0 + 5 min: this process has
        # seen nothing of it and reads it; the other process knows it from its own write.
        roller = bob if mover == anna else anna
        seat = table.player_ids.index(roller)
        await append_action(
            theirs,
            match_id,
            moved.match.info.version,
            Roll(seat, (6, 5)),
            actor_id=roller,
            now=T0 + timedelta(minutes=5),
        )
        assert await table.matches.acted_since(match_id, roller, T0 + timedelta(minutes=4))
        assert await theirs.acted_since(match_id, roller, T0 + timedelta(minutes=4))
        assert await theirs.acted_since(match_id, mover, T0)  # read: not seen there
        assert not await theirs.acted_since(match_id, roller, T0 + timedelta(minutes=6))
    finally:
        await other_process.close()
        await table.database.close()


async def test_who_is_speaking_comes_with_their_match_in_one_trip(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user, the chat and the user's active match there with its players: one hand-over
    to the database thread; None for a user who plays no match in that chat."""
    users = UserRepository(table.database)
    chats = ChatRepository(table.database)
    match = await table.new_match()
    trips = 0
    run = ThreadedEngine.run

    async def counted(engine: ThreadedEngine, function: Any, *arguments: Any) -> Any:
        nonlocal trips
        trips += 1
        return await run(engine, function, *arguments)

    monkeypatch.setattr(ThreadedEngine, "run", counted)

    def reads(user_id: int, chat_id: int) -> Any:
        return table.matches.active_match_queries(chat_id, user_id)

    user, chat, also = await users.speaker_in_chat(
        chats, ("telegram", "1001", "Anna", None), ("telegram", "-500", None), reads
    )
    assert trips == 1
    assert (user.display_name, chat.id) == ("Anna", table.chat_id)
    assert also is not None
    found = await table.matches.active_match_read(also)
    assert found is not None
    loaded, players = found
    assert loaded.info.id == match.info.id
    assert loaded.state == (await table.matches.load_match(match.info.id)).state
    assert sorted(player.display_name for player in players.values()) == ["Anna", "Bob"]
    stranger = await users.upsert_user("telegram", "1003", "Cy")
    _user, _chat, nothing = await users.speaker_in_chat(
        chats, ("telegram", "1003", "Cy", None), ("telegram", "-500", None), reads
    )
    assert nothing is not None
    assert await table.matches.active_match_read(nothing) is None
    assert stranger.display_name == "Cy"
