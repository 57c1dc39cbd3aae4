"""Core messages as Discord messages: channel posts, ephemeral answers, DMs, slots.

Boards and every other public message are normal channel messages (never interaction
responses), so they can be edited long after the 15-minute interaction token has expired:
posting into a slot strips the buttons of the message that filled it before, known from the
core's delivery port (the database), so this also works after a restart. What to do with each
message is the core's posting plan (:mod:`bot.core.posting`).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final

import discord

from bot.core.match.folding import fold_notes
from bot.core.model import Message
from bot.core.ports import ChatFrontEnd
from bot.core.posting import DISCORD, Origin, Posting, Route
from bot.discord_app.channel_posts import ChannelPoster
from bot.discord_app.contents import MAX_CONTENT, NO_MENTIONS, format_content
from bot.discord_app.interaction_answers import InteractionAnswers
from bot.discord_app.markup import clipped, escaped

logger = logging.getLogger(__name__)

PLATFORM: Final = DISCORD.name
__all__ = ["MAX_CONTENT", "NO_MENTIONS", "PLATFORM", "Poster", "format_content"]


class Poster:
    """Carries out the core's posting plans (:mod:`bot.core.posting`) through a connected
    client: asks the core once before a batch and once after, and has the channel poster
    and the interaction answers post each message."""

    def __init__(self, client: discord.Client, core: ChatFrontEnd) -> None:
        self.client = client
        self.core = core
        self.channel = ChannelPoster(client)
        self.answers = InteractionAnswers(self.channel)

    @asynccontextmanager
    async def _batch(
        self, messages: Sequence[Message], origin: Origin | None = None
    ) -> AsyncIterator[tuple[list[Message], Posting]]:
        """The messages to post in order, and their :class:`Posting`: the core is asked once
        before (what the plans need) and once after (what was posted), never in between."""
        folded = fold_notes(messages, MAX_CONTENT, MAX_CONTENT)
        posting = await self.core.delivery.prepare(DISCORD, folded, origin)
        try:
            yield folded, posting
        finally:
            for chat_id, message_id in await self.core.delivery.posted(posting):
                await self.channel.strip(chat_id, message_id)

    async def deliver(self, messages: Sequence[Message]) -> None:
        """Messages that answer no update (the clock's): public ones in their channels,
        private ones as DMs."""
        async with self._batch(messages) as (folded, posting):
            for message in folded:
                try:
                    if posting.plan(message).route is Route.DIRECT:
                        await self.channel.direct(message, posting)
                    else:
                        await self.channel.publish(message, posting)
                except Exception:  # one message failing does not keep back the others
                    logger.exception(
                        "could not deliver a message to channel %s", message.chat.chat_id
                    )

    async def reply_all(
        self, typed: discord.Message, messages: Sequence[Message], private: bool
    ) -> None:
        """The answer to a command typed as a message: no ephemeral messages outside
        interactions, so a private part is a reply to the author alone."""
        origin = Origin(str(typed.channel.id), str(typed.author.id), str(typed.id), private=private)
        async with self._batch(messages, origin) as (folded, posting):
            for message in folded:
                route = posting.plan(message).route
                if route is Route.REPLY:
                    await typed.reply(
                        clipped(escaped(message.text), MAX_CONTENT),
                        allowed_mentions=discord.AllowedMentions.none(),
                        mention_author=False,
                    )
                elif route is Route.DIRECT:
                    await self.channel.direct(message, posting)
                else:
                    await self.channel.publish(message, posting)

    async def answer(
        self, interaction: discord.Interaction[Any], messages: list[Message], *, thinking: bool
    ) -> None:
        """The core's answer to an acknowledged interaction: private parts ephemeral (the first
        one replaces the "thinking" placeholder of a slash command), the rest in the channel."""
        clicked = interaction.message
        origin = Origin(
            str(interaction.channel_id),
            str(interaction.user.id),
            press=not thinking,
            interaction=True,
            # A public message whose button was pressed: it may become part of the answer.
            pressed_id=None
            if thinking or clicked is None or clicked.flags.ephemeral
            else str(clicked.id),
        )
        async with self._batch(messages, origin) as (folded, posting):
            placeholder = await self.answers.answer_all(interaction, folded, posting, thinking)
        if placeholder:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                logger.debug("could not remove the thinking placeholder", exc_info=True)
