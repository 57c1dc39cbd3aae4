"""A core message as Discord shows it: its content, whom it pings, its files."""

from __future__ import annotations

import io
from typing import Final

import discord

from bot.core.model import Message
from bot.core.text.direction import RIGHT_TO_LEFT_MARK
from bot.core.text.i18n import RIGHT_TO_LEFT
from bot.discord_app.markup import clipped, escaped

MAX_CONTENT: Final = 2000
MAX_FILES: Final = 10
NO_MENTIONS: Final = discord.AllowedMentions.none()


def is_snowflake(text: str) -> bool:
    """A Discord id: ASCII digits only (``str.isdigit`` also takes "²", which ``int`` refuses)."""
    return text.isascii() and text.isdigit()


def format_content(message: Message) -> str:
    """The text, shown as written (:func:`bot.discord_app.markup.escaped`), with the users to
    ping in front, cut to Discord's 2000 characters."""
    mentions = " ".join(f"<@{user_id}>" for user_id in message.mention if is_snowflake(user_id))
    if mentions and message.locale in RIGHT_TO_LEFT:  # the line still starts right to left
        mentions = RIGHT_TO_LEFT_MARK + mentions
    text = escaped(message.text)
    return clipped(f"{mentions} {text}" if mentions else text, MAX_CONTENT)


def allowed_mentions(message: Message) -> discord.AllowedMentions:
    """Ping exactly the users the message names, nobody else (no roles, no @everyone)."""
    users = [discord.Object(int(user_id)) for user_id in message.mention if is_snowflake(user_id)]
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
