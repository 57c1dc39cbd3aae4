"""The answer to an acknowledged Discord interaction: private parts ephemeral, a replay's next
frame in the pressed message, the rest through the channel poster."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.core.model import Message
from bot.core.posting import Posting, Route
from bot.core.text.i18n import first_locale, speech
from bot.discord_app.buttons import make_view
from bot.discord_app.channel_posts import ChannelPoster
from bot.discord_app.contents import NO_MENTIONS, format_content, make_files

logger = logging.getLogger(__name__)


def _gettext(user_locale: str, message: Message) -> Any:
    """The language the command layer chose for the message, else the client's."""
    return speech(first_locale(message.locale, user_locale, message.chat.locale))


class InteractionAnswers:
    """Each message of an interaction's answer where its plan sends it."""

    def __init__(self, channel: ChannelPoster) -> None:
        self.channel = channel

    async def answer_all(
        self,
        interaction: discord.Interaction[Any],
        messages: list[Message],
        posting: Posting,
        placeholder: bool,
    ) -> bool:
        """Each message where its plan sends it; answers whether the "thinking" placeholder
        is still there."""
        for message in messages:
            try:
                placeholder = await self._answer_one(interaction, message, posting, placeholder)
            except discord.Forbidden:
                logger.warning("may not post in channel %s", message.chat.chat_id)
                _ = _gettext(str(interaction.locale), message)
                text = _(
                    "I may not post here. Please allow me to send messages and attach files "
                    "in this channel."
                )
                await self._ephemeral(interaction, Message(message.chat, text), placeholder)
                return False
            except discord.HTTPException:
                # One message Discord would not take (a server error, a file it refused):
                # the match is stored all the same, and the rest of the answer still goes.
                logger.warning(
                    "could not post a message in %s", message.chat.chat_id, exc_info=True
                )
        return placeholder

    async def _answer_one(
        self,
        interaction: discord.Interaction[Any],
        message: Message,
        posting: Posting,
        placeholder: bool,
    ) -> bool:
        route = posting.plan(message).route
        if route is Route.FRAME:
            await self._edit_pressed(interaction, message)
        elif route is Route.CHAT:
            await self.channel.publish(message, posting, interaction)
        elif route is Route.EPHEMERAL:
            await self._ephemeral(interaction, message, placeholder)
            return False
        else:
            await self.channel.direct(message, posting)
        return placeholder

    async def _edit_pressed(self, interaction: discord.Interaction[Any], message: Message) -> None:
        """A replay stepped on: the message whose button was pressed shows the next frame
        (the press was acknowledged as an update of that message)."""
        view = make_view(message.buttons)
        await interaction.edit_original_response(
            content=format_content(message),
            attachments=make_files(message),
            view=view,
            allowed_mentions=NO_MENTIONS,
        )
        if view is not None:
            view.stop()

    async def _ephemeral(
        self, interaction: discord.Interaction[Any], message: Message, placeholder: bool
    ) -> None:
        view = make_view(message.buttons)
        files = make_files(message)
        if placeholder:
            await interaction.edit_original_response(
                content=format_content(message),
                attachments=files,
                view=view,
                allowed_mentions=NO_MENTIONS,
            )
        elif view is not None:
            await interaction.followup.send(
                format_content(message),
                files=files,
                view=view,
                ephemeral=True,
                allowed_mentions=NO_MENTIONS,
            )
        else:
            await interaction.followup.send(
                format_content(message), files=files, ephemeral=True, allowed_mentions=NO_MENTIONS
            )
        if view is not None:
            view.stop()
