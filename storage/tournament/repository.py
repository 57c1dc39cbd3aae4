"""Tournaments and leagues: opening one, registration, the start with its seeds and first
pairings, pausing and cancelling, withdrawals, and reading one whole. What ends a match of a
tournament is written by the match-end transaction (:mod:`storage.tournament.sql`)."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from storage.database import Database
from storage.dice import SecretSeed
from storage.direct import DirectConnection
from storage.errors import ConflictError, NotFoundError
from storage.schema import leagues, tournament_entrants, tournament_matches, tournaments
from storage.tournament import sql
from storage.tournament.pairings import TournamentPairings
from storage.tournament.records import (
    LIVE,
    Pairing,
    TournamentRecord,
    TournamentSnapshot,
    TournamentStatus,
)
from storage.transaction import Transaction

SLUG_BYTES = 16  # as a match's pages: nobody finds a tournament's page by trying addresses

_BY_SLUG = sa.select(tournaments).where(tournaments.c.slug == sa.bindparam("slug"))
_OF_THREAD = (
    sa.select(tournaments)
    .join(tournament_matches, tournament_matches.c.tournament_id == tournaments.c.id)
    .where(tournament_matches.c.thread_chat_id == sa.bindparam("chat"))
    .order_by(tournaments.c.id.desc())
    .limit(1)
)
_LIVE_IN_CHAT = (
    sa.select(tournaments)
    .where(
        tournaments.c.chat_id == sa.bindparam("chat"),
        tournaments.c.status.in_([status.value for status in LIVE]),
    )
    .order_by(tournaments.c.id)
)

_DUE_TO_CLOSE = (
    sa.select(tournaments)
    .where(
        tournaments.c.status == TournamentStatus.OPEN.value,
        tournaments.c.closes_at <= sa.bindparam("now"),
    )
    .order_by(tournaments.c.id)
)
_LATEST = (
    sa.select(tournaments)
    .where(tournaments.c.chat_id == sa.bindparam("chat"))
    .order_by(tournaments.c.id.desc())
    .limit(1)
)
_LATEST_SEASON = (
    sa.select(tournaments)
    .where(tournaments.c.chat_id == sa.bindparam("chat"), tournaments.c.league_id.is_not(None))
    .order_by(tournaments.c.id.desc())
    .limit(1)
)

_SEASON = sa.select(tournaments).where(
    tournaments.c.league_id == sa.bindparam("league"),
    tournaments.c.season == sa.bindparam("season"),
)


class TournamentRepository:
    """Tournaments whole (the facade: a tournament's pairings are
    :class:`~storage.tournament.pairings.TournamentPairings`', whose methods it hands on)."""

    def __init__(self, database: Database) -> None:
        self.engine = database.engine
        self.pairings = TournamentPairings(database)
        self.announce = self.pairings.announce
        self.set_thread = self.pairings.set_thread
        self.pairing = self.pairings.pairing
        self.pairing_by_id = self.pairings.pairing_by_id
        self.of_match = self.pairings.of_match
        self.match_slugs = self.pairings.match_slugs
        self.server_seed = self.pairings.server_seed
        self.slot_seed = self.pairings.slot_seed
        self.unstarted = self.pairings.unstarted
        self.unannounced = self.pairings.unannounced
        self.deadline_of_match = self.pairings.deadline_of_match
        self.overdue = self.pairings.overdue
        self.mark_overdue = self.pairings.mark_overdue
        self.decide = self.pairings.decide
        self.replace = self.pairings.replace

    async def create(
        self,
        *,
        chat_id: int,
        organiser_id: int,
        name: str,
        format: Mapping[str, Any],
        lengths: Mapping[str, Any],
        rules: Mapping[str, Any],
        seeding: str,
        seed: SecretSeed,
        moment: datetime,
        rated: bool = True,
        move_time_limit: int | None = None,
        match_days: int | None = None,
        closes_at: datetime | None = None,
        league_id: int | None = None,
        season: int | None = None,
    ) -> TournamentRecord:
        """A tournament open for registration."""
        values = {
            "chat_id": chat_id,
            "organiser_id": organiser_id,
            "name": name,
            "slug": secrets.token_urlsafe(SLUG_BYTES),
            "format": dict(format),
            "lengths": dict(lengths),
            "rules": dict(rules),
            "move_time_limit": move_time_limit,
            "match_days": match_days,
            "rated": rated,
            "seeding": seeding,
            "seed_commitment": seed.commitment,
            "server_seed": seed.stored,
            "status": TournamentStatus.OPEN.value,
            "version": 0,
            "closes_at": closes_at,
            "created_at": moment,
            "league_id": league_id,
            "season": season,
        }

        return await self.get(await self._insert(tournaments, values))

    async def create_league(
        self,
        chat_id: int,
        organiser_id: int,
        name: str,
        promoted: int,
        relegated: int,
        at: datetime,
    ) -> int:
        values = {
            "chat_id": chat_id,
            "organiser_id": organiser_id,
            "name": name,
            "promoted": promoted,
            "relegated": relegated,
            "created_at": at,
        }

        return await self._insert(leagues, values)

    async def _insert(self, table: sa.Table, values: Mapping[str, Any]) -> int:
        """Insert one row; its generated id."""

        def write(connection: DirectConnection) -> int:
            inserted = connection.execute(sa.insert(table), dict(values)).inserted_primary_key
            assert inserted is not None
            return int(inserted[0])

        return await self.engine.write(write)

    async def due_to_close(self, now: datetime) -> list[TournamentRecord]:
        """Tournaments open for registration whose closing time has come."""
        rows = await self.engine.read(_DUE_TO_CLOSE, {"now": now})
        return [TournamentRecord.of(row._mapping) for row in rows]

    async def latest_in_chat(self, chat_id: int) -> TournamentRecord | None:
        """The chat's newest tournament, whatever its state."""
        row = (await self.engine.read(_LATEST, {"chat": chat_id})).first()
        return None if row is None else TournamentRecord.of(row._mapping)

    async def latest_season(self, chat_id: int) -> TournamentRecord | None:
        """The chat's newest league season, whatever its state."""
        row = (await self.engine.read(_LATEST_SEASON, {"chat": chat_id})).first()
        return None if row is None else TournamentRecord.of(row._mapping)

    async def season(self, league_id: int | None, season: int) -> TournamentRecord:
        """A league's season by its number."""
        row = (await self.engine.read(_SEASON, {"league": league_id, "season": season})).first()
        if row is None:
            raise NotFoundError(f"no season {season} of league {league_id}")
        return TournamentRecord.of(row._mapping)

    async def get(self, tournament_id: int) -> TournamentRecord:
        return (await self.snapshot(tournament_id)).tournament

    async def snapshot(self, tournament_id: int) -> TournamentSnapshot:
        return await self.engine.write(lambda c: sql.snapshot(c, tournament_id, lock=False))

    async def by_slug(self, slug: str) -> TournamentRecord | None:
        row = (await self.engine.read(_BY_SLUG, {"slug": slug})).first()
        return None if row is None else TournamentRecord.of(row._mapping)

    async def of_thread(self, chat_id: int) -> TournamentRecord | None:
        """The tournament one of whose pairings plays in the thread whose chat is ``chat_id``
        (the latest, should a thread have served two)."""
        row = (await self.engine.read(_OF_THREAD, {"chat": chat_id})).first()
        return None if row is None else TournamentRecord.of(row._mapping)

    async def live_in_chat(self, chat_id: int) -> list[TournamentRecord]:
        """The chat's tournaments open for registration, running or paused, oldest first."""
        rows = await self.engine.read(_LIVE_IN_CHAT, {"chat": chat_id})
        return [TournamentRecord.of(row._mapping) for row in rows]

    async def join(self, tournament_id: int, user_id: int, moment: datetime) -> bool:
        """Register the user; False when they already were. :class:`ConflictError` when the
        registration is closed."""

        def write(connection: DirectConnection) -> bool:
            _require(connection, tournament_id, TournamentStatus.OPEN)
            try:
                with connection.sqlalchemy.begin_nested():
                    connection.execute(
                        sa.insert(tournament_entrants),
                        {"tournament_id": tournament_id, "user_id": user_id, "joined_at": moment},
                    )
            except sa.exc.IntegrityError:
                return False
            return True

        return await self.engine.write(write)

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        """Unregister before the start; False when not registered."""

        def write(connection: DirectConnection) -> bool:
            _require(connection, tournament_id, TournamentStatus.OPEN)
            gone = connection.execute(
                sa.delete(tournament_entrants).where(
                    tournament_entrants.c.tournament_id == tournament_id,
                    tournament_entrants.c.user_id == user_id,
                )
            )
            return gone.rowcount == 1

        return await self.engine.write(write)

    async def start(
        self,
        tournament_id: int,
        version: int,
        seeds: Sequence[int],
        pairings: Sequence[Pairing],
        moment: datetime,
        divisions: Mapping[int, int] | None = None,
        then: Callable[[Transaction], None] | None = None,
    ) -> None:
        """Close registration: the entrants' seeds (``seeds`` in order, 1 first; entrants not
        among them leave), ``pairings``, the status running, then ``then`` (the caller's
        writes in the same transaction: the first pairings the format derives).
        :class:`ConflictError` when the tournament is no longer open at ``version``."""

        def write(connection: DirectConnection) -> None:
            _move(
                connection,
                (tournament_id, version),
                [TournamentStatus.OPEN],
                {"status": TournamentStatus.RUNNING.value, "started_at": moment},
            )
            for place, user_id in enumerate(seeds, start=1):
                connection.execute(
                    sa.update(tournament_entrants)
                    .where(
                        tournament_entrants.c.tournament_id == tournament_id,
                        tournament_entrants.c.user_id == user_id,
                    )
                    .values(seed=place, division=(divisions or {}).get(user_id))
                )
            connection.execute(
                sa.delete(tournament_entrants).where(
                    tournament_entrants.c.tournament_id == tournament_id,
                    tournament_entrants.c.seed.is_(None),
                )
            )
            sql.add_pairings(connection, tournament_id, pairings, moment)
            if then is not None:
                then(Transaction(connection, moment))

        await self.engine.write(write)

    async def set_status(
        self,
        tournament_id: int,
        version: int,
        allowed: Sequence[TournamentStatus],
        to: TournamentStatus,
    ) -> None:
        """Pause, resume or cancel: from one of ``allowed`` at ``version``
        (:class:`ConflictError` otherwise)."""

        def write(connection: DirectConnection) -> None:
            _move(connection, (tournament_id, version), allowed, {"status": to.value})

        await self.engine.write(write)

    async def withdraw(
        self,
        tournament_id: int,
        user_id: int,
        moment: datetime,
        then: Callable[[Transaction], None] | None = None,
    ) -> bool:
        """The player leaves a running or paused tournament: their matches still to play are
        walkovers (``then`` writes them, in the same transaction). False when they were not
        in it or had withdrawn already."""

        def write(connection: DirectConnection) -> bool:
            left = connection.execute(
                sa.update(tournament_entrants)
                .where(
                    tournament_entrants.c.tournament_id == tournament_id,
                    tournament_entrants.c.user_id == user_id,
                    tournament_entrants.c.withdrawn_at.is_(None),
                )
                .values(withdrawn_at=moment)
            )
            if left.rowcount != 1:
                return False
            if then is not None:
                then(Transaction(connection, moment))
            return True

        return await self.engine.write(write)


def _move(
    connection: DirectConnection,
    at: tuple[int, int],
    allowed: Sequence[TournamentStatus],
    values: Mapping[str, Any],
) -> None:
    """Write ``values`` on the tournament at (id, version) if its status is one of
    ``allowed``, its version going up; :class:`ConflictError` otherwise."""
    tournament_id, version = at
    moved = connection.execute(
        sa.update(tournaments)
        .where(
            tournaments.c.id == tournament_id,
            tournaments.c.version == version,
            tournaments.c.status.in_([status.value for status in allowed]),
        )
        .values(version=version + 1, **values)
    )
    if moved.rowcount != 1:
        raise ConflictError(f"tournament {tournament_id} moved on from version {version}")


def _require(connection: DirectConnection, tournament_id: int, status: TournamentStatus) -> None:
    row = connection.execute(
        sa.select(tournaments.c.status).where(tournaments.c.id == tournament_id)
    ).first()
    if row is None:
        raise NotFoundError(f"no tournament {tournament_id}")
    if row[0] != status.value:
        raise ConflictError(f"tournament {tournament_id} is {row[0]}, not {status.value}")
