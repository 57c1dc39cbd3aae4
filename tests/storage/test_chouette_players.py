"""Who sits at which chouette and when they last acted there, on SQLite and PostgreSQL: what
the command layer reads to find the chouette a player means in a private chat, and whether a
player the game waits for has been away long enough for a private notification."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from bot.core.events import session_ended
from gammon.actions import Move, OpeningRoll
from gammon.chouette import BoardAction, advance
from storage import ChouetteRepository, Database, SecretSeed, UserRepository
from storage.chouette.records import user_of
from tests.storage.test_chouettes import NOW, RULES, SEED, Club, make_club, start


@pytest.fixture
async def club(migrated_url: str) -> AsyncIterator[Club]:
    database = Database(migrated_url)
    yield await make_club(database)
    await database.close()


async def test_the_sessions_a_player_sits_at(club: Club) -> None:
    host, anna, bob, _cy = club.players
    here = await club.open()  # everyone seated, between games
    elsewhere = await make_club(club.database, chat="-701")  # the same people, another chat
    there = await elsewhere.chouettes.open_table(
        elsewhere.chat_id, bob, RULES, SecretSeed(SEED), NOW, "there"
    )
    stranger = (await UserRepository(club.database).upsert_user("telegram", "2999", "S")).id
    assert [info.id for info in await club.chouettes.seated_in(bob)] == [here.id, there.id]
    assert [info.id for info in await club.chouettes.seated_in(host)] == [here.id]
    assert await club.chouettes.seated_in(stranger) == []

    playing = await start(club, here)
    found = await club.chouettes.seated_in(anna)
    assert [(info.id, info.status) for info in found] == [(here.id, "playing")]
    ended = await club.chouettes.end(there.id, there.version, now=NOW, then=session_ended(there.id))
    assert ended.status == "ended"
    assert [info.id for info in await club.chouettes.seated_in(bob)] == [here.id]
    other = ChouetteRepository(club.database)  # another process reads the same
    assert [info.id for info in await other.seated_in(bob)] == [playing.info.id]


async def test_when_a_player_last_acted(club: Club) -> None:
    playing = await start(club, await club.open())
    chouette_id = playing.info.id
    box, captain = (user_of(player) for player in playing.game.table.order[:2])
    assert await club.chouettes.last_action_at(chouette_id, box) is None  # no roll yet

    # The opening roll is recorded by itself when the game starts: before their first own
    # event, everyone counts from then.
    started = NOW + timedelta(minutes=1)
    game, recorded = advance(playing.game, BoardAction(str(box), OpeningRoll((6, 1))))
    version = await club.chouettes.append(
        chouette_id, playing.version, recorded, None, now=started, then=None
    )
    assert await club.chouettes.last_action_at(chouette_id, box) == started
    assert await club.chouettes.last_action_at(chouette_id, captain) == started

    moved = started + timedelta(minutes=20)
    play = str(game.board.legal_plays()[0])
    _after, recorded = advance(game, BoardAction(str(box), Move(0, play)))
    await club.chouettes.append(chouette_id, version, recorded, box, now=moved, then=None)
    for repository in (club.chouettes, ChouetteRepository(club.database)):  # memory or not
        assert await repository.last_action_at(chouette_id, box) == moved
        assert await repository.last_action_at(chouette_id, captain) == started
        assert await repository.acted_since(chouette_id, box, moved - timedelta(minutes=10))
        assert not await repository.acted_since(chouette_id, box, moved)
        assert not await repository.acted_since(chouette_id, captain, started)
        assert await repository.acted_since(chouette_id, captain, NOW)
