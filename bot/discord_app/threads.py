"""Discord's threads, as the core's :class:`~bot.core.threads.ThreadPort`: a public thread of
the server's text channel, named as the core says and archived after a week without messages
(a message posted to it later brings it back).

A thread is a channel of its own to Discord: its id is its chat's id, so posting to it is
posting to a channel, and an interaction in it names it as its channel. The bot needs the
*Create Public Threads* and *Send Messages in Threads* permissions in the channel; without
them (or in a channel that is not a text channel, e.g. a thread itself or a DM) no thread
opens and the core announces in the channel itself.
"""

from __future__ import annotations

import logging
from typing import Final

import discord

from bot.core.model import ChatRef
from bot.core.threads import Thread
from bot.discord_app.contents import is_snowflake
from bot.discord_app.posting import PLATFORM

logger = logging.getLogger(__name__)

ARCHIVE_AFTER: Final = 10080  # minutes without a message: a week (a match may take days)


class DiscordThreads:
    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def open_thread(self, chat: ChatRef, title: str) -> Thread | None:
        channel = await self._text_channel(chat.chat_id)
        if channel is None:
            return None
        try:
            thread = await channel.create_thread(
                name=title,
                type=discord.ChannelType.public_thread,
                auto_archive_duration=ARCHIVE_AFTER,
            )
        except discord.HTTPException as error:
            logger.info("no thread in channel %s: %s", chat.chat_id, error)
            return None
        return Thread(ChatRef(PLATFORM, str(thread.id), locale=chat.locale), thread.jump_url)

    async def _text_channel(self, chat_id: str) -> discord.TextChannel | None:
        """The server's text channel with this id (None: another kind of channel, or none the
        bot can see)."""
        if not is_snowflake(chat_id):
            return None
        found = self.client.get_channel(int(chat_id))
        if found is None:
            try:
                found = await self.client.fetch_channel(int(chat_id))
            except discord.HTTPException:
                return None
        return found if isinstance(found, discord.TextChannel) else None
