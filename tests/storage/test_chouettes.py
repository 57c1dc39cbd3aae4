"""Chouette sessions in the database, on SQLite and PostgreSQL: seating, games written to the
event log with version checks, idempotent events, the scoreboard, one open session per chat
enforced by the database, the session's fair dice and its secret seed, and restarts."""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from bot.core.events import chouette_then, session_ended
from gammon.actions import OpeningRoll, Roll
from gammon.chouette import (
    Answer,
    BoardAction,
    BoxDoubles,
    ChouetteAction,
    ChouetteError,
    ChouetteGame,
    ChouetteRules,
    MemberAnswers,
    advance,
    next_table,
    seat_order,
    settle,
)
from gammon.fair_dice import FairDice, transcript, verify_transcript
from gammon.flow import Phase
from storage import (
    AlreadyAppliedError,
    ChatRepository,
    ChouetteEndedError,
    ChouetteExistsError,
    ChouetteInfo,
    ChouetteRepository,
    ChouetteStatus,
    ConflictError,
    Database,
    NotFoundError,
    SecretSeed,
    SeedStillSecretError,
    UserRepository,
)
from storage.chouette.records import user_of
from storage.database import _MIGRATIONS
from storage.schema import chouette_events, chouettes, open_chouettes
from tests.gammon.test_chouette_fuzz import sensible
from tests.storage.pauses import pause_after_first_statement
from tests.storage.postgres import sync_url

NOW = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)
SEED = bytes(range(32))
RULES = ChouetteRules(beavers=True)


@dataclass
class Club:
    """A chat, some players and the repository: what each test starts from."""

    database: Database
    chouettes: ChouetteRepository
    chat_id: int
    players: list[int]
    events: int = 0

    def event(self) -> str:
        """A fresh platform event id."""
        self.events += 1
        return f"update-{self.events}"

    async def open(self, seed: bytes = SEED, *, limit: int | None = None) -> ChouetteInfo:
        """A session opened by the first player, everyone else joined, the client seed set."""
        info = await self.chouettes.open_table(
            self.chat_id,
            self.players[0],
            RULES,
            SecretSeed(seed),
            NOW,
            self.event(),
            move_time_limit=limit,
        )
        for user in self.players[1:]:
            info = await self.chouettes.join(info.id, user, info.version, now=NOW)
        return await self.chouettes.set_client_seed(info.id, info.version, "joined-seeds")


async def make_club(database: Database, players: int = 4, chat: str = "-700") -> Club:
    users = UserRepository(database)
    ids = [
        (await users.upsert_user("telegram", str(2001 + n), f"Player {n}")).id
        for n in range(players)
    ]
    chat_id = (await ChatRepository(database).upsert_chat("telegram", chat)).id
    return Club(database, ChouetteRepository(database), chat_id, ids)


@pytest.fixture
async def club(migrated_url: str) -> AsyncIterator[Club]:
    database = Database(migrated_url)
    yield await make_club(database)
    await database.close()


@dataclass
class Playing:
    """A game being played through the repository, as the command layer would: the rules
    decide, storage writes what they recorded."""

    chouettes: ChouetteRepository
    info: ChouetteInfo
    game: ChouetteGame
    version: int
    nonce: int
    rolled: list[tuple[int, int]] = field(default_factory=list)

    async def act(self, action: ChouetteAction, event_id: str | None = None) -> None:
        action = await self._with_fair_dice(action)
        self.game, recorded = advance(self.game, action)
        self.version = await self.chouettes.append(
            self.info.id,
            self.version,
            recorded,
            user_of(action.player),
            event_id,
            now=NOW,
            then=chouette_then(self.info.id, self.info.game_number, self.game.finished),
        )

    async def _with_fair_dice(self, action: ChouetteAction) -> ChouetteAction:
        """The action with the session's next dice when it rolls."""
        if isinstance(action, BoardAction) and isinstance(action.action, OpeningRoll | Roll):
            dice = await self.chouettes.dice_for(self.info.id, self.nonce)
            self.nonce += 1
            self.rolled.append(dice)
            inner = action.action
            made = OpeningRoll(dice) if isinstance(inner, OpeningRoll) else Roll(inner.player, dice)
            return BoardAction(action.player, made)
        return action


async def seat_by_dice(repository: ChouetteRepository, info: ChouetteInfo) -> tuple[list[int], int]:
    """One die each from the session's dice, tied players rolling again: the order and the
    dice events used."""
    rolls: dict[str, list[int]] = {str(user): [] for user in info.seats}
    nonce = info.dice_nonce
    rolling = list(rolls)
    while rolling:
        for player in rolling:
            rolls[player].append((await repository.dice_for(info.id, nonce))[0])
            nonce += 1
        rolling = [p for p in rolls if [rolls[q] for q in rolls].count(rolls[p]) > 1]
    return [int(player) for player in seat_order(rolls)], nonce - info.dice_nonce


async def start(club: Club, info: ChouetteInfo, *, by_dice: bool = False) -> Playing:
    order, used = (await seat_by_dice(club.chouettes, info)) if by_dice else (list(info.seats), 0)
    started = await club.chouettes.start_game(
        info.id, info.version, order, seating_dice=used, now=NOW
    )
    loaded = await club.chouettes.load(info.id)
    assert loaded.game is not None
    return Playing(club.chouettes, started, loaded.game, started.version, started.dice_nonce)


async def play_out(playing: Playing, seed: int, limit: int = 2000) -> None:
    rng = random.Random(seed)
    while not playing.game.finished and len(playing.game.actions) < limit:
        await playing.act(sensible(playing.game, rng))


async def finish(club: Club, playing: Playing) -> ChouetteInfo:
    points = {user_of(player): won for player, won in settle(playing.game).items()}
    order = [user_of(player) for player in next_table(playing.game).order]
    return await club.chouettes.finish_game(
        playing.info.id, playing.version, points, order, now=NOW
    )


async def everyone_drops(playing: Playing) -> None:
    """A short game: at the start of the box's first turn before rolling, the box doubles
    the whole team, who all drop."""
    rng = random.Random(5)
    board = playing.game.board
    while not (board.phase is Phase.ROLLING and board.player_on_roll == 0):
        await playing.act(sensible(playing.game, rng))
        board = playing.game.board
    table = playing.game.table
    await playing.act(BoxDoubles(table.box, table.team))
    for member in table.team:
        await playing.act(MemberAnswers(member, Answer.DROP))
    assert playing.game.finished


async def event_count(database: Database, chouette_id: int) -> int:
    found = await database.engine.read(
        sa.select(sa.func.count())
        .select_from(chouette_events)
        .where(chouette_events.c.chouette_id == chouette_id)
    )
    return int(found.scalar() or 0)


# --- the round trip ----------------------------------------------------------------------


async def test_a_session_from_opening_to_the_second_game(club: Club) -> None:
    host, anna, bob, cy = club.players
    info = await club.chouettes.open_table(club.chat_id, host, RULES, SecretSeed(SEED), NOW, "o")
    assert (info.status, info.seats, info.version, info.game_number) == ("open", (host,), 0, 1)
    assert info.dice_commitment == hashlib.sha256(SEED).hexdigest()
    for user in (anna, bob, cy):
        info = await club.chouettes.join(info.id, user, info.version, now=NOW)
    info = await club.chouettes.leave(info.id, bob, info.version, now=NOW)
    info = await club.chouettes.join(info.id, bob, info.version, now=NOW)
    assert info.seats == (host, anna, cy, bob)
    assert info.version == 5
    info = await club.chouettes.set_client_seed(info.id, info.version, "joined-seeds")

    playing = await start(club, info, by_dice=True)
    assert playing.info.status is ChouetteStatus.PLAYING
    assert sorted(playing.info.seats) == sorted(info.seats)
    assert playing.info.game_nonce == playing.info.dice_nonce > 0  # the seating rolls
    await play_out(playing, seed=3)
    assert playing.game.finished
    loaded = await club.chouettes.load(info.id)
    assert loaded.game == playing.game
    assert loaded.info.dice_nonce == playing.nonce
    points = settle(playing.game)

    between = await finish(club, playing)
    assert between.status is ChouetteStatus.OPEN
    assert between.game_number == 2
    assert [str(user) for user in between.seats] == list(next_table(playing.game).order)
    loaded = await club.chouettes.load(info.id)
    assert loaded.game is None
    assert loaded.scoreboard.as_dict() == points
    assert loaded.totals == {user_of(player): won for player, won in points.items()}
    assert [(game.game_number, game.first_nonce) for game in loaded.games] == [
        (1, playing.info.game_nonce)
    ]

    second = await start(club, between)
    assert second.info.game_nonce == playing.nonce  # the session's dice go on counting
    await everyone_drops(second)
    replayed = (await ChouetteRepository(club.database).load(info.id)).game
    assert replayed is not None  # from the log alone: nothing of it in that one's memory
    assert replayed.actions == second.game.actions
    await finish(club, second)
    loaded = await club.chouettes.load(info.id)
    assert loaded.scoreboard.games == 2
    assert sum(loaded.totals.values()) == 0


async def test_the_game_in_memory_follows_the_log(club: Club) -> None:
    """Loads between appends apply only the events written since (and a load by another
    repository, with nothing in memory, replays them all): the same game either way."""
    playing = await start(club, await club.open())
    other = ChouetteRepository(club.database)
    rng = random.Random(11)
    for step in range(12):
        await playing.act(sensible(playing.game, rng))
        if step % 3 == 0:
            assert (await club.chouettes.load(playing.info.id)).game == playing.game
    assert (await club.chouettes.load(playing.info.id)).game == playing.game
    assert (await other.load(playing.info.id)).game == playing.game


async def test_a_restart_loads_the_same_session(club: Club, migrated_url: str) -> None:
    info = await club.open()
    first = await start(club, info, by_dice=True)
    await everyone_drops(first)
    await finish(club, first)
    playing = await start(club, await club.chouettes.info(info.id))
    await play_out(playing, seed=8, limit=40)
    before = await club.chouettes.load(info.id)
    await club.database.close()

    restarted = Database(migrated_url)
    try:
        await restarted.migrate()
        chouettes = ChouetteRepository(restarted)
        after = await chouettes.load(info.id)
        assert after == before
        assert after.game == playing.game
        assert await chouettes.dice_for(info.id, 7) == FairDice(SEED, "joined-seeds").roll(7)
        assert (await chouettes.active_for_chat(club.chat_id)) == before
    finally:
        await restarted.close()


# --- versions and event ids --------------------------------------------------------------


async def test_a_stale_version_is_refused_and_writes_nothing(club: Club) -> None:
    playing = await start(club, await club.open())
    await playing.act(BoardAction(playing.game.table.box, OpeningRoll((1, 1))))
    stale = playing.version - 1
    roll = [BoardAction(playing.game.table.box, OpeningRoll((3, 3)))]
    with pytest.raises(ConflictError):
        await club.chouettes.append(
            playing.info.id, stale, roll, club.players[0], "late", then=None
        )
    info = await club.chouettes.info(playing.info.id)
    assert info.version == playing.version
    assert info.dice_nonce == playing.nonce
    assert await event_count(club.database, info.id) == 1
    with pytest.raises(ConflictError):  # no seating while a game runs, whatever the version
        await club.chouettes.join(info.id, club.players[0], info.version)


async def test_a_stale_seating_change_is_refused(club: Club) -> None:
    info = await club.open()
    await club.chouettes.leave(info.id, club.players[3], info.version)
    with pytest.raises(ConflictError):
        await club.chouettes.leave(info.id, club.players[2], info.version)
    assert (await club.chouettes.info(info.id)).seats == tuple(club.players[:3])
    with pytest.raises(NotFoundError):
        await club.chouettes.join(9999, club.players[0], 0)


async def test_a_repeated_event_id_is_applied_once(club: Club) -> None:
    playing = await start(club, await club.open())
    box = playing.game.table.box
    await playing.act(BoardAction(box, OpeningRoll((1, 1))), "update-77")
    again = [BoardAction(box, OpeningRoll((2, 2)))]
    # Planned again from the version after it (the update taken over by another process) ...
    with pytest.raises(AlreadyAppliedError):
        await club.chouettes.append(
            playing.info.id, playing.version, again, user_of(box), "update-77", then=None
        )
    # ... or from the version it was planned at the first time.
    with pytest.raises(AlreadyAppliedError):
        await club.chouettes.append(
            playing.info.id, playing.version - 1, again, user_of(box), "update-77", then=None
        )
    assert await event_count(club.database, playing.info.id) == 1
    assert (await club.chouettes.info(playing.info.id)).version == playing.version
    assert await club.chouettes.applied(playing.info.id, "update-77")


async def test_writers_at_the_same_version_one_wins(databases: tuple[Database, Database]) -> None:
    first, second = databases
    club = await make_club(first)
    playing = await start(club, await club.open())
    action = [BoardAction(playing.game.table.box, OpeningRoll((4, 2)))]
    paused = pause_after_first_statement(first, "UPDATE chouettes")
    slow = asyncio.create_task(
        club.chouettes.append(
            playing.info.id, playing.version, action, club.players[0], "a", then=None
        )
    )
    assert await asyncio.to_thread(paused.wait, 5)
    with pytest.raises(ConflictError):
        await ChouetteRepository(second).append(
            playing.info.id, playing.version, action, club.players[0], "b", then=None
        )
    assert await slow == playing.version + 1
    assert await event_count(first, playing.info.id) == 1


async def test_every_write_after_another_process_s_end_is_told_the_session_has_ended(
    databases: tuple[Database, Database],
) -> None:
    """Another process ended the session at the version this one read: every write this one
    planned gets :class:`ChouetteEndedError` (not a mere stale version, which a retry could
    cure), a second end too, and nothing is written; a stale version of a live session stays
    a plain :class:`ConflictError`."""
    first, second = databases
    club = await make_club(first)
    playing = await start(club, await club.open())
    box = playing.game.table.box
    await playing.act(BoardAction(box, OpeningRoll((4, 2))))
    chouette_id, version = playing.info.id, playing.version
    with pytest.raises(ConflictError) as stale:
        await club.chouettes.end(chouette_id, version - 1, then=session_ended(chouette_id))
    assert not isinstance(stale.value, ChouetteEndedError)
    await ChouetteRepository(second).end(
        chouette_id, version, now=NOW, then=session_ended(chouette_id)
    )
    roll = [BoardAction(box, OpeningRoll((3, 1)))]
    writes = [
        club.chouettes.end(chouette_id, version, then=session_ended(chouette_id)),
        club.chouettes.append(chouette_id, version, roll, club.players[0], "late", then=None),
        club.chouettes.request(chouette_id, club.players[1], "leave"),
        club.chouettes.finish_game(chouette_id, version, {}, list(playing.info.seats)),
    ]
    for write in writes:
        with pytest.raises(ChouetteEndedError):
            await write
    assert (await club.chouettes.info(chouette_id)).version == version + 1  # the end's own
    assert await event_count(first, chouette_id) == 1
    assert await club.chouettes.requests(chouette_id) == []


async def test_a_seat_change_or_a_start_after_an_end_is_told_the_session_has_ended(
    databases: tuple[Database, Database],
) -> None:
    first, second = databases
    club = await make_club(first)
    info = await club.open()
    await ChouetteRepository(second).end(
        info.id, info.version, now=NOW, then=session_ended(info.id)
    )
    writes = [
        club.chouettes.join(info.id, club.players[0], info.version),
        club.chouettes.leave(info.id, club.players[1], info.version),
        club.chouettes.set_client_seed(info.id, info.version, "late"),
        club.chouettes.start_game(info.id, info.version, list(info.seats)),
    ]
    for write in writes:
        with pytest.raises(ChouetteEndedError):
            await write
    assert (await club.chouettes.info(info.id)).seats == info.seats


# --- one session per chat ----------------------------------------------------------------


async def test_one_session_per_chat(club: Club) -> None:
    info = await club.open()
    with pytest.raises(ChouetteExistsError) as refused:
        await club.chouettes.open_table(club.chat_id, club.players[1], RULES, SecretSeed(SEED))
    assert refused.value.chouette_id == info.id
    assert (await club.chouettes.active_for_chat(club.chat_id)) is not None
    again = await club.chouettes.open_table(
        club.chat_id, club.players[0], RULES, SecretSeed(SEED), NOW, "update-1"
    )
    assert again.id == info.id  # the same /chouette handled twice: the session it opened
    await club.chouettes.end(info.id, info.version, now=NOW, then=session_ended(info.id))
    assert await club.chouettes.active_for_chat(club.chat_id) is None
    other = await club.chouettes.open_table(club.chat_id, club.players[1], RULES, SecretSeed(SEED))
    assert other.id != info.id
    assert await club.chouettes.active_id_for_chat(club.chat_id) == other.id


async def test_the_database_refuses_a_second_open_session(club: Club) -> None:
    """Past the repository's own check: the database keeps one open session per chat."""
    await club.open()
    elsewhere = await make_club(club.database, chat="-701")
    other = await elsewhere.open()
    await club.chouettes.end(
        other.id, other.version, then=session_ended(other.id)
    )  # not open anywhere now
    with pytest.raises(sa.exc.IntegrityError):
        await club.database.engine.write(
            lambda connection: connection.execute(
                sa.insert(open_chouettes), {"chat_id": club.chat_id, "chouette_id": other.id}
            )
        )


async def test_sessions_opened_at_once_in_one_chat(databases: tuple[Database, Database]) -> None:
    """Two processes open a session in one chat at the same moment: the second checked
    before the first had committed, so only the database stops it."""
    first, second = databases
    club = await make_club(first)
    paused = pause_after_first_statement(first, "INSERT INTO open_chouettes")
    slow = asyncio.create_task(
        club.chouettes.open_table(club.chat_id, club.players[0], RULES, SecretSeed(SEED))
    )
    assert await asyncio.to_thread(paused.wait, 5)
    with pytest.raises(ChouetteExistsError):
        await ChouetteRepository(second).open_table(
            club.chat_id, club.players[1], RULES, SecretSeed(SEED)
        )
    opened = await slow
    count = await first.engine.read(sa.select(sa.func.count()).select_from(chouettes))
    assert count.scalar() == 1
    assert await club.chouettes.active_id_for_chat(club.chat_id) == opened.id


# --- seating and games -------------------------------------------------------------------


async def test_the_rules_of_seating(club: Club) -> None:
    host, anna, bob, cy = club.players
    info = await club.chouettes.open_table(club.chat_id, host, RULES, SecretSeed(SEED))
    with pytest.raises(ChouetteError) as seated:
        await club.chouettes.join(info.id, host, info.version)
    assert seated.value.reason == "already_seated"
    with pytest.raises(ChouetteError) as stranger:
        await club.chouettes.leave(info.id, anna, info.version)
    assert stranger.value.reason == "not_seated"
    info = await club.chouettes.join(info.id, anna, info.version)
    with pytest.raises(ChouetteError) as few:
        await club.chouettes.start_game(info.id, info.version, [host, anna])
    assert few.value.reason == "too_few_players"
    info = await club.chouettes.join(info.id, bob, info.version)
    with pytest.raises(ValueError, match="client seed"):
        await club.chouettes.start_game(info.id, info.version, [host, anna, bob])
    with pytest.raises(ValueError, match="client seed"):
        await club.chouettes.dice_for(info.id, 0)
    info = await club.chouettes.set_client_seed(info.id, info.version, "s")
    with pytest.raises(ConflictError):
        await club.chouettes.set_client_seed(info.id, info.version, "other")
    with pytest.raises(ValueError, match="not an order"):
        await club.chouettes.start_game(info.id, info.version, [host, anna, cy])
    assert (await club.chouettes.info(info.id)).version == info.version


async def test_a_full_table(migrated_url: str) -> None:
    database = Database(migrated_url)
    try:
        club = await make_club(database, players=9)
        info = await club.chouettes.open_table(
            club.chat_id, club.players[0], RULES, SecretSeed(SEED)
        )
        for user in club.players[1:8]:
            info = await club.chouettes.join(info.id, user, info.version)
        with pytest.raises(ChouetteError) as full:
            await club.chouettes.join(info.id, club.players[8], info.version)
        assert full.value.reason == "table_full"
    finally:
        await database.close()


async def test_points_must_add_up_to_zero(club: Club) -> None:
    playing = await start(club, await club.open())
    await everyone_drops(playing)
    points = {user_of(player): won for player, won in settle(playing.game).items()}
    points[club.players[0]] += 1
    with pytest.raises(ChouetteError) as refused:
        await club.chouettes.finish_game(
            playing.info.id, playing.version, points, list(playing.info.seats)
        )
    assert refused.value.reason == "not_zero_sum"
    with pytest.raises(ValueError, match="not an order"):
        await club.chouettes.finish_game(
            playing.info.id, playing.version, {}, list(playing.info.seats)
        )
    loaded = await club.chouettes.load(playing.info.id)
    assert loaded.info.status is ChouetteStatus.PLAYING
    assert loaded.games == ()


async def test_a_move_time_limit_sets_the_deadline(club: Club) -> None:
    info = await club.open(limit=60)
    assert info.deadline is None
    playing = await start(club, info)
    assert playing.info.deadline == NOW + timedelta(seconds=60)
    assert [timed.id for timed in await club.chouettes.timed_chouettes()] == [info.id]
    later = NOW + timedelta(seconds=30)
    await club.chouettes.append(
        info.id,
        playing.version,
        [BoardAction(playing.game.table.box, OpeningRoll((6, 1)))],
        club.players[0],
        now=later,
        then=None,
    )
    assert (await club.chouettes.info(info.id)).deadline == later + timedelta(seconds=60)
    ended = await club.chouettes.end(
        info.id, playing.version + 1, now=later, then=session_ended(info.id)
    )
    assert ended.deadline is None
    assert await club.chouettes.timed_chouettes() == []


async def test_a_game_over_and_not_settled_is_found_until_its_points_are_written(
    club: Club,
) -> None:
    playing = await start(club, await club.open())
    chouette_id = playing.info.id
    await playing.act(BoardAction(playing.game.table.box, OpeningRoll((6, 1))))
    assert (await club.chouettes.info(chouette_id)).game_over_at is None
    await everyone_drops(playing)  # its last append says the game is over
    found = await club.chouettes.unsettled_chouettes(NOW)
    assert [(info.id, info.game_over_at) for info in found] == [(chouette_id, NOW)]
    assert await club.chouettes.unsettled_chouettes(NOW - timedelta(seconds=1)) == []
    await finish(club, playing)
    assert await club.chouettes.unsettled_chouettes(NOW + timedelta(days=1)) == []
    assert (await club.chouettes.info(chouette_id)).game_over_at is None


# --- the dice and the seed ---------------------------------------------------------------


async def test_the_seed_is_secret_until_the_end(club: Club) -> None:
    seed = bytes(reversed(range(32)))
    info = await club.open(seed)
    assert "server_seed" not in {item.name for item in fields(ChouetteInfo)}
    assert repr(SecretSeed(seed)) == "SecretSeed(hidden)"
    with pytest.raises(SeedStillSecretError):
        await club.chouettes.reveal_seed(info.id)
    playing = await start(club, info, by_dice=True)
    await play_out(playing, seed=4, limit=30)
    with pytest.raises(SeedStillSecretError):
        await club.chouettes.reveal_seed(info.id)
    ended = await club.chouettes.end(info.id, playing.version, now=NOW, then=session_ended(info.id))
    assert ended.status is ChouetteStatus.ENDED
    assert ended.ended_at == NOW
    revealed = await club.chouettes.reveal_seed(info.id)
    assert revealed == seed
    assert hashlib.sha256(revealed).hexdigest() == info.dice_commitment
    # Anyone can now check every roll of the session, the seating rolls included.
    seating = [FairDice(revealed, "joined-seeds").roll(n) for n in range(playing.info.game_nonce)]
    dice = FairDice(revealed, info.client_seed or "")
    assert verify_transcript(transcript(dice, seating + playing.rolled)).ok
    with pytest.raises(ConflictError):
        await club.chouettes.end(info.id, ended.version, then=session_ended(info.id))


def _rolls_of(game: ChouetteGame, first: int) -> list[tuple[int, str, tuple[int, ...]]]:
    """The dice events of a game played here, read from its own actions from nonce
    ``first`` on: (nonce, kind, who rolled: the box and the captain for an opening roll)."""
    found: list[tuple[int, str, tuple[int, ...]]] = []
    for action in game.actions:
        if not isinstance(action, BoardAction):
            continue
        if isinstance(action.action, OpeningRoll):
            who = (user_of(game.table.box), user_of(game.table.captain))
            found.append((first + len(found), "opening", who))
        elif isinstance(action.action, Roll):
            found.append((first + len(found), "roll", (user_of(action.player),)))
    return found


async def test_the_dice_record_lists_every_roll_in_nonce_order(club: Club) -> None:
    """The seating dice as the caller used them, then each game's opening roll and rolls, a
    game ended by drops and one the session's end abandoned alike; with each game's order
    kept, the opening rolls name its box and captain."""
    info = await club.open()
    seating = [
        (user, await club.chouettes.dice_for(info.id, nonce))
        for nonce, user in enumerate(info.seats)  # storage keeps whatever the caller used
    ]
    order = list(reversed(info.seats))
    started = await club.chouettes.start_game(
        info.id, info.version, order, seating_rolls=seating, now=NOW
    )
    assert started.game_nonce == len(seating)
    loaded = await club.chouettes.load(info.id)
    assert loaded.game is not None
    first = Playing(club.chouettes, started, loaded.game, started.version, started.dice_nonce)
    await everyone_drops(first)
    between = await finish(club, first)
    second = await start(club, between)
    await play_out(second, seed=8, limit=12)  # a few rolls, then the session ends
    ended = await club.chouettes.end(info.id, second.version, now=NOW, then=session_ended(info.id))

    shown, rolls = await club.chouettes.dice_record(info.id)
    assert shown.id == info.id
    assert [(roll.nonce, roll.game, roll.kind.value, roll.players) for roll in rolls] == [
        *((nonce, 0, "seating", (user,)) for nonce, (user, _dice) in enumerate(seating)),
        *((nonce, 1, kind, who) for nonce, kind, who in _rolls_of(first.game, len(seating))),
        *((nonce, 2, kind, who) for nonce, kind, who in _rolls_of(second.game, first.nonce)),
    ]
    assert [roll.dice for roll in rolls] == [dice for _user, dice in seating] + [
        *first.rolled,
        *second.rolled,
    ]
    assert len(rolls) == ended.dice_nonce
    dice = FairDice(SEED, "joined-seeds")
    assert verify_transcript(transcript(dice, [roll.dice for roll in rolls])).ok


async def test_the_chat_s_last_ended_session(club: Club) -> None:
    assert await club.chouettes.latest_ended_in_chat(club.chat_id) is None
    first = await club.open()
    await club.chouettes.end(first.id, first.version, now=NOW, then=session_ended(first.id))
    second = await club.open()
    assert (await club.chouettes.latest_ended_in_chat(club.chat_id)).id == first.id  # type: ignore[union-attr]
    await club.chouettes.end(
        second.id, second.version, now=NOW + timedelta(minutes=5), then=session_ended(second.id)
    )
    assert (await club.chouettes.latest_ended_in_chat(club.chat_id)).id == second.id  # type: ignore[union-attr]


async def test_one_commitment_covers_every_game(club: Club) -> None:
    """The nonce goes on counting across games: no roll of the session repeats another's."""
    info = await club.open()
    rolled: list[tuple[int, int]] = []
    for game in range(3):
        playing = await start(club, info, by_dice=game == 0)
        assert playing.info.dice_nonce == playing.info.game_nonce
        await everyone_drops(playing)
        rolled += playing.rolled
        info = await finish(club, playing)
        assert info.dice_nonce == playing.nonce
    loaded = await club.chouettes.load(info.id)
    firsts = [game.first_nonce for game in loaded.games]
    assert firsts == sorted(set(firsts))
    dice = FairDice(SEED, "joined-seeds")
    assert rolled == [dice.roll(n) for n in range(firsts[0], info.dice_nonce)]


# --- the migration -----------------------------------------------------------------------


def test_the_migration_goes_down_and_up_again(database_url: str) -> None:
    engine = sa.create_engine(sync_url(database_url))
    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    try:
        for target, present in (("head", True), ("0009", False), ("head", True)):
            with engine.begin() as connection:
                config.attributes["connection"] = connection
                step = command.upgrade if present else command.downgrade
                step(config, target)
            names = set(sa.inspect(engine).get_table_names())
            wanted = {"chouettes", "open_chouettes", "chouette_events", "chouette_games"}
            wanted.add("chouette_requests")
            assert (wanted <= names) is present
            assert present or not (wanted & names)
    finally:
        engine.dispose()


# --- joining and leaving during a game ---------------------------------------------------


async def test_requests_made_at_once_all_survive(databases: tuple[Database, Database]) -> None:
    """Two processes take a join and a leave at the same moment (the first holding its
    transaction open): both are kept, and the game's end seats them and clears them."""
    first, second = databases
    club = await make_club(first)
    newcomer = (await UserRepository(first).upsert_user("telegram", "2999", "Newcomer")).id
    playing = await start(club, await club.open())
    leaver = club.players[3]
    paused = pause_after_first_statement(first, "INSERT INTO chouette_requests")
    slow = asyncio.create_task(club.chouettes.request(playing.info.id, newcomer, "join", now=NOW))
    assert await asyncio.to_thread(paused.wait, 5)
    assert await ChouetteRepository(second).request(playing.info.id, leaver, "leave", now=NOW)
    assert await slow
    waiting = await club.chouettes.requests(playing.info.id)
    assert sorted(waiting) == sorted([(newcomer, "join"), (leaver, "leave")])

    await everyone_drops(playing)
    order = [user_of(player) for player in next_table(playing.game).order]
    ended = await finish(club, playing)
    assert list(ended.seats) == [*(user for user in order if user != leaver), newcomer]
    assert await club.chouettes.requests(playing.info.id) == []


async def test_a_request_is_kept_once_and_the_other_kind_cancels_it(club: Club) -> None:
    playing = await start(club, await club.open())
    chouette_id, member = playing.info.id, club.players[2]
    assert await club.chouettes.request(chouette_id, member, "leave", now=NOW)
    assert not await club.chouettes.request(chouette_id, member, "leave", now=NOW)
    assert await club.chouettes.requests(chouette_id) == [(member, "leave")]
    assert await club.chouettes.request(chouette_id, member, "join", now=NOW)  # stays after all
    assert await club.chouettes.requests(chouette_id) == []
    with pytest.raises(ValueError, match="joins or leaves"):
        await club.chouettes.request(chouette_id, member, "sit")
    await club.chouettes.request(chouette_id, member, "leave", now=NOW)
    await club.chouettes.end(chouette_id, playing.version, now=NOW, then=session_ended(chouette_id))
    assert await club.chouettes.requests(chouette_id) == []  # the session's end clears them


async def _seven_playing(database: Database) -> tuple[Club, Playing, list[int]]:
    """Seven at the table, a game being played, and three users not seated."""
    club = await make_club(database, players=7)
    users = UserRepository(database)
    others = [(await users.upsert_user("telegram", f"39{n}", f"Other {n}")).id for n in range(3)]
    return club, await start(club, await club.open()), others


async def test_the_last_seat_asked_for_at_once_goes_to_one(
    databases: tuple[Database, Database],
) -> None:
    """Two processes take a join for the last free seat at the same moment (the first holding
    its transaction open after its insert): the second is refused at once, as the table is
    full, and nothing of it is written."""
    first, second = databases
    club, playing, (newcomer, late, _other) = await _seven_playing(first)
    chouette_id = playing.info.id
    paused = pause_after_first_statement(first, "INSERT INTO chouette_requests", seconds=1.0)
    slow = asyncio.create_task(club.chouettes.request(chouette_id, newcomer, "join", now=NOW))
    assert await asyncio.to_thread(paused.wait, 5)
    with pytest.raises(ChouetteError) as full:
        await ChouetteRepository(second).request(chouette_id, late, "join", now=NOW)
    assert full.value.reason == "table_full"
    assert await slow
    assert await club.chouettes.requests(chouette_id) == [(newcomer, "join")]


async def test_a_leave_taken_back_after_its_seat_was_asked_for_is_refused(
    databases: tuple[Database, Database],
) -> None:
    club, playing, (newcomer, extra, _other) = await _seven_playing(databases[0])
    chouette_id, leaver = playing.info.id, club.players[3]
    assert await club.chouettes.request(chouette_id, newcomer, "join", now=NOW)  # eight
    assert await club.chouettes.request(chouette_id, leaver, "leave", now=NOW)
    assert await club.chouettes.request(chouette_id, extra, "join", now=NOW)  # the leaver's
    with pytest.raises(ChouetteError) as full:
        await club.chouettes.request(chouette_id, leaver, "join", now=NOW)
    assert full.value.reason == "table_full"
    assert sorted(await club.chouettes.requests(chouette_id)) == sorted(
        [(newcomer, "join"), (leaver, "leave"), (extra, "join")]
    )


async def test_a_request_after_the_game_ended_is_refused(club: Club) -> None:
    """The game ended meanwhile: the player joins or leaves the table at once instead."""
    playing = await start(club, await club.open())
    await everyone_drops(playing)
    await finish(club, playing)
    with pytest.raises(ConflictError):
        await club.chouettes.request(playing.info.id, club.players[1], "leave", now=NOW)
    assert await club.chouettes.requests(playing.info.id) == []
