"""Who administers a Discord server and who holds which role, as the core's
:class:`~bot.core.permissions.AdminPort` and :class:`~bot.core.permissions.RolePort`.

Discord sends the member's permissions and roles with every interaction and every message:
whoever may *Manage Server* (or is an *Administrator*) administers its channels, and a role is
held by the ids the member's roles have (never by a role's name: two roles may share one). The
adapter notes what came with an update before it asks the core, and the ports answer from that
note; Discord is never asked again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

import discord

from bot.core.model import Actor, ChatRef, Role

NO_ROLES: Final = frozenset[str]()
ROLE_MENTION: Final = re.compile(r"<@&(\d{1,20})>")


def manages(permissions: discord.Permissions) -> bool:
    """Managing the server (or administering it) makes one a chat administrator."""
    return permissions.administrator or permissions.manage_guild


def interaction_admin(interaction: discord.Interaction[Any]) -> bool:
    """What an interaction says of its member (outside a server: no administrator)."""
    return interaction.guild_id is not None and manages(interaction.permissions)


def message_admin(message: discord.Message) -> bool:
    """What a message says of its author (outside a server: no administrator)."""
    author = message.author
    return isinstance(author, discord.Member) and manages(author.guild_permissions)


def held_roles(member: object) -> frozenset[str]:
    """The ids of the roles a server member holds (outside a server: none)."""
    if not isinstance(member, discord.Member):
        return NO_ROLES
    return frozenset(str(role.id) for role in member.roles)


def mentioned_roles(text: str, roles: Sequence[discord.Role]) -> tuple[Role, ...]:
    """The roles ``text`` mentions (``<@&id>``) that Discord resolved, in the text's order."""
    by_id = {str(role.id): role for role in roles}
    found = (by_id.get(mention.group(1)) for mention in ROLE_MENTION.finditer(text))
    return tuple(dict.fromkeys(as_role(role) for role in found if role is not None))


def as_role(role: discord.Role) -> Role:
    return Role(str(role.id), role.name)


class SeenPermissions:
    """The permissions and roles the latest update of each member in each channel came with."""

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self._seen: dict[tuple[str, str], tuple[bool, frozenset[str]]] = {}

    def note(
        self, chat_id: str, user_id: str, admin: bool, roles: frozenset[str] = NO_ROLES
    ) -> None:
        if len(self._seen) >= self.limit:
            self._seen.clear()
        self._seen[(chat_id, user_id)] = (admin, roles)

    async def is_admin(self, actor: Actor, chat: ChatRef) -> bool:
        return self._seen.get((chat.chat_id, actor.user_id), (False, NO_ROLES))[0]

    async def has_role(self, actor: Actor, chat: ChatRef, role_id: str) -> bool:
        return role_id in self._seen.get((chat.chat_id, actor.user_id), (False, NO_ROLES))[1]
