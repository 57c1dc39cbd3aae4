"""Users and chats: who plays, where, in which language, with which preferences, and the
little state a user carries between requests (a play to confirm, a chosen seed, closed DMs)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import RowMapping

from storage.database import Database
from storage.direct import DirectConnection
from storage.errors import NotFoundError
from storage.records import ChatRecord, PendingMove, UserRecord
from storage.results import BufferedResult
from storage.schema import chats, users

# Built once: the lookups every request makes.
_USER_BY_ACCOUNT = sa.select(users).where(
    users.c.platform == sa.bindparam("platform"),
    users.c.platform_user_id == sa.bindparam("account"),
)
_USER_BY_ID = sa.select(users).where(users.c.id == sa.bindparam("id"))
_USERS_BY_ID = sa.select(users).where(users.c.id.in_(sa.bindparam("ids", expanding=True)))
_CHAT_BY_ACCOUNT = sa.select(chats).where(
    chats.c.platform == sa.bindparam("platform"),
    chats.c.platform_chat_id == sa.bindparam("account"),
)
_CHAT_BY_ID = sa.select(chats).where(chats.c.id == sa.bindparam("id"))
_INSERT_USER = sa.insert(users)
_INSERT_CHAT = sa.insert(chats)
# The columns of the play awaiting [Confirm]: written and cleared together.
_PENDING = ("pending_match_id", "pending_version", "pending_play")
_NO_PENDING = dict.fromkeys(_PENDING)


def _write_merged(
    connection: DirectConnection,
    table: sa.Table,
    row_id: int,
    column: str,
    changes: dict[str, Any] | None,
    values: dict[str, Any],
) -> RowMapping | None:
    """Set ``values`` on row ``row_id`` of ``table`` and merge ``changes`` into its JSON
    ``column``, in the caller's transaction; the row as written, or None when there is none.

    A merge read outside the transaction that writes it loses a merge made at the same moment
    by another request. So the first statement writes the row (the values, or the column onto
    itself) and reads the column back: that takes the lock before the read, and another merge,
    in this process or another, waits for this one to commit and then reads what it wrote.
    On PostgreSQL the lock is the row's, and a waiting UPDATE under READ COMMITTED works on
    the row as the other transaction committed it, so its RETURNING gives the merged column.
    A SELECT ... FOR UPDATE would lock there too, but not on SQLite, where the driver opens
    the transaction only at the first write: the SELECT would read outside it.
    """
    update = sa.update(table).where(table.c.id == row_id).returning(*table.c)
    touch = update.values(values or {column: table.c[column]})
    row = connection.execute(touch).mappings().first()
    if row is None or changes is None:
        return row
    merge = update.values({column: {**row[column], **changes}})
    merged: RowMapping = connection.execute(merge).mappings().one()
    return merged


def _user(data: RowMapping) -> UserRecord:
    return UserRecord(
        id=data["id"],
        platform=data["platform"],
        platform_user_id=data["platform_user_id"],
        display_name=data["display_name"],
        locale=data["locale"],
        preferences=dict(data["preferences"]),
        pending_move=_pending(data),
        unreachable=bool(data["unreachable"]),
        next_seed=data["next_seed"],
        next_seed_at=data["next_seed_at"],
        is_bot=bool(data["is_bot"]),
    )


def _user_changes(known: UserRecord, display_name: str, locale: str | None) -> dict[str, Any]:
    """What an upsert changes on a known user: the name follows the platform's latest, the
    locale only when the platform gives one."""
    changes: dict[str, Any] = {}
    if known.display_name != display_name:
        changes["display_name"] = display_name
    if locale and known.locale != locale:
        changes["locale"] = locale
    return changes


def user_record(data: RowMapping) -> UserRecord:
    """The user of a row of ``users`` (for other repositories that read users with theirs)."""
    return _user(data)


def _pending(data: RowMapping) -> PendingMove | None:
    match_id, version, play = (data[key] for key in _PENDING)
    if match_id is None or version is None or play is None:
        return None
    return PendingMove(match_id, version, play)


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
            changes = _user_changes(known, display_name, locale)
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
                        _INSERT_USER,
                        {
                            "platform": platform,
                            "platform_user_id": platform_user_id,
                            "display_name": display_name,
                            "locale": locale,
                            "preferences": {},
                            "created_at": datetime.now(UTC),
                        },
                    )
            except sa.exc.IntegrityError:
                pass  # created at the same moment by another request: use that one
        fresh = await self.find_user(platform, platform_user_id)
        assert fresh is not None  # written above, and users are never deleted
        return fresh

    async def upsert_user_in_chat(
        self,
        chats: ChatRepository,
        user: tuple[str, str, str, str | None],
        chat: tuple[str, str, str | None],
    ) -> tuple[UserRecord, ChatRecord]:
        """:meth:`upsert_user` with ``user`` (platform, account, display name, locale) and
        :meth:`ChatRepository.upsert_chat` with ``chat`` (platform, chat id, locale), as every
        request begins. Both rows are read in one hand-over to the database thread: when both
        exist and the user is unchanged (every request but the first few), that is all.
        Otherwise the two upserts run as they would alone."""
        found_user, found_chat, _also = await self.speaker_in_chat(chats, user, chat)
        return found_user, found_chat

    async def speaker_in_chat(
        self,
        chats: ChatRepository,
        user: tuple[str, str, str, str | None],
        chat: tuple[str, str, str | None],
        also: Callable[[int, int], Sequence[tuple[Any, Any]]] | None = None,
    ) -> tuple[UserRecord, ChatRecord, list[BufferedResult] | None]:
        """:meth:`upsert_user_in_chat`, and the statements ``also`` makes of the user's and
        the chat's ids (e.g. the user's match in this chat), read in the same hand-over when
        both rows exist and are unchanged; their results, or None when they were not read
        (the rows were written: the caller reads what it needs itself)."""
        platform, account, display_name, locale = user
        chat_platform, chat_account, chat_locale = chat

        def following(found: list[BufferedResult]) -> Sequence[tuple[Any, Any]]:
            user_row, chat_row = found[0].first(), found[1].first()
            if also is None or user_row is None or chat_row is None:
                return []
            return also(int(user_row._mapping["id"]), int(chat_row._mapping["id"]))

        (found_user, found_chat), extra = await self.engine.read_following(
            [
                (_USER_BY_ACCOUNT, {"platform": platform, "account": account}),
                (_CHAT_BY_ACCOUNT, {"platform": chat_platform, "account": chat_account}),
            ],
            following,
        )
        user_row, chat_row = found_user.first(), found_chat.first()
        if user_row is not None and chat_row is not None:
            known = _user(user_row._mapping)
            if not _user_changes(known, display_name, locale):
                return known, _chat(chat_row._mapping), extra if also is not None else None
        return (
            await self.upsert_user(platform, account, display_name, locale),
            await chats.upsert_chat(chat_platform, chat_account, chat_locale),
            None,
        )

    async def upsert_bot(self, platform: str, platform_user_id: str, name: str) -> UserRecord:
        """The bot's own account on a platform, marked as the bot (it plays against people)."""
        user = await self.upsert_user(platform, platform_user_id, name)
        if user.is_bot:
            return user
        return await self._set(user.id, {"is_bot": True})

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

    async def users_by_id(self, user_ids: Iterable[int]) -> dict[int, UserRecord]:
        """The users of ``user_ids`` that exist, by id, read in one statement (a bracket's
        or a table's names)."""
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = (await self.engine.read(_USERS_BY_ID, {"ids": wanted})).all()
        return {record.id: record for record in (_user(row._mapping) for row in rows)}

    async def set_preferences(self, user_id: int, preferences: dict[str, Any]) -> UserRecord:
        """Merge ``preferences`` into the user's (e.g. ``{"auto_roll": False}``), read and
        written in one transaction so that changes made at the same moment all stay; the user
        as written."""

        def merge(connection: DirectConnection) -> UserRecord | None:
            row = _write_merged(connection, users, user_id, "preferences", preferences, {})
            return None if row is None else _user(row)

        written = await self.engine.write(merge)
        if written is None:
            raise NotFoundError(f"no user {user_id}")
        return written

    async def set_pending_move(self, user_id: int, pending: PendingMove | None) -> UserRecord:
        """Remember the play shown for confirmation (None: forget it); a newer preview
        replaces an older one. The user as written."""
        if pending is None:
            return await self._set(user_id, _NO_PENDING)
        values = {
            "pending_match_id": pending.match_id,
            "pending_version": pending.version,
            "pending_play": pending.play,
        }
        return await self._set(user_id, values)

    async def take_pending_move(self, user_id: int) -> PendingMove | None:
        """The play awaiting confirmation, cleared in the same transaction: of two presses
        of [Confirm] at once, in this process or another, only one gets it.

        The first statement writes (the columns onto themselves) and reads them back, so it
        takes the write lock before the read: SQLite's pysqlite opens the transaction only
        at the first write, and on PostgreSQL the row lock makes the other press wait and
        then read the cleared row."""

        def take(connection: DirectConnection) -> PendingMove | None:
            columns = [users.c[key] for key in _PENDING]
            touch = (
                sa.update(users)
                .where(users.c.id == user_id)
                .values({column: column for column in columns})
                .returning(*columns)
            )
            row = connection.execute(touch).mappings().first()
            if row is None:
                raise NotFoundError(f"no user {user_id}")
            pending = _pending(row)
            if pending is not None:
                connection.execute(
                    sa.update(users).where(users.c.id == user_id).values(_NO_PENDING)
                )
            return pending

        return await self.engine.write(take)

    async def set_unreachable(self, user_id: int, unreachable: bool) -> UserRecord:
        """Private messages to the user fail (True) or work again (False); the user as
        written."""
        return await self._set(user_id, {"unreachable": unreachable})

    async def set_next_seed(self, user_id: int, seed: str, at: datetime) -> UserRecord:
        """The client seed the user chose for their next match, and when: it counts only for
        a challenge posted before that moment. The user as written."""
        return await self._set(user_id, {"next_seed": seed, "next_seed_at": at})

    async def clear_next_seed(self, user_id: int) -> UserRecord:
        """Forget the chosen seed once a match has used it; the user as written."""
        return await self._set(user_id, {"next_seed": None, "next_seed_at": None})

    async def _set(self, user_id: int, values: dict[str, Any]) -> UserRecord:
        """Write ``values`` on the user's row in one statement; the row as written."""
        statement = sa.update(users).where(users.c.id == user_id).values(values).returning(*users.c)

        def write(connection: DirectConnection) -> UserRecord:
            row = connection.execute(statement).mappings().first()
            if row is None:
                raise NotFoundError(f"no user {user_id}")
            return _user(row)

        return await self.engine.write(write)


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
                    _INSERT_CHAT,
                    {
                        "platform": platform,
                        "platform_chat_id": platform_chat_id,
                        "locale": locale,
                        "settings": {},
                        "created_at": datetime.now(UTC),
                    },
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
        """Set the chat's language and merge settings (e.g. the default match length), read
        and written in one transaction so that changes made at the same moment all stay; the
        chat as written."""
        if locale is None and settings is None:
            return await self.get_chat(chat_id)
        values = {} if locale is None else {"locale": locale}

        def merge(connection: DirectConnection) -> ChatRecord | None:
            row = _write_merged(connection, chats, chat_id, "settings", settings, values)
            return None if row is None else _chat(row)

        written = await self.engine.write(merge)
        if written is None:
            raise NotFoundError(f"no chat {chat_id}")
        return written
