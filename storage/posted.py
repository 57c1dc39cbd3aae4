"""Which platform message fills a slot (``board:12``, ``challenge:3``) of a chat."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import sqlalchemy as sa

from storage.database import Database
from storage.direct import DirectConnection
from storage.people import user_record
from storage.records import UserRecord
from storage.schema import posted_messages, users

SlotKey = tuple[str, str]  # (platform chat id, slot)


class PostedMessageRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def replace(
        self, platform: str, platform_chat_id: str, slot: str, message_id: str
    ) -> str | None:
        """Record ``message_id`` as the slot's message; answer the one it replaces, if any."""
        (previous,) = await self.replace_all(platform, [(platform_chat_id, slot, message_id)])
        return previous

    async def replace_all(
        self, platform: str, fills: Sequence[tuple[str, str, str]]
    ) -> list[str | None]:
        """Record each (chat, slot, message) in order, in one transaction; answer the message
        each replaced (None: the slot's first, or the same message again)."""

        def write(connection: DirectConnection) -> list[str | None]:
            return [_replace(connection, platform, *fill) for fill in fills]

        if not fills:
            return []
        try:
            previous = await self.engine.write(write)
        except sa.exc.IntegrityError:  # a slot's first message, inserted at the same moment
            previous = await self.engine.write(write)
        return [
            None if old == message_id else old
            for old, (_chat, _slot, message_id) in zip(previous, fills, strict=True)
        ]

    async def for_posting(
        self, platform: str, slots: Sequence[SlotKey], accounts: Sequence[str]
    ) -> tuple[dict[SlotKey, str], list[UserRecord]]:
        """What posting a batch of messages needs, in one trip: the messages filling
        ``slots`` now, and the users of ``accounts`` the bot knows."""
        queries: list[tuple[Any, dict[str, str]]] = []
        if slots:
            filling = {f"chat{n}": chat for n, (chat, _slot) in enumerate(slots)}
            filling.update({f"slot{n}": slot for n, (_chat, slot) in enumerate(slots)})
            queries.append((_filling(len(slots)), {"platform": platform, **filling}))
        if accounts:
            known = {f"account{n}": account for n, account in enumerate(accounts)}
            queries.append((_known_users(len(accounts)), {"platform": platform, **known}))
        found = list(await self.engine.read_many(*queries)) if queries else []
        current = {(row[0], row[1]): str(row[2]) for row in found.pop(0)} if slots else {}
        people = [user_record(row._mapping) for row in found.pop(0)] if accounts else []
        return current, people

    async def current(self, platform: str, platform_chat_id: str, slot: str) -> str | None:
        """The message that fills the slot now, if any."""
        found = await self.engine.read(
            sa.select(posted_messages.c.message_id).where(
                posted_messages.c.platform == platform,
                posted_messages.c.platform_chat_id == platform_chat_id,
                posted_messages.c.slot == slot,
            )
        )
        value = found.scalar()
        return None if value is None else str(value)


# The two reads of :meth:`PostedMessageRepository.for_posting`, built once for each number of
# slots and accounts (one or two, nearly always): a statement object run again goes straight
# to the driver (storage/direct.py), and an ``IN`` list expanded at each run would not.
@lru_cache(maxsize=32)
def _filling(slots: int) -> sa.Select[Any]:
    return sa.select(
        posted_messages.c.platform_chat_id, posted_messages.c.slot, posted_messages.c.message_id
    ).where(
        posted_messages.c.platform == sa.bindparam("platform"),
        sa.or_(
            *(
                sa.and_(
                    posted_messages.c.platform_chat_id == sa.bindparam(f"chat{n}"),
                    posted_messages.c.slot == sa.bindparam(f"slot{n}"),
                )
                for n in range(slots)
            )
        ),
    )


@lru_cache(maxsize=32)
def _known_users(accounts: int) -> sa.Select[Any]:
    return sa.select(users).where(
        users.c.platform == sa.bindparam("platform"),
        users.c.platform_user_id.in_([sa.bindparam(f"account{n}") for n in range(accounts)]),
    )


# Built once: the statements of :func:`_replace` run for every message posted, and building
# and hashing a statement cost more CPU than the database's work on these one-row statements.
_SLOT = (
    posted_messages.c.platform == sa.bindparam("key_platform"),
    posted_messages.c.platform_chat_id == sa.bindparam("key_chat"),
    posted_messages.c.slot == sa.bindparam("key_slot"),
)
# It writes the row onto itself and reads it back: it takes the row's lock (PostgreSQL) or
# the write lock (SQLite) before the read, so of two replacements at once the second waits
# and is answered the first one's message.
_LOCK_AND_READ = (
    sa.update(posted_messages)
    .where(*_SLOT)
    .values(message_id=posted_messages.c.message_id)
    .returning(posted_messages.c.message_id)
)
_INSERT = sa.insert(posted_messages).values(
    platform=sa.bindparam("key_platform"),
    platform_chat_id=sa.bindparam("key_chat"),
    slot=sa.bindparam("key_slot"),
    message_id=sa.bindparam("message"),
    updated_at=sa.bindparam("moment"),
)
_UPDATE = (
    sa.update(posted_messages)
    .where(*_SLOT)
    .values(message_id=sa.bindparam("message"), updated_at=sa.bindparam("moment"))
)


def _replace(
    connection: DirectConnection, platform: str, platform_chat_id: str, slot: str, message_id: str
) -> str | None:
    key = {"key_platform": platform, "key_chat": platform_chat_id, "key_slot": slot}
    previous = connection.execute(_LOCK_AND_READ, key).scalar()
    values = {**key, "message": message_id, "moment": datetime.now(UTC)}
    connection.execute(_INSERT if previous is None else _UPDATE, values)
    return None if previous is None else str(previous)
