"""Core messages posted into Discord channels and DMs: new messages, edits of a slot's or the
pressed message, stripped buttons, private notes (as the core's posting plan says)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.core.model import Message
from bot.core.posting import Edit, Plan, Posting, Target, not_to
from bot.discord_app.buttons import make_view
from bot.discord_app.contents import (
    MAX_CONTENT,
    NO_MENTIONS,
    allowed_mentions,
    format_content,
    is_snowflake,
    make_files,
)
from bot.discord_app.markup import clipped, escaped

logger = logging.getLogger(__name__)


class ChannelPoster:
    """Posts and edits messages in channels and DMs through a connected client."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    def _channel(self, chat_id: str) -> discord.abc.Messageable:
        found = self.client.get_channel(int(chat_id))
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.client.get_partial_messageable(int(chat_id))

    def _not_to_me(self, message: Message) -> Message:
        """The message without the bot's own account among those to ping or notify."""
        me = self.client.user
        return message if me is None else not_to(message, str(me.id))

    async def publish(
        self,
        message: Message,
        posting: Posting,
        interaction: discord.Interaction[Any] | None = None,
    ) -> None:
        """Post a message for everyone in its chat as its plan says: the first edit that
        works (the slot's previous message, or the pressed one through ``interaction``), else
        a new message; then strip what it replaced and DM whoever should know."""
        message = self._not_to_me(message)
        plan = posting.plan(message)
        for edit in plan.edits:
            edited = await self._apply(edit, message, interaction)
            if edited is not None:
                await self._shown(message, plan, edit, edited, posting)
                return
        view = make_view(message.buttons)
        kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions(message)}
        if view is not None:
            kwargs["view"] = view
        channel = self._channel(plan.chat_id)
        sent = await channel.send(format_content(message), files=make_files(message), **kwargs)
        if view is not None:
            view.stop()  # the buttons are dynamic items: nothing to keep per message
        await self._shown(message, plan, None, sent, posting)

    async def _apply(
        self, edit: Edit, message: Message, interaction: discord.Interaction[Any] | None
    ) -> discord.Message | None:
        """Try one edit of the plan; None when it cannot be done."""
        if edit.target is Target.PRESSED:
            if interaction is None:
                return None
            return await self._edit_pressed_into(interaction, message)
        if not is_snowflake(edit.message_id):
            return None
        return await self._edit(edit.chat_id, int(edit.message_id), message)

    async def _shown(
        self,
        message: Message,
        plan: Plan,
        edit: Edit | None,
        shown: discord.Message,
        posting: Posting,
    ) -> None:
        """The message is there: strip the one it replaced in its slot, DM whoever should
        know."""
        previous = posting.shown(message, plan, edit, str(shown.id))
        if previous is not None:
            await self.strip(plan.chat_id, previous, plan.slot)
        for user_id in plan.notify:
            await self.notify(user_id, message, shown, posting)

    async def _edit(
        self, chat_id: str, message_id: int, message: Message
    ) -> discord.Message | None:
        """Replace a channel message's text, files and buttons; None when it is gone."""
        view = make_view(message.buttons)
        try:
            partial = self.client.get_partial_messageable(int(chat_id))
            edited = await partial.get_partial_message(message_id).edit(
                content=format_content(message),
                attachments=make_files(message),
                view=view,
                allowed_mentions=allowed_mentions(message),
            )
        except discord.HTTPException:
            logger.debug("could not edit message %s in channel %s", message_id, chat_id)
            return None
        finally:
            if view is not None:
                view.stop()
        return edited

    async def _edit_pressed_into(
        self, interaction: discord.Interaction[Any], message: Message
    ) -> discord.Message | None:
        """The pressed message becomes ``message`` (the press was acknowledged as an update
        of it); None when it cannot be edited."""
        view = make_view(message.buttons)
        try:
            edited = await interaction.edit_original_response(
                content=format_content(message),
                attachments=make_files(message),
                view=view,
                allowed_mentions=allowed_mentions(message),
            )
        except discord.HTTPException:
            logger.debug("could not edit the pressed message", exc_info=True)
            return None
        finally:
            if view is not None:
                view.stop()
        return edited

    async def strip(self, chat_id: str, message_id: str, slot: str | None = None) -> None:
        """Remove a message's buttons (a newer message took its place in its slot)."""
        if not is_snowflake(message_id):
            return
        try:
            old = self.client.get_partial_messageable(int(chat_id))
            await old.get_partial_message(int(message_id)).edit(view=None)
        except discord.NotFound:
            pass  # deleted meanwhile: nothing to strip
        except discord.HTTPException:
            logger.warning(
                "could not strip the buttons of message %s (slot %s, channel %s)",
                message_id,
                slot,
                chat_id,
            )

    async def notify(
        self, user_id: str, message: Message, sent: discord.Message, posting: Posting
    ) -> None:
        """A private note with a link to the message; closed DMs are remembered, and the
        mention in the channel is what the user still gets."""
        if not is_snowflake(user_id):
            return
        try:
            dm = await self.client.create_dm(discord.Object(int(user_id)))
            await dm.send(
                clipped(escaped(message.notice_for(user_id)), MAX_CONTENT - 1 - len(sent.jump_url))
                + f"\n{sent.jump_url}",
                allowed_mentions=NO_MENTIONS,
            )
        except discord.Forbidden:
            logger.info("DMs to user %s are closed; falling back to the channel mention", user_id)
            posting.refused(user_id)
        except discord.HTTPException:
            logger.warning("DM notification to user %s failed", user_id, exc_info=True)

    async def direct(self, message: Message, posting: Posting) -> None:
        """A private message outside an interaction (the clock's): as a DM."""
        assert message.private_to is not None
        if not is_snowflake(message.private_to):
            return
        try:
            dm = await self.client.create_dm(discord.Object(int(message.private_to)))
            await self._send_private(dm, message)
        except discord.Forbidden:
            posting.refused(message.private_to)

    async def _send_private(self, channel: discord.abc.Messageable, message: Message) -> None:
        view = make_view(message.buttons)
        kwargs: dict[str, Any] = {"allowed_mentions": NO_MENTIONS}
        if view is not None:
            kwargs["view"] = view
        await channel.send(format_content(message), files=make_files(message), **kwargs)
        if view is not None:
            view.stop()
