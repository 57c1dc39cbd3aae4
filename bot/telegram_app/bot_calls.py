"""The Bot API calls a posting makes: send, edit, strip buttons, send files; harmless refusals
ignored, the others logged, none raised. Each names its chat as the core does (a forum's topic
as ``group:topic``, :mod:`.topics`): what is sent goes to the topic, what is edited is found
by the group's message id."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from telegram import (
    Bot,
    ForceReply,
    InlineKeyboardMarkup,
    InputFile,
    InputMediaAnimation,
    InputMediaDocument,
    InputMediaPhoto,
    LinkPreviewOptions,
    ReplyParameters,
)
from telegram import Message as SentMessage
from telegram.constants import MessageLimit, ParseMode
from telegram.error import BadRequest, TelegramError

from bot.core.model import Message
from bot.telegram_app.topics import split_key

logger = logging.getLogger(__name__)

T = TypeVar("T")
Markup = InlineKeyboardMarkup | ForceReply | None
Media = tuple[str, bytes | InputFile]  # ("photo" | "animation", the file)

# Harmless answers to edits: the message already looks like that, or is gone.
_HARMLESS = (
    "message is not modified",
    "message to edit not found",
    "message can't be edited",
    "message to delete not found",
)


def is_harmless(error: TelegramError) -> bool:
    return isinstance(error, BadRequest) and any(
        phrase in error.message.lower() for phrase in _HARMLESS
    )


def media_of(message: Message) -> Media | None:
    """The message's picture: a replay's animation (named, so it is taken for a GIF), or a
    board."""
    if message.animation is not None:
        return ("animation", InputFile(message.animation, filename="replay.gif"))
    if message.image is not None:
        return ("photo", message.image)
    return None


class BotCalls:
    """One posting's calls to the Bot API."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    async def strip(self, chat: str, message_id: int) -> None:
        """Remove a message's buttons (a newer message took its place)."""
        chat_id, _topic = split_key(chat)
        await self.quietly(
            lambda: self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None),
            f"removing the buttons of message {message_id} in chat {chat_id}",
        )

    async def send(
        self,
        chat: str,
        text: str,
        media: Media | None,
        markup: Markup,
        reply_to: int | None,
    ) -> SentMessage | None:
        chat_id, topic = split_key(chat)
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        if media is not None and len(text) <= MessageLimit.CAPTION_LENGTH:
            kind, data = media
            send = self.bot.send_animation if kind == "animation" else self.bot.send_photo
            return await self.quietly(
                lambda: send(
                    chat_id,
                    data,
                    caption=text,
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup,
                    reply_parameters=reply,
                    message_thread_id=topic,
                ),
                f"sending a {kind} to chat {chat_id}",
            )
        if media is not None:  # too long for a caption: the picture, then the text
            kind, data = media
            send = self.bot.send_animation if kind == "animation" else self.bot.send_photo
            await self.quietly(
                lambda: send(chat_id, data, reply_parameters=reply, message_thread_id=topic),
                f"sending a {kind} to chat {chat_id}",
            )
        return await self.quietly(
            lambda: self.bot.send_message(
                chat_id,
                text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                reply_parameters=reply,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
                message_thread_id=topic,
            ),
            f"sending a message to chat {chat_id}",
        )

    async def edit(
        self,
        chat: str,
        message_id: int,
        text: str,
        media: Media | None,
        keyboard: InlineKeyboardMarkup | None,
    ) -> bool:
        """Edit a message in place; False when it cannot be (then a new one is sent)."""
        chat_id, _topic = split_key(chat)
        try:
            if media is not None:
                if len(text) > MessageLimit.CAPTION_LENGTH:
                    return False
                kind, data = media
                replacement = (
                    InputMediaAnimation(data, caption=text, parse_mode=ParseMode.HTML)
                    if kind == "animation"
                    else InputMediaPhoto(data, caption=text, parse_mode=ParseMode.HTML)
                )
                await self.bot.edit_message_media(
                    replacement, chat_id, message_id, reply_markup=keyboard
                )
            else:
                await self.bot.edit_message_text(
                    text,
                    chat_id,
                    message_id,
                    parse_mode=ParseMode.HTML,
                    reply_markup=keyboard,
                    link_preview_options=LinkPreviewOptions(is_disabled=True),
                )
        except TelegramError as error:
            if isinstance(error, BadRequest) and "not modified" in error.message.lower():
                return True
            logger.debug("editing message %s in chat %s: %s", message_id, chat_id, error)
            return False
        return True

    async def attachments(self, chat: str, message: Message, reply_to: int | None) -> None:
        """The message's files: one, or several as one album (one call, not one each)."""
        chat_id, topic = split_key(chat)
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        files = message.attachments
        if len(files) == 1:
            await self.quietly(
                lambda: self.bot.send_document(
                    chat_id,
                    files[0].data,
                    filename=files[0].filename,
                    reply_parameters=reply,
                    message_thread_id=topic,
                ),
                f"sending {files[0].filename} to chat {chat_id}",
            )
        elif files:
            album = [InputMediaDocument(file.data, filename=file.filename) for file in files[:10]]
            await self.quietly(
                lambda: self.bot.send_media_group(
                    chat_id, album, reply_parameters=reply, message_thread_id=topic
                ),
                f"sending {len(album)} files to chat {chat_id}",
            )

    async def quietly(self, call: Callable[[], Awaitable[T]], what: str) -> T | None:
        """Make one API call; harmless errors are ignored, others logged, none raised."""
        try:
            return await call()
        except TelegramError as error:
            if is_harmless(error):
                logger.debug("%s: %s", what, error)
            else:
                logger.warning("%s failed: %s", what, error)
            return None
