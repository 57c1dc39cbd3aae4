"""Tournaments in the database: registration, the start, slots paired once and started once,
results recorded once; on SQLite and PostgreSQL."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from gammon.match_rules import MatchRules
from storage import (
    ChatRepository,
    ConflictError,
    Database,
    MatchRepository,
    SecretSeed,
    TournamentPairing,
    TournamentRecord,
    TournamentRepository,
    TournamentStatus,
    UserRepository,
)
from storage.direct import DirectConnection
from storage.tournament import sql

MOMENT = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


@dataclass
class Club:
    database: Database
    tournaments: TournamentRepository
    matches: MatchRepository
    chat_id: int
    players: list[int]

    async def open(self) -> TournamentRecord:
        return await self.tournaments.create(
            chat_id=self.chat_id,
            organiser_id=self.players[0],
            name="Friday cup",
            format={"kind": "single"},
            lengths={"default": 5},
            rules=MatchRules(length=5).to_dict(),
            seeding="rating",
            seed=SecretSeed(os.urandom(32)),
            moment=MOMENT,
        )


@pytest.fixture
async def club(migrated_url: str) -> AsyncIterator[Club]:
    database = Database(migrated_url)
    users = UserRepository(database)
    players = [
        (await users.upsert_user("telegram", str(2000 + n), f"Player {n}")).id for n in range(4)
    ]
    chat = await ChatRepository(database).upsert_chat("telegram", "-700")
    yield Club(
        database, TournamentRepository(database), MatchRepository(database), chat.id, players
    )
    await database.close()


async def test_registration_is_once_per_player_and_only_while_open(club: Club) -> None:
    opened = await club.open()
    assert opened.status is TournamentStatus.OPEN
    assert len(opened.slug) >= 22
    assert opened.seed_commitment
    assert await club.tournaments.join(opened.id, club.players[0], MOMENT) is True
    assert await club.tournaments.join(opened.id, club.players[0], MOMENT) is False
    assert await club.tournaments.join(opened.id, club.players[1], MOMENT) is True
    assert await club.tournaments.leave(opened.id, club.players[1]) is True
    assert await club.tournaments.leave(opened.id, club.players[1]) is False
    for player in club.players[1:]:
        await club.tournaments.join(opened.id, player, MOMENT)
    snapshot = await club.tournaments.snapshot(opened.id)
    assert sorted(snapshot.seeded) == sorted(club.players)
    await club.tournaments.start(opened.id, opened.version, club.players, [], MOMENT)
    with pytest.raises(ConflictError):
        await club.tournaments.join(opened.id, 99, MOMENT)
    with pytest.raises(ConflictError):  # started once
        await club.tournaments.start(opened.id, opened.version, club.players, [], MOMENT)
    started = await club.tournaments.snapshot(opened.id)
    assert started.tournament.status is TournamentStatus.RUNNING
    assert started.seeded == club.players  # seed order as given
    assert [tournament.id for tournament in await club.tournaments.live_in_chat(club.chat_id)] == [
        opened.id
    ]
    assert (await club.tournaments.by_slug(opened.slug)) == started.tournament


async def _started(club: Club) -> TournamentRecord:
    opened = await club.open()
    for player in club.players:
        await club.tournaments.join(opened.id, player, MOMENT)
    a, b, c, d = club.players
    first_round = [
        TournamentPairing("main-1-1", (a, d), 5),
        TournamentPairing("main-1-2", (b, c), 5),
    ]
    await club.tournaments.start(opened.id, opened.version, club.players, first_round, MOMENT)
    return opened


async def test_a_slot_is_paired_once(club: Club) -> None:
    opened = await _started(club)
    again = [TournamentPairing("main-1-1", (club.players[0], club.players[1]), 5)]
    with pytest.raises(sa.exc.IntegrityError):
        await club.database.engine.write(
            lambda connection: sql.add_pairings(connection, opened.id, again, MOMENT)
        )
    slots = [match.slot for match in await club.tournaments.unstarted()]
    assert slots == ["main-1-1", "main-1-2"]


async def test_a_slot_starts_one_match_only(club: Club) -> None:
    opened = await _started(club)
    a, _b, _c, d = club.players

    async def start(chat_id: int) -> int:
        started = await club.matches.start_match(
            chat_id=chat_id,
            player_ids=(a, d),
            rules=MatchRules(length=5),
            client_seeds=("x", "y"),
            seed=SecretSeed(os.urandom(32)),
            tournament_slot=(opened.id, "main-1-1"),
        )
        return started.match.info.id

    match_id = await start(club.chat_id)
    other_chat = (await ChatRepository(club.database).upsert_chat("telegram", "-701")).id
    with pytest.raises(ConflictError):
        await start(other_chat)  # the seats are free there: only the slot refuses
    assert await club.matches.active_match_id_for(other_chat, a) is None  # nothing written
    snapshot = await club.tournaments.snapshot(opened.id)
    assert {m.slot: m.match_id for m in snapshot.matches} == {
        "main-1-1": match_id,
        "main-1-2": None,
    }
    assert [match.slot for match in await club.tournaments.unstarted()] == ["main-1-2"]

    def slot_of(connection: DirectConnection) -> tuple[int, str] | None:
        return sql.slot_of_match(connection, match_id)

    assert await club.database.engine.write(slot_of) == (opened.id, "main-1-1")


async def test_the_match_slugs_are_read_by_slot_for_started_matches_only(club: Club) -> None:
    opened = await _started(club)
    a, _b, _c, d = club.players
    assert await club.tournaments.match_slugs(opened.id) == {}
    started = await club.matches.start_match(
        chat_id=club.chat_id,
        player_ids=(a, d),
        rules=MatchRules(length=5),
        client_seeds=("x", "y"),
        seed=SecretSeed(os.urandom(32)),
        tournament_slot=(opened.id, "main-1-1"),
    )
    slug = started.match.info.slug
    assert len(slug) >= 16
    assert await club.tournaments.match_slugs(opened.id) == {"main-1-1": slug}
    assert await club.tournaments.match_slugs(opened.id + 1) == {}  # another's: none of these


async def test_a_result_is_recorded_once(club: Club) -> None:
    opened = await _started(club)
    a, _b, _c, d = club.players

    def record(connection: DirectConnection) -> bool:
        return sql.record_result(connection, opened.id, "main-1-1", (d, a), (5, 2), MOMENT)

    assert await club.database.engine.write(record) is True
    assert await club.database.engine.write(record) is False
    (decided,) = [m for m in (await club.tournaments.snapshot(opened.id)).matches if m.decided]
    assert (decided.winner_id, decided.loser_id) == (d, a)
    assert (decided.winner_points, decided.loser_points) == (5, 2)
    assert decided.walkover is False
    assert [match.slot for match in await club.tournaments.unstarted()] == ["main-1-2"]


async def test_pausing_and_cancelling_go_by_version(club: Club) -> None:
    opened = await _started(club)
    running = await club.tournaments.get(opened.id)
    await club.tournaments.set_status(
        opened.id, running.version, [TournamentStatus.RUNNING], TournamentStatus.PAUSED
    )
    assert await club.tournaments.unstarted() == []  # a paused tournament starts nothing
    with pytest.raises(ConflictError):
        await club.tournaments.set_status(
            opened.id, running.version, [TournamentStatus.PAUSED], TournamentStatus.RUNNING
        )
    paused = await club.tournaments.get(opened.id)
    assert paused.status is TournamentStatus.PAUSED
    await club.tournaments.set_status(
        opened.id, paused.version, [TournamentStatus.PAUSED], TournamentStatus.CANCELLED
    )
    assert await club.tournaments.live_in_chat(club.chat_id) == []


async def test_a_pairing_keeps_its_thread_until_a_replacement_announces_it_anew(
    club: Club,
) -> None:
    opened = await _started(club)
    marked = await club.tournaments.announce(
        opened.id, "main-1-1", SecretSeed(os.urandom(32)), MOMENT
    )
    assert marked is not None
    assert marked.thread_chat_id is None  # announced, no thread yet
    thread = await ChatRepository(club.database).upsert_chat("telegram", "-700:5")
    await club.tournaments.set_thread(marked.id, thread.id)
    kept = await club.tournaments.pairing(opened.id, "main-1-1")
    assert kept is not None
    assert kept.thread_chat_id == thread.id
    newcomer = await UserRepository(club.database).upsert_user("telegram", "2099", "Newcomer")
    assert await club.tournaments.replace(opened.id, club.players[0], newcomer.id)
    anew = await club.tournaments.pairing(opened.id, "main-1-1")
    assert anew is not None
    assert (anew.announced_at, anew.thread_chat_id) == (None, None)
