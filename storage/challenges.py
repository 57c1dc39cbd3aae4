"""Challenges: an offer to play, answered once (accept, decline, cancel) or left to expire."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from gammon.match_rules import MatchRules
from storage.database import Database
from storage.errors import ConflictError, NotFoundError
from storage.records import ChallengeRecord
from storage.schema import challenges

OPEN = "open"
ANSWERS = ("accepted", "declined", "cancelled", "expired")


def _challenge(data: RowMapping) -> ChallengeRecord:
    return ChallengeRecord(
        id=data["id"],
        chat_id=data["chat_id"],
        challenger_id=data["challenger_id"],
        challenged_id=data["challenged_id"],
        rules=MatchRules.from_dict(data["rules"]),
        move_time_limit=data["move_time_limit"],
        state=data["state"],
        expires_at=data["expires_at"],
        message_ref=data["message_ref"],
        match_id=data["match_id"],
    )


class ChallengeRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def create_challenge(
        self,
        *,
        chat_id: int,
        challenger_id: int,
        challenged_id: int | None,
        rules: MatchRules,
        move_time_limit: int | None,
        lifetime: timedelta = timedelta(days=1),
        now: datetime | None = None,
    ) -> ChallengeRecord:
        moment = now or datetime.now(UTC)
        async with self.engine.begin() as connection:
            result = await connection.execute(
                sa.insert(challenges).values(
                    chat_id=chat_id,
                    challenger_id=challenger_id,
                    challenged_id=challenged_id,
                    rules=rules.to_dict(),
                    move_time_limit=move_time_limit,
                    state=OPEN,
                    expires_at=moment + lifetime,
                    created_at=moment,
                )
            )
            assert result.inserted_primary_key is not None
            challenge_id = int(result.inserted_primary_key[0])
        return await self.get_challenge(challenge_id)

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord:
        row = (
            await self.engine.read(sa.select(challenges).where(challenges.c.id == challenge_id))
        ).first()
        if row is None:
            raise NotFoundError(f"no challenge {challenge_id}")
        return _challenge(row._mapping)

    async def answer_challenge(
        self, challenge_id: int, answer: str, *, match_id: int | None = None
    ) -> ChallengeRecord:
        """Close an open challenge once: a second answer (a double click, a race between two
        accepting users) gets :class:`ConflictError` and changes nothing."""
        if answer not in ANSWERS:
            raise ValueError(f"an answer is one of {ANSWERS}")
        async with self.engine.begin() as connection:
            result = await connection.execute(
                sa.update(challenges)
                .where(challenges.c.id == challenge_id, challenges.c.state == OPEN)
                .values(state=answer, match_id=match_id)
            )
            if result.rowcount != 1:
                raise ConflictError(f"challenge {challenge_id} is no longer open")
        return await self.get_challenge(challenge_id)

    async def set_message_ref(self, challenge_id: int, message_ref: str) -> None:
        async with self.engine.begin() as connection:
            await connection.execute(
                sa.update(challenges)
                .where(challenges.c.id == challenge_id)
                .values(message_ref=message_ref)
            )

    async def open_challenges(self, chat_id: int) -> list[ChallengeRecord]:
        rows = await self.engine.read(
            sa.select(challenges)
            .where(challenges.c.chat_id == chat_id, challenges.c.state == OPEN)
            .order_by(challenges.c.id)
        )
        return [_challenge(row._mapping) for row in rows]

    async def due_challenges(self, now: datetime) -> list[ChallengeRecord]:
        """Open challenges past their expiry, for the scheduler to close."""
        rows = await self.engine.read(
            sa.select(challenges)
            .where(challenges.c.state == OPEN, challenges.c.expires_at <= now)
            .order_by(challenges.c.id)
        )
        return [_challenge(row._mapping) for row in rows]
