"""Core messages as Discord messages: channel posts, ephemeral answers, DMs, slots.

Boards and every other public message are normal channel messages (never interaction
responses), so they can be edited long after the 15-minute interaction token has expired:
posting into a slot strips the buttons of the message that filled it before, found through
the core's delivery port (the database), so this also works after a restart.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, replace
from typing import Any, Final

import discord

from bot.core.direction import RIGHT_TO_LEFT_MARK
from bot.core.folding import fold_notes
from bot.core.i18n import RIGHT_TO_LEFT, first_locale, speech
from bot.core.model import Actor, Message
from bot.core.service import Core
from bot.discord_app.buttons import make_view
from bot.discord_app.markup import clipped, escaped

logger = logging.getLogger(__name__)

PLATFORM: Final = "discord"
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


@dataclass
class Pressed:
    """The message whose button was pressed, while its answer is posted."""

    interaction: discord.Interaction[Any]
    message_id: int
    touched: bool = False  # edited into a message of the answer, or stripped


class Poster:
    """Sends core messages through a connected client."""

    def __init__(self, client: discord.Client, core: Core) -> None:
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

    async def publish(self, message: Message, pressed: Pressed | None = None) -> None:
        """Post a message for everyone in its chat, with as few channel calls as it takes: a
        board for the player who acted (nobody to call) replaces its slot's previous board in
        place, a message that calls nobody replaces a pressed message that would lose its
        buttons anyway (unless that one is to be kept), and a replaced board is only stripped
        when it had buttons. Fill the slot; DM whoever should know."""
        message = self._not_to_me(message)
        chat_id = message.chat.chat_id
        if message.slot and not message.mention:
            previous = await self.core.delivery.slot_message(PLATFORM, chat_id, message.slot)
            if previous is not None and _is_snowflake(previous):
                edited = await self._edit(chat_id, int(previous), message)
                if edited is not None:
                    if pressed is not None and pressed.message_id == edited.id:
                        pressed.touched = True
                    await self._notify_all(message, edited)
                    return
        if (
            pressed is not None
            and not pressed.touched
            and not message.mention
            and not message.keep_pressed
        ):
            edited = await self._edit_pressed_into(pressed, message)
            if edited is not None:
                await self._fill_slot(message, edited.id)
                await self._notify_all(message, edited)
                return
        channel = self._channel(chat_id)
        view = make_view(message.buttons)
        kwargs: dict[str, Any] = {"allowed_mentions": allowed_mentions(message)}
        if view is not None:
            kwargs["view"] = view
        sent = await channel.send(format_content(message), files=make_files(message), **kwargs)
        if view is not None:
            view.stop()  # the buttons are dynamic items: nothing to keep per message
        await self._fill_slot(message, sent.id, pressed)
        await self._notify_all(message, sent)

    async def _notify_all(self, message: Message, sent: discord.Message) -> None:
        for user_id in message.notify:
            await self.notify(user_id, message, sent)

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
        self, pressed: Pressed, message: Message
    ) -> discord.Message | None:
        """The pressed message becomes ``message`` (the press was acknowledged as an update
        of it); None when it cannot be edited."""
        view = make_view(message.buttons)
        try:
            edited = await pressed.interaction.edit_original_response(
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
        pressed.touched = True
        return edited

    async def _fill_slot(
        self, message: Message, message_id: int, pressed: Pressed | None = None
    ) -> None:
        """Record the slot's new message; strip the one it replaces if that had buttons."""
        if not message.slot:
            return
        chat_id = message.chat.chat_id
        previous = await self.core.delivery.fill_slot(
            PLATFORM, chat_id, message.slot, str(message_id)
        )
        if (
            previous is None
            or previous == str(message_id)
            or not _is_snowflake(previous)
            or not message.strip_previous
        ):
            return
        if pressed is not None and pressed.message_id == int(previous):
            pressed.touched = True
        try:
            old = self.client.get_partial_messageable(int(chat_id))
            await old.get_partial_message(int(previous)).edit(view=None)
        except discord.NotFound:
            pass  # deleted meanwhile: nothing to strip
        except discord.HTTPException:
            logger.warning(
                "could not strip the buttons of message %s (slot %s, channel %s)",
                previous,
                message.slot,
                chat_id,
            )

    async def notify(self, user_id: str, message: Message, sent: discord.Message) -> None:
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
            await self.core.delivery.mark_unreachable(Actor(PLATFORM, user_id, user_id))
        except discord.HTTPException:
            logger.warning("DM notification to user %s failed", user_id, exc_info=True)

    async def direct(self, message: Message) -> None:
        """A private message outside an interaction (the clock's): as a DM."""
        assert message.private_to is not None
        if not _is_snowflake(message.private_to):
            return
        try:
            dm = await self.client.create_dm(discord.Object(int(message.private_to)))
            await self._send_private(dm, message)
        except discord.Forbidden:
            await self.core.delivery.mark_unreachable(
                Actor(PLATFORM, message.private_to, message.private_to)
            )

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
        placeholder = thinking
        pressed = None
        clicked = interaction.message
        if not thinking and clicked is not None and not clicked.flags.ephemeral:
            # A public message whose button was pressed: it may become part of the answer.
            pressed = Pressed(interaction, clicked.id)
        for message in fold_notes(messages, MAX_CONTENT, MAX_CONTENT):
            try:
                if message.edit_pressed and not thinking:
                    await self._edit_pressed(interaction, message)
                elif message.private_to is None:
                    await self.publish(message, pressed)
                elif message.private_to == str(interaction.user.id):
                    await self._ephemeral(interaction, message, placeholder)
                    placeholder = False
                else:
                    await self.direct(message)
            except discord.Forbidden:
                logger.warning("may not post in channel %s", message.chat.chat_id)
                _ = _gettext(str(interaction.locale), message)
                text = _(
                    "I may not post here. Please allow me to send messages and attach files "
                    "in this channel."
                )
                await self._ephemeral(interaction, Message(message.chat, text), placeholder)
                placeholder = False
                return
            except discord.HTTPException:
                # One message Discord would not take (a server error, a file it refused):
                # the match is stored all the same, and the rest of the answer still goes.
                logger.warning(
                    "could not post a message in %s", message.chat.chat_id, exc_info=True
                )
        if placeholder:
            try:
                await interaction.delete_original_response()
            except discord.HTTPException:
                logger.debug("could not remove the thinking placeholder", exc_info=True)

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
