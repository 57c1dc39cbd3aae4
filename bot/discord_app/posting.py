"""Core messages as Discord messages: channel posts, ephemeral answers, DMs, slots.

Boards and every other public message are normal channel messages (never interaction
responses), so they can be edited long after the 15-minute interaction token has expired:
posting into a slot strips the buttons of the message that filled it before, known from the
core's delivery port (the database), so this also works after a restart. What to do with each
message is the core's posting plan (:mod:`bot.core.posting`).
"""

from __future__ import annotations

import io
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any, Final

import discord

from bot.core.match.folding import fold_notes
from bot.core.model import Message
from bot.core.ports import ChatFrontEnd
from bot.core.posting import DISCORD, Edit, Origin, Plan, Posting, Route, Target
from bot.core.text.direction import RIGHT_TO_LEFT_MARK
from bot.core.text.i18n import RIGHT_TO_LEFT, first_locale, speech
from bot.discord_app.buttons import make_view
from bot.discord_app.markup import clipped, escaped

logger = logging.getLogger(__name__)

PLATFORM: Final = DISCORD.name
MAX_CONTENT: Final = 2000
MAX_FILES: Final = 10
NO_MENTIONS: Final = discord.AllowedMentions.none()


def _is_snowflake(text: str) -> bool:
    """A Discord id: ASCII digits only (``str.isdigit`` also takes "²", which ``int`` refuses)."""
    return text.isascii() and text.isdigit()


def format_content(message: Message) -> str:
    """The text, shown as written (:func:`bot.discord_app.markup.escaped`), with the users to
    ping in front, cut to Discord's 2000 characters."""
    mentions = " ".join(f"<@{user_id}>" for user_id in message.mention if _is_snowflake(user_id))
    if mentions and message.locale in RIGHT_TO_LEFT:  # the line still starts right to left
        mentions = RIGHT_TO_LEFT_MARK + mentions
    text = escaped(message.text)
    return clipped(f"{mentions} {text}" if mentions else text, MAX_CONTENT)


def allowed_mentions(message: Message) -> discord.AllowedMentions:
    """Ping exactly the users the message names, nobody else (no roles, no @everyone)."""
    users = [discord.Object(int(user_id)) for user_id in message.mention if _is_snowflake(user_id)]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def picture_name(message: Message) -> str:
    """``board.png`` for a board; a picture that comes with files of its own and shows no
    board (an analysis) is named like its first file: ``match-4-analysis.png``."""
    if message.board is not None or not message.attachments:
        return "board.png"
    stem = message.attachments[0].filename.rsplit(".", 1)[0]
    return f"{stem or 'picture'}.png"


def make_files(message: Message) -> list[discord.File]:
    """The picture and the attachments, as fresh file objects (each can be sent once)."""
    files = []
    if message.image is not None:
        files.append(discord.File(io.BytesIO(message.image), filename=picture_name(message)))
    if message.animation is not None:  # Discord plays an attached GIF inline
        files.append(discord.File(io.BytesIO(message.animation), filename="replay.gif"))
    for attachment in message.attachments:
        files.append(discord.File(io.BytesIO(attachment.data), filename=attachment.filename))
    return files[:MAX_FILES]


def _gettext(user_locale: str, message: Message) -> Any:
    """The language the command layer chose for the message, else the client's."""
    return speech(first_locale(message.locale, user_locale, message.chat.locale))


class Poster:
    """Carries out the core's posting plans (:mod:`bot.core.posting`) through a connected
    client."""

    def __init__(self, client: discord.Client, core: ChatFrontEnd) -> None:
        self.client = client
        self.core = core

    def _channel(self, chat_id: str) -> discord.abc.Messageable:
        found = self.client.get_channel(int(chat_id))
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.client.get_partial_messageable(int(chat_id))

    def _not_to_me(self, message: Message) -> Message:
        """The message without the bot's own account among those to ping or notify (it
        plays matches too, and is named with its opponent at the end of one)."""
        me = self.client.user
        own = str(me.id) if me is not None else None
        if own is None or own not in (*message.mention, *message.notify):
            return message
        return replace(
            message,
            mention=tuple(user for user in message.mention if user != own),
            notify=tuple(user for user in message.notify if user != own),
        )

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
                await self._strip(chat_id, message_id)

    async def deliver(self, messages: Sequence[Message]) -> None:
        """Messages that answer no update (the clock's): public ones in their channels,
        private ones as DMs."""
        async with self._batch(messages) as (folded, posting):
            for message in folded:
                try:
                    if posting.plan(message).route is Route.DIRECT:
                        await self.direct(message, posting)
                    else:
                        await self.publish(message, posting)
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
                    await self.direct(message, posting)
                else:
                    await self.publish(message, posting)

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
        if not _is_snowflake(edit.message_id):
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
            await self._strip(plan.chat_id, previous, message.slot)
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

    async def _strip(self, chat_id: str, message_id: str, slot: str | None = None) -> None:
        """Remove a message's buttons (a newer message took its place in its slot)."""
        if not _is_snowflake(message_id):
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
        if not _is_snowflake(user_id):
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
        if not _is_snowflake(message.private_to):
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
            placeholder = await self._answer_all(interaction, folded, posting, thinking)
        if placeholder:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                logger.debug("could not remove the thinking placeholder", exc_info=True)

    async def _answer_all(
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
            await self.publish(message, posting, interaction)
        elif route is Route.EPHEMERAL:
            await self._ephemeral(interaction, message, placeholder)
            return False
        else:
            await self.direct(message, posting)
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
