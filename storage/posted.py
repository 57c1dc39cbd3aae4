"""Which platform message fills a slot (``board:12``, ``challenge:3``) of a chat."""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from storage.database import Database
from storage.schema import posted_messages


class PostedMessageRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def replace(
        self, platform: str, platform_chat_id: str, slot: str, message_id: str
    ) -> str | None:
        """Record ``message_id`` as the slot's message; answer the one it replaces, if any."""
        key = (
            posted_messages.c.platform == platform,
            posted_messages.c.platform_chat_id == platform_chat_id,
            posted_messages.c.slot == slot,
        )

        def write(connection: Connection) -> str | None:
            # The first statement writes the row onto itself and reads it back: it takes the
            # row's lock (PostgreSQL) or the write lock (SQLite) before the read, so of two
            # replacements at once the second waits and is answered the first one's message.
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
                    sa.update(posted_messages)
                    .where(*key)
                    .values(message_id=message_id, updated_at=moment)
                )
            return None if previous is None else str(previous)

        try:
            previous = await self.engine.write(write)
        except sa.exc.IntegrityError:  # the slot's first message, inserted at the same moment
            previous = await self.engine.write(write)
        return None if previous == message_id else previous

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
