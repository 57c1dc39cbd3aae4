"""A tournament's pairings: announced once with the commitment to their match's dice,
looked up by the [Start] button's id or by their match, and a player replaced in them before
their first match."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import sqlalchemy as sa

from storage.database import Database
from storage.dice import SecretSeed
from storage.direct import DirectConnection
from storage.errors import NotFoundError
from storage.schema import matches, tournament_entrants, tournament_matches, tournaments
from storage.tournament import sql
from storage.tournament.records import TournamentMatchRecord, TournamentStatus
from storage.transaction import Transaction

_UNSTARTED = (
    sa.select(tournament_matches)
    .join(tournaments, tournaments.c.id == tournament_matches.c.tournament_id)
    .where(
        tournaments.c.status == TournamentStatus.RUNNING.value,
        tournament_matches.c.match_id.is_(None),
        tournament_matches.c.winner_id.is_(None),
    )
    .order_by(tournament_matches.c.id)
)

_PAIRING_KEY = (
    tournament_matches.c.tournament_id == sa.bindparam("tournament"),
    tournament_matches.c.slot == sa.bindparam("key"),
)
_PAIRING = sa.select(tournament_matches).where(*_PAIRING_KEY)
_PAIRING_BY_ID = sa.select(tournament_matches).where(tournament_matches.c.id == sa.bindparam("id"))
_OF_MATCH = sa.select(tournament_matches.c.tournament_id).where(
    tournament_matches.c.match_id == sa.bindparam("match")
)
_MATCH_SLUGS = (
    sa.select(tournament_matches.c.slot, matches.c.slug)
    .join(matches, matches.c.id == tournament_matches.c.match_id)
    .where(tournament_matches.c.tournament_id == sa.bindparam("tournament"))
)
_SLOT_SEED = sa.select(tournament_matches.c.server_seed).where(*_PAIRING_KEY)

_UNANNOUNCED = (
    sa.select(tournaments.c.id, tournaments.c.chat_id)
    .where(
        tournaments.c.status == TournamentStatus.RUNNING.value,
        sa.exists().where(
            tournament_matches.c.tournament_id == tournaments.c.id,
            tournament_matches.c.announced_at.is_(None),
            tournament_matches.c.match_id.is_(None),
            tournament_matches.c.winner_id.is_(None),
        ),
    )
    .order_by(tournaments.c.id)
)

_DEADLINE_OF_MATCH = sa.select(tournament_matches.c.deadline).where(
    tournament_matches.c.match_id == sa.bindparam("match")
)
_OVERDUE = (
    sa.select(tournament_matches)
    .join(tournaments, tournaments.c.id == tournament_matches.c.tournament_id)
    .where(
        tournaments.c.status == TournamentStatus.RUNNING.value,
        tournament_matches.c.deadline < sa.bindparam("now"),
        tournament_matches.c.winner_id.is_(None),
        tournament_matches.c.overdue_at.is_(None),
    )
    .order_by(tournament_matches.c.id)
)
_MARK_OVERDUE = (
    sa.update(tournament_matches)
    .where(
        tournament_matches.c.id == sa.bindparam("pairing"),
        tournament_matches.c.overdue_at.is_(None),
    )
    .values(overdue_at=sa.bindparam("now"))
)


class TournamentPairings:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def replace(self, tournament_id: int, leaving: int, coming: int) -> bool:
        """``coming`` takes ``leaving``'s place (seed, division and pairings) before
        ``leaving`` has played: False when ``leaving`` is not in it, or a match of theirs has
        started or been decided, or ``coming`` is in it already. Their pairings are announced
        again (with the new name), in threads of their own again: the old threads' [Start]
        no longer counts."""

        def write(connection: DirectConnection) -> bool:
            theirs = sa.or_(
                tournament_matches.c.player0_id == leaving,
                tournament_matches.c.player1_id == leaving,
            )
            mine = tournament_matches.c.tournament_id == tournament_id
            played = connection.execute(
                sa.select(tournament_matches.c.id).where(
                    mine,
                    theirs,
                    sa.or_(
                        tournament_matches.c.match_id.is_not(None),
                        tournament_matches.c.winner_id.is_not(None),
                    ),
                )
            ).first()
            if played is not None:
                return False
            entrants = tournament_entrants.c
            try:
                with connection.sqlalchemy.begin_nested():
                    moved = connection.execute(
                        sa.update(tournament_entrants)
                        .where(entrants.tournament_id == tournament_id, entrants.user_id == leaving)
                        .values(user_id=coming)
                    )
            except sa.exc.IntegrityError:
                return False  # the newcomer is in it already
            if moved.rowcount != 1:
                return False
            for column in ("player0_id", "player1_id"):
                connection.execute(
                    sa.update(tournament_matches)
                    .where(mine, tournament_matches.c[column] == leaving)
                    .values({column: coming, "announced_at": None, "thread_chat_id": None})
                )
            return True

        return await self.engine.write(write)

    async def announce(
        self, tournament_id: int, slot: str, seed: SecretSeed, moment: datetime
    ) -> TournamentMatchRecord | None:
        """Mark the pairing announced, with the commitment to its match's server ``seed``
        (kept secret until the match ends): the pairing as marked, or None when it was
        announced already (by another process) or is decided or started."""

        def write(connection: DirectConnection) -> TournamentMatchRecord | None:
            row = connection.execute(
                sa.update(tournament_matches)
                .where(
                    tournament_matches.c.tournament_id == tournament_id,
                    tournament_matches.c.slot == slot,
                    tournament_matches.c.announced_at.is_(None),
                    tournament_matches.c.match_id.is_(None),
                    tournament_matches.c.winner_id.is_(None),
                )
                .values(
                    announced_at=moment,
                    dice_commitment=seed.commitment,
                    server_seed=seed.stored,
                )
                .returning(*tournament_matches.c)
            ).first()
            return None if row is None else TournamentMatchRecord.of(row._mapping)

        return await self.engine.write(write)

    async def set_thread(self, pairing_id: int, thread_chat_id: int) -> None:
        """The pairing plays in the thread whose chat is ``thread_chat_id`` (opened by the
        process that announced it): its [Start] is pressed there, its match is there."""

        def write(connection: DirectConnection) -> None:
            connection.execute(
                sa.update(tournament_matches)
                .where(tournament_matches.c.id == pairing_id)
                .values(thread_chat_id=thread_chat_id)
            )

        await self.engine.write(write)

    async def pairing(self, tournament_id: int, slot: str) -> TournamentMatchRecord | None:
        row = (await self.engine.read(_PAIRING, {"tournament": tournament_id, "key": slot})).first()
        return None if row is None else TournamentMatchRecord.of(row._mapping)

    async def of_match(self, match_id: int) -> int | None:
        """The tournament the match was played for, if any."""
        found = await self.engine.read(_OF_MATCH, {"match": match_id})
        value = found.scalar()
        return None if value is None else int(value)

    async def match_slugs(self, tournament_id: int) -> dict[str, str]:
        """The web address (slug) of each started match of the tournament, by its slot: what
        the tournament's page links each match's own page with, read in one query."""
        rows = await self.engine.read(_MATCH_SLUGS, {"tournament": tournament_id})
        return {row.slot: row.slug for row in rows}

    async def server_seed(self, tournament_id: int) -> bytes:
        """The seed drawn when the tournament opened, for seeding by the dice: the caller
        reveals it at the start (its commitment was posted when the tournament opened)."""
        found = await self.engine.read(
            sa.select(tournaments.c.server_seed).where(tournaments.c.id == tournament_id)
        )
        value = found.scalar()
        if value is None:
            raise NotFoundError(f"no tournament {tournament_id}")
        return bytes.fromhex(value)

    async def pairing_by_id(self, pairing_id: int) -> TournamentMatchRecord | None:
        row = (await self.engine.read(_PAIRING_BY_ID, {"id": pairing_id})).first()
        return None if row is None else TournamentMatchRecord.of(row._mapping)

    async def slot_seed(self, tournament_id: int, slot: str) -> SecretSeed | None:
        """The server seed drawn when the pairing was announced (None: not announced)."""
        found = await self.engine.read(_SLOT_SEED, {"tournament": tournament_id, "key": slot})
        value = found.scalar()
        return None if value is None else SecretSeed(bytes.fromhex(value))

    async def decide(
        self,
        pairing: TournamentMatchRecord,
        winner: int,
        moment: datetime,
        then: Callable[[Transaction], None],
    ) -> bool:
        """The organiser's decision of a pairing whose match never started: ``winner`` wins
        it by walkover (its length to nothing), then ``then`` (the advance) in the same
        transaction. False when it was decided or started meanwhile."""
        loser = next(player for player in pairing.player_ids if player != winner)

        def write(connection: DirectConnection) -> bool:
            started = connection.execute(
                sa.select(tournament_matches.c.match_id).where(
                    tournament_matches.c.id == pairing.id
                )
            ).scalar()
            if started is not None:
                return False
            points = (pairing.length, 0)
            key = (pairing.tournament_id, pairing.slot)
            if not sql.record_result(connection, *key, (winner, loser), points, moment, True):
                return False
            then(Transaction(connection, moment))
            return True

        return await self.engine.write(write)

    async def deadline_of_match(self, match_id: int) -> datetime | None:
        """The deadline of the tournament pairing the match is played for (None: none)."""
        found = await self.engine.read(_DEADLINE_OF_MATCH, {"match": match_id})
        value: datetime | None = found.scalar()
        return value

    async def overdue(self, now: datetime) -> list[TournamentMatchRecord]:
        """Undecided pairings of running tournaments past their deadline, not yet said so."""
        rows = await self.engine.read(_OVERDUE, {"now": now})
        return [TournamentMatchRecord.of(row._mapping) for row in rows]

    async def mark_overdue(self, pairing_id: int, now: datetime) -> bool:
        """Mark that the pairing's deadline was said to have passed: True for the one caller
        (of all processes' clocks) that marks it."""

        def write(connection: DirectConnection) -> bool:
            marked = connection.execute(_MARK_OVERDUE, {"pairing": pairing_id, "now": now})
            return marked.rowcount == 1

        return await self.engine.write(write)

    async def unannounced(self) -> list[tuple[int, int]]:
        """(tournament, chat) of the running tournaments with pairings nobody announced (the
        process that made them known stopped before it posted them)."""
        rows = await self.engine.read(_UNANNOUNCED)
        return [(int(row[0]), int(row[1])) for row in rows]

    async def unstarted(self) -> list[TournamentMatchRecord]:
        """Pairings of running tournaments whose match has not started (the starter and the
        clock start them)."""
        rows = await self.engine.read(_UNSTARTED)
        return [TournamentMatchRecord.of(row._mapping) for row in rows]
