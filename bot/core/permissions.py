"""Who may do what: the permissions a command declares and the one question behind them.

A command in the registry declares who may use it (:class:`Permission`); the core asks the
chat platform whether someone administers a chat through one port, :class:`AdminPort`, that
each front-end answers in its own way (Discord from the member's permissions, Telegram with
``getChatMember``, the console from its settings). A private chat is its user's own: nobody
is asked. The question is asked only when a command needs the answer, at most once a request
(:class:`AdminQuestion`), so an ordinary move costs the platform nothing.

A chat's defaults may name organisers besides its administrators (``/defaults organisers=…``:
users, or on Discord a role). Whether someone holds a role is the front-end's answer too, through
a sibling port, :class:`RolePort` (Discord from the member's roles; platforms without member
roles register none, and nobody holds a role there).
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.core.model import Actor, ChatRef


class Permission(enum.Enum):
    """Who may use a command (or one of its actions)."""

    ANYONE = "anyone"
    ADMIN = "admin"  # an administrator of the chat
    HOST_OR_ADMIN = "host or admin"  # whoever opened what it acts on, or an administrator
    # whoever opened what it acts on, an administrator, or an organiser the chat's defaults name
    ORGANISER = "organiser"


class AdminPort(Protocol):
    """What a front-end answers: whether ``actor`` administers the group chat ``chat``."""

    async def is_admin(self, actor: Actor, chat: ChatRef) -> bool: ...


class RolePort(Protocol):
    """What a front-end with member roles answers: whether ``actor`` holds the role
    ``role_id`` (the platform's id of it) in the group chat ``chat``."""

    async def has_role(self, actor: Actor, chat: ChatRef, role_id: str) -> bool: ...


class AdminPorts:
    """The front-ends' answers, one port per platform. A platform without one has no
    administrators in its groups, and one without a role port no roles."""

    def __init__(self) -> None:
        self._ports: dict[str, AdminPort] = {}
        self._roles: dict[str, RolePort] = {}

    def register(self, platform: str, port: AdminPort, roles: RolePort | None = None) -> None:
        self._ports[platform] = port
        if roles is not None:
            self._roles[platform] = roles

    async def has_role(self, actor: Actor, chat: ChatRef, role_id: str) -> bool:
        port = self._roles.get(chat.platform)
        return not chat.private and port is not None and await port.has_role(actor, chat, role_id)

    async def is_admin(self, actor: Actor, chat: ChatRef) -> bool:
        if chat.private:
            return True  # one's own chat with the bot
        port = self._ports.get(chat.platform)
        return port is not None and await port.is_admin(actor, chat)


class AdminQuestion:
    """Whether the asker administers the chat of one request: asked when first needed, then
    remembered for the rest of the request."""

    def __init__(self, ask: Callable[[], Awaitable[bool]] | None = None) -> None:
        self._ask = ask
        self._answer: bool | None = None

    async def __call__(self) -> bool:
        if self._answer is None:
            self._answer = self._ask is not None and await self._ask()
        return self._answer


async def permitted(
    permission: Permission,
    admin: AdminQuestion,
    user_id: int,
    owner_id: int | None = None,
    organiser: AdminQuestion | None = None,
) -> bool:
    """Whether user ``user_id`` may act under ``permission``; ``owner_id`` is whoever opened
    what the action concerns (the host of a chouette table), ``organiser`` whether the chat's
    defaults name the user an organiser (:attr:`Permission.ORGANISER`). The platform is asked
    only when the answer depends on it: an organiser named by the defaults is not asked whether
    they administer the chat.

    >>> import asyncio
    >>> never = AdminQuestion()
    >>> asyncio.run(permitted(Permission.HOST_OR_ADMIN, never, 7, owner_id=7))
    True
    >>> asyncio.run(permitted(Permission.ADMIN, never, 7, owner_id=7))
    False
    """
    if permission is Permission.ANYONE:
        return True
    hosted = permission in (Permission.HOST_OR_ADMIN, Permission.ORGANISER)
    if hosted and owner_id is not None and owner_id == user_id:
        return True
    if permission is Permission.ORGANISER and organiser is not None and await organiser():
        return True
    return await admin()
