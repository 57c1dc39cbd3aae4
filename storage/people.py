"""Users and chats: who plays, where, in which language, with which preferences."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from storage.database import Database
from storage.errors import NotFoundError
from storage.records import ChatRecord, UserRecord
from storage.schema import chats, users

# Built once: the lookups every request makes.
_USER_BY_ACCOUNT = sa.select(users).where(
    users.c.platform == sa.bindparam("platform"),
    users.c.platform_user_id == sa.bindparam("account"),
)
_USER_BY_ID = sa.select(users).where(users.c.id == sa.bindparam("id"))
_CHAT_BY_ACCOUNT = sa.select(chats).where(
    chats.c.platform == sa.bindparam("platform"),
    chats.c.platform_chat_id == sa.bindparam("account"),
)
_CHAT_BY_ID = sa.select(chats).where(chats.c.id == sa.bindparam("id"))


def _user(data: RowMapping) -> UserRecord:
    return UserRecord(
        id=data["id"],
        platform=data["platform"],
        platform_user_id=data["platform_user_id"],
        display_name=data["display_name"],
        locale=data["locale"],
        preferences=dict(data["preferences"]),
    )


def _chat(data: RowMapping) -> ChatRecord:
    return ChatRecord(
        id=data["id"],
        platform=data["platform"],
        platform_chat_id=data["platform_chat_id"],
        locale=data["locale"],
        settings=dict(data["settings"]),
    )


class UserRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def upsert_user(
        self, platform: str, platform_user_id: str, display_name: str, locale: str | None = None
    ) -> UserRecord:
        """The user for this platform account, created on first sight; the name follows the
        platform's latest (the locale only when the platform gives one). A known, unchanged
        user costs one read."""
        known = await self.find_user(platform, platform_user_id)
        if known is not None:
            changes: dict[str, Any] = {}
            if known.display_name != display_name:
                changes["display_name"] = display_name
            if locale and known.locale != locale:
                changes["locale"] = locale
            if not changes:
                return known
            async with self.engine.begin() as connection:
                await connection.execute(
                    sa.update(users).where(users.c.id == known.id).values(**changes)
                )
        else:
            try:
                async with self.engine.begin() as connection:
                    await connection.execute(
                        sa.insert(users).values(
                            platform=platform,
                            platform_user_id=platform_user_id,
                            display_name=display_name,
                            locale=locale,
                            preferences={},
                            created_at=datetime.now(UTC),
                        )
                    )
            except sa.exc.IntegrityError:
                pass  # created at the same moment by another request: use that one
        fresh = await self.find_user(platform, platform_user_id)
        assert fresh is not None  # written above, and users are never deleted
        return fresh

    async def find_user(self, platform: str, platform_user_id: str) -> UserRecord | None:
        """The user of this platform account, or None when never seen (reads only)."""
        account = {"platform": platform, "account": platform_user_id}
        row = (await self.engine.read(_USER_BY_ACCOUNT, account)).first()
        return None if row is None else _user(row._mapping)

    async def get_user(self, user_id: int) -> UserRecord:
        row = (await self.engine.read(_USER_BY_ID, {"id": user_id})).first()
        if row is None:
            raise NotFoundError(f"no user {user_id}")
        return _user(row._mapping)

    async def set_preferences(self, user_id: int, preferences: dict[str, Any]) -> UserRecord:
        """Merge ``preferences`` into the user's (e.g. ``{"auto_roll": False}``)."""
        current = await self.get_user(user_id)
        merged = {**current.preferences, **preferences}
        async with self.engine.begin() as connection:
            await connection.execute(
                sa.update(users).where(users.c.id == user_id).values(preferences=merged)
            )
        return await self.get_user(user_id)


class ChatRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def upsert_chat(
        self, platform: str, platform_chat_id: str, locale: str | None = None
    ) -> ChatRecord:
        known = await self.find_chat(platform, platform_chat_id)
        if known is not None:
            return known
        try:
            async with self.engine.begin() as connection:
                await connection.execute(
                    sa.insert(chats).values(
                        platform=platform,
                        platform_chat_id=platform_chat_id,
                        locale=locale,
                        settings={},
                        created_at=datetime.now(UTC),
                    )
                )
        except sa.exc.IntegrityError:
            pass  # created at the same moment by another request
        fresh = await self.find_chat(platform, platform_chat_id)
        assert fresh is not None  # written above, and chats are never deleted
        return fresh

    async def find_chat(self, platform: str, platform_chat_id: str) -> ChatRecord | None:
        """The chat with this platform id, or None when never seen (reads only)."""
        account = {"platform": platform, "account": platform_chat_id}
        row = (await self.engine.read(_CHAT_BY_ACCOUNT, account)).first()
        return None if row is None else _chat(row._mapping)

    async def get_chat(self, chat_id: int) -> ChatRecord:
        row = (await self.engine.read(_CHAT_BY_ID, {"id": chat_id})).first()
        if row is None:
            raise NotFoundError(f"no chat {chat_id}")
        return _chat(row._mapping)

    async def update_chat(
        self,
        chat_id: int,
        *,
        locale: str | None = None,
        settings: dict[str, Any] | None = None,
    ) -> ChatRecord:
        """Set the chat's language and merge settings (e.g. the default match length)."""
        current = await self.get_chat(chat_id)
        values: dict[str, Any] = {}
        if locale is not None:
            values["locale"] = locale
        if settings is not None:
            values["settings"] = {**current.settings, **settings}
        if values:
            async with self.engine.begin() as connection:
                await connection.execute(
                    sa.update(chats).where(chats.c.id == chat_id).values(**values)
                )
        return await self.get_chat(chat_id)
