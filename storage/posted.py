"""Which platform message fills a slot (``board:12``, ``challenge:3``) of a chat."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.database import Database
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

        def write(connection: Connection) -> list[str | None]:
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
        queries: list[tuple[Any, None]] = []
        if slots:
            key = (posted_messages.c.platform_chat_id, posted_messages.c.slot)
            filling = sa.select(*key, posted_messages.c.message_id).where(
                posted_messages.c.platform == platform, sa.tuple_(*key).in_(slots)
            )
            queries.append((filling, None))
        if accounts:
            known = sa.select(users).where(
                users.c.platform == platform, users.c.platform_user_id.in_(accounts)
            )
            queries.append((known, None))
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
    connection: Connection, platform: str, platform_chat_id: str, slot: str, message_id: str
) -> str | None:
    key = {"key_platform": platform, "key_chat": platform_chat_id, "key_slot": slot}
    previous = connection.execute(_LOCK_AND_READ, key).scalar()
    values = {**key, "message": message_id, "moment": datetime.now(UTC)}
    connection.execute(_INSERT if previous is None else _UPDATE, values)
    return None if previous is None else str(previous)
