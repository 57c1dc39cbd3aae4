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


def _replace(
    connection: Connection, platform: str, platform_chat_id: str, slot: str, message_id: str
) -> str | None:
    key = (
        posted_messages.c.platform == platform,
        posted_messages.c.platform_chat_id == platform_chat_id,
        posted_messages.c.slot == slot,
    )
    # The first statement writes the row onto itself and reads it back: it takes the row's
    # lock (PostgreSQL) or the write lock (SQLite) before the read, so of two replacements at
    # once the second waits and is answered the first one's message.
    previous = connection.execute(
        sa.update(posted_messages)
        .where(*key)
        .values(message_id=posted_messages.c.message_id)
        .returning(posted_messages.c.message_id)
    ).scalar()
    moment = datetime.now(UTC)
    if previous is None:
        connection.execute(
            sa.insert(posted_messages).values(
                platform=platform,
                platform_chat_id=platform_chat_id,
                slot=slot,
                message_id=message_id,
                updated_at=moment,
            )
        )
    else:
        connection.execute(
            sa.update(posted_messages).where(*key).values(message_id=message_id, updated_at=moment)
        )
    return None if previous is None else str(previous)
