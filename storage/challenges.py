"""Challenges: an offer to play, answered once (accept, decline, cancel) or left to expire."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping
from sqlalchemy.exc import IntegrityError

from gammon.fair_dice import commitment
from gammon.match_rules import MatchRules
from storage.database import Database
from storage.direct import DirectConnection
from storage.errors import ChallengeLimitError, ConflictError, NotFoundError
from storage.records import ChallengeRecord, ChallengeState
from storage.schema import challenges, chats, users

OPEN = ChallengeState.OPEN
_NEWEST_LOOKED_AT = 16  # open offers read per lookup, newest first, to skip expired ones
ANSWERS = tuple(state for state in ChallengeState if state is not ChallengeState.OPEN)


def _challenge(data: RowMapping) -> ChallengeRecord:
    return ChallengeRecord(
        id=data["id"],
        chat_id=data["chat_id"],
        challenger_id=data["challenger_id"],
        challenged_id=data["challenged_id"],
        rules=MatchRules.from_dict(data["rules"]),
        move_time_limit=data["move_time_limit"],
        state=ChallengeState(data["state"]),
        expires_at=data["expires_at"],
        message_ref=data["message_ref"],
        match_id=data["match_id"],
        dice_commitment=data["dice_commitment"],
        created_at=data["created_at"],
        hints=bool(data["hints"]),
        rated=bool(data["rated"]),
        bot_level=data["bot_level"],
    )


# Every column but the secret seed.
_PUBLIC = [column for column in challenges.c if column.name != "server_seed"]


@dataclass(frozen=True)
class ChallengeLimits:
    """How many unexpired open challenges one user, and one chat, may have at once."""

    per_user: int = 5
    per_chat: int = 20


def _open_count_of(condition: Any) -> sa.Select[Any]:
    return (
        sa.select(sa.func.count())
        .select_from(challenges)
        .where(condition, challenges.c.state == OPEN, challenges.c.expires_at > sa.bindparam("now"))
    )


# The statements of every challenge, built once (storage/direct.py runs them straight).
_OPEN_OF_USER = _open_count_of(challenges.c.challenger_id == sa.bindparam("key"))
_OPEN_IN_CHAT = _open_count_of(challenges.c.chat_id == sa.bindparam("key"))
_LOCKS = tuple(
    sa.select(table.c.id).where(table.c.id == sa.bindparam("key")).with_for_update(key_share=True)
    for table in (chats, users)
)
_INSERT = sa.insert(challenges)


def _open_count(connection: DirectConnection, counted: Any, key: int, now: datetime) -> int:
    found = connection.execute(counted, {"key": key, "now": now}).scalar()
    return int(found or 0)


def _take_turn(connection: DirectConnection, chat_id: int, user_id: int) -> None:
    """Lock the chat's row and then the challenger's, so that challenges of one chat or one
    challenger are counted one after the other, in any process.

    Under PostgreSQL's READ COMMITTED, two inserts at the same moment would each count only
    their own new row and both pass; with the rows locked first (FOR NO KEY UPDATE, which
    leaves other inserts' foreign-key checks on these rows alone) the second waits until the
    first has committed, and its count then sees it. Always chat first, then user: no two
    such transactions wait for each other in a circle. SQLite has no row locks (SQLAlchemy
    leaves the clause out there): the insert that follows takes its one write lock instead."""
    for lock, key in zip(_LOCKS, (chat_id, user_id), strict=True):
        connection.execute(lock, {"key": key})


def _check_limits(
    connection: DirectConnection, limits: ChallengeLimits, chat_id: int, user_id: int, now: datetime
) -> None:
    """Counted after the insert, in its transaction, after :func:`_take_turn`: a challenge
    made at the same moment by another process is either counted here or waits and counts
    this one. On SQLite the insert took the write lock (a leading read would run before it,
    outside the transaction, and both could pass)."""
    if _open_count(connection, _OPEN_OF_USER, user_id, now) > limits.per_user:
        raise ChallengeLimitError("user", limits.per_user)
    if _open_count(connection, _OPEN_IN_CHAT, chat_id, now) > limits.per_chat:
        raise ChallengeLimitError("chat", limits.per_chat)


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
        server_seed: bytes | None = None,
        lifetime: timedelta = timedelta(days=1),
        now: datetime | None = None,
        limits: ChallengeLimits | None = None,
        hints: bool = False,
        rated: bool = True,
        event_id: str | None = None,
        bot_level: str | None = None,
    ) -> ChallengeRecord:
        """A new open challenge. ``server_seed`` is the secret seed of the match it may start;
        its SHA-256 is stored (and shown) with the challenge, the seed itself stays here.
        ``bot_level``: a challenge to the bot (``challenged_id``), which plays at that level.

        With ``limits``, the count of the challenger's open challenges (and of the chat's) is
        checked in the same transaction as the insert: :class:`ChallengeLimitError` when full.
        """
        moment = now or datetime.now(UTC)
        values = {
            "chat_id": chat_id,
            "challenger_id": challenger_id,
            "challenged_id": challenged_id,
            "rules": rules.to_dict(),
            "move_time_limit": move_time_limit,
            "state": OPEN,
            "expires_at": moment + lifetime,
            "created_at": moment,
            "dice_commitment": commitment(server_seed) if server_seed else None,
            "server_seed": server_seed.hex() if server_seed else None,
            "hints": hints,
            "rated": rated,
            "event_id": event_id,
            "bot_level": bot_level,
        }

        def write(connection: DirectConnection) -> int:
            if limits is not None:
                _take_turn(connection, chat_id, challenger_id)
            if event_id is not None:  # the same message again: the challenge it made, once
                made_by = {"chat_id": chat_id, "event_id": event_id}
                earlier = connection.execute(_MADE_BY, made_by).scalar()
                if earlier is not None:
                    return int(earlier)
            result = connection.execute(_INSERT, values)
            assert result.inserted_primary_key is not None
            if limits is not None:  # too many: raising rolls the insert back
                _check_limits(connection, limits, chat_id, challenger_id, moment)
            return int(result.inserted_primary_key[0])

        try:
            made = await self.engine.write(write)
        except IntegrityError:
            # Made a moment ago by another process handling the same message.
            if event_id is None:
                raise
            made_by = {"chat_id": chat_id, "event_id": event_id}
            found = (await self.engine.read(_MADE_BY, made_by)).scalar()
            if found is None:
                raise
            made = int(found)
        return await self.get_challenge(made)

    async def get_challenge(self, challenge_id: int) -> ChallengeRecord:
        row = (await self.engine.read(_CHALLENGE, {"id": challenge_id})).first()
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

    async def open_challenge_for(
        self, chat_id: int, user_id: int, now: datetime
    ) -> ChallengeRecord | None:
        """The newest unexpired open challenge in the chat that ``user_id`` may accept (made
        to them, or to anyone by someone else): two index seeks, however many are open.
        Expiry is checked here, not in SQL, so the planner keeps to the (chat, target, state)
        index; expired offers are closed by the clock every minute, so few are skipped."""
        found: list[ChallengeRecord] = []
        asked = {"chat_id": chat_id, "user_id": user_id}
        for query in _OFFERS_TO_THE_USER, _OFFERS_TO_ANYONE:
            rows = await self.engine.read(query, asked)
            offers = (_challenge(row._mapping) for row in rows)
            found += [offer for offer in offers if offer.expires_at > now][:1]
        return max(found, key=lambda offer: offer.id, default=None)

    async def open_challenge_from(
        self, chat_id: int, challenger_id: int, challenged_id: int | None, now: datetime
    ) -> ChallengeRecord | None:
        """The newest unexpired open challenge in the chat that ``challenger_id`` made to
        ``challenged_id`` (None: to the user's latest, whoever it is for)."""
        conditions = [
            challenges.c.chat_id == chat_id,
            challenges.c.challenger_id == challenger_id,
            challenges.c.state == OPEN,
        ]
        if challenged_id is not None:
            conditions.append(challenges.c.challenged_id == challenged_id)
        rows = await self.engine.read(
            sa.select(*_PUBLIC)
            .where(*conditions)
            .order_by(challenges.c.id.desc())
            .limit(_NEWEST_LOOKED_AT)
        )
        offers = (_challenge(row._mapping) for row in rows)
        return next((offer for offer in offers if offer.expires_at > now), None)

    async def due_challenges(self, now: datetime) -> list[ChallengeRecord]:
        """Open challenges past their expiry, for the scheduler to close."""
        rows = await self.engine.read(
            sa.select(*_PUBLIC)
            .where(challenges.c.state == OPEN, challenges.c.expires_at <= now)
            .order_by(challenges.c.id)
        )
        return [_challenge(row._mapping) for row in rows]


# The reads of every accept, built once (storage/direct.py runs them straight).
_CHALLENGE = sa.select(*_PUBLIC).where(challenges.c.id == sa.bindparam("id"))


def _offers(target: sa.ColumnElement[bool]) -> sa.Select[Any]:
    return (
        sa.select(*_PUBLIC)
        .where(
            challenges.c.chat_id == sa.bindparam("chat_id"),
            target,
            challenges.c.state == OPEN,
            challenges.c.challenger_id != sa.bindparam("user_id"),
        )
        .order_by(challenges.c.id.desc())
        .limit(_NEWEST_LOOKED_AT)
    )


_OFFERS_TO_THE_USER = _offers(challenges.c.challenged_id == sa.bindparam("user_id"))
_OFFERS_TO_ANYONE = _offers(challenges.c.challenged_id.is_(None))


# The challenge the platform message ``event_id`` made in the chat, if any.
_MADE_BY = sa.select(challenges.c.id).where(
    challenges.c.chat_id == sa.bindparam("chat_id"),
    challenges.c.event_id == sa.bindparam("event_id"),
)
