"""Who administers a Discord server, as the core's :class:`~bot.core.permissions.AdminPort`.

Discord sends the member's permissions with every interaction and every message: whoever may
*Manage Server* (or is an *Administrator*) administers its channels. The adapter notes what
came with an update before it asks the core, and the port answers from that note; Discord is
never asked again.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.core.model import Actor, ChatRef


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


class SeenPermissions:
    """The permissions the latest update of each member in each channel came with."""

    def __init__(self, limit: int = 50_000) -> None:
        self.limit = limit
        self._seen: dict[tuple[str, str], bool] = {}

    def note(self, chat_id: str, user_id: str, admin: bool) -> None:
        if len(self._seen) >= self.limit:
            self._seen.clear()
        self._seen[(chat_id, user_id)] = admin

    async def is_admin(self, actor: Actor, chat: ChatRef) -> bool:
        return self._seen.get((chat.chat_id, actor.user_id), False)
