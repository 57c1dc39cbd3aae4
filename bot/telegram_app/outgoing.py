"""The command layer's messages as Bot API calls: photos with captions, inline keyboards,
slots, mentions, private notifications.

What to do with each message is the core's posting plan (:mod:`bot.core.posting`): Telegram
has no ephemeral messages, so a message meant for one user (``private_to``) goes where that
user caused it: the toast of a button press (answered by the adapter before
:meth:`Poster.post_all`), an edit of the pressed panel (``/settings``), the private chat when
the request came from there (deep links), or else a reply to the user's own message.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import TypeVar

from telegram import (
    Bot,
    ForceReply,
    InlineKeyboardButton,
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
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.core.match.folding import fold_notes
from bot.core.model import Message
from bot.core.ports import ChatFrontEnd
from bot.core.posting import TELEGRAM, Edit, Origin, Plan, Posting
from bot.core.text.i18n import first_locale, speech
from bot.telegram_app.links import NOTIFY_PAYLOAD, accept_token_payload, link
from bot.telegram_app.markup import html_text

logger = logging.getLogger(__name__)

PLATFORM = TELEGRAM.name
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
_SHORT_LABEL = 16  # up to three buttons this short share a row
_MAX_BODY = MessageLimit.MAX_TEXT_LENGTH - 200  # room for the mentions


def is_harmless(error: TelegramError) -> bool:
    return isinstance(error, BadRequest) and any(
        phrase in error.message.lower() for phrase in _HARMLESS
    )


class Poster:
    """Carries out the core's posting plans (:mod:`bot.core.posting`) with Bot API calls."""

    def __init__(self, bot: Bot, core: ChatFrontEnd, bot_username: Callable[[], str]) -> None:
        self.bot = bot
        self.core = core
        self.bot_username = bot_username

    # --- batches ------------------------------------------------------------------------

    async def post_all(self, messages: Sequence[Message], origin: Origin | None = None) -> None:
        """Post every message in order, the sentences before a picture in its caption; one
        failing message does not stop the others. The core is asked once before (what the
        plans need) and once after (what was posted), never in between."""
        folded = [
            self._not_to_me(message)
            for message in fold_notes(messages, MessageLimit.CAPTION_LENGTH - 200, _MAX_BODY)
        ]
        posting = await self.core.delivery.prepare(TELEGRAM, folded, origin)
        for message in folded:
            try:
                await self.post(message, posting)
            except Exception:
                logger.exception(
                    "posting a message to chat %s (slot %s) failed",
                    message.chat.chat_id,
                    message.slot,
                )
        pressed = posting.pressed_to_strip()
        if pressed is not None and posting.origin.chat_id is not None:
            await self.strip(int(posting.origin.chat_id), int(pressed))
        for chat_id, message_id in await self.core.delivery.posted(posting):
            await self.strip(int(chat_id), int(message_id))

    async def post(self, message: Message, posting: Posting) -> None:
        """One message, as its plan says: the first edit that works, else a new message."""
        plan = posting.plan(message)
        chat_id = int(plan.chat_id)
        for edit in plan.edits:
            if await self._apply(edit, plan, message, posting):
                await self._shown(message, plan, edit, edit.message_id, posting)
                return
        markup: Markup = self._keyboard(message, plan.group)
        if markup is None and plan.invite_reply:
            # A board that waits for a typed move: invite a reply from the player it mentions,
            # which reaches the bot even under the group privacy mode.
            markup = ForceReply(selective=True, input_field_placeholder="13/10* 6/5")
        text = self._text(message, plan.group, posting)
        reply_to = None if plan.reply_to is None else int(plan.reply_to)
        sent = await self._send(chat_id, text, _media(message), markup, reply_to)
        if sent is None:
            return
        await self._shown(message, plan, None, str(sent.message_id), posting)
        for user_id in plan.notify:
            body = html_text(_clip(message.notice_for(user_id), _MAX_BODY))
            await self._notify(message, user_id, body, posting)

    async def _apply(self, edit: Edit, plan: Plan, message: Message, posting: Posting) -> bool:
        """Try one edit of the plan; False when Telegram refuses it."""
        if edit.for_its_reader:
            text = html_text(_clip(message.text, _MAX_BODY))
            keyboard = self._keyboard(message, False)
        else:
            text = self._text(message, plan.group, posting)
            keyboard = self._keyboard(message, plan.group)
        media = None if edit.text_only else _media(message)
        return await self._edit(int(edit.chat_id), int(edit.message_id), text, media, keyboard)

    async def _shown(
        self, message: Message, plan: Plan, edit: Edit | None, message_id: str, posting: Posting
    ) -> None:
        """The message is there: strip the one it replaced in its slot, then send its files."""
        previous = posting.shown(message, plan, edit, message_id)
        if previous is not None:
            await self.strip(int(plan.chat_id), int(previous))
        if edit is None or not edit.for_its_reader:
            reply_to = None if plan.reply_to is None else int(plan.reply_to)
            await self._attachments(int(plan.chat_id), message, reply_to)

    def _not_to_me(self, message: Message) -> Message:
        """The message without the bot's own account among those to mention or notify (it
        plays matches too, and is named with its opponent at the end of one): a bot cannot
        write to itself."""
        try:
            own = str(self.bot.id)
        except RuntimeError:  # not initialised (no getMe yet): nothing to tell apart
            return message
        if own not in (*message.mention, *message.notify):
            return message
        return replace(
            message,
            mention=tuple(user for user in message.mention if user != own),
            notify=tuple(user for user in message.notify if user != own),
        )

    async def strip(self, chat_id: int, message_id: int) -> None:
        """Remove a message's buttons (a newer message took its place)."""
        await self._quietly(
            lambda: self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None),
            f"removing the buttons of message {message_id} in chat {chat_id}",
        )

    # --- pieces -------------------------------------------------------------------------

    def _text(self, message: Message, group: bool, posting: Posting) -> str:
        # Clipped before escaping, so no entity is cut; Telegram counts the parsed text.
        body = html_text(_clip(message.text, _MAX_BODY))
        if not group or not message.mention:
            return body
        links = [
            f'<a href="tg://user?id={int(user_id)}">{html_text(posting.name(user_id))}</a>'
            for user_id in message.mention
        ]
        return " ".join(links) + "\n" + body

    def _keyboard(self, message: Message, group: bool) -> InlineKeyboardMarkup | None:
        rows: list[list[InlineKeyboardButton]] = []
        row: list[InlineKeyboardButton] = []
        for button in message.buttons:
            item = InlineKeyboardButton(button.label, callback_data=button.token)
            if len(button.label) > _SHORT_LABEL:
                rows.append([item])
                continue
            row.append(item)
            if len(row) == 3:
                rows.append(row)
                row = []
        if row:
            rows.append(row)
        username = self.bot_username()
        if group and username:
            for button in message.buttons:
                payload = accept_token_payload(button.token)
                if payload is not None:
                    _ = speech(_locale_of(message))
                    label = _("Accept in a private chat (with notifications)")
                    rows.append([InlineKeyboardButton(label, url=link(username, payload))])
        return InlineKeyboardMarkup(rows) if rows else None

    async def _send(
        self,
        chat_id: int,
        text: str,
        media: Media | None,
        markup: Markup,
        reply_to: int | None,
    ) -> SentMessage | None:
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        if media is not None and len(text) <= MessageLimit.CAPTION_LENGTH:
            kind, data = media
            send = self.bot.send_animation if kind == "animation" else self.bot.send_photo
            return await self._quietly(
                lambda: send(
                    chat_id,
                    data,
                    caption=text,
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup,
                    reply_parameters=reply,
                ),
                f"sending a {kind} to chat {chat_id}",
            )
        if media is not None:  # too long for a caption: the picture, then the text
            kind, data = media
            send = self.bot.send_animation if kind == "animation" else self.bot.send_photo
            await self._quietly(
                lambda: send(chat_id, data, reply_parameters=reply),
                f"sending a {kind} to chat {chat_id}",
            )
        return await self._quietly(
            lambda: self.bot.send_message(
                chat_id,
                text,
                parse_mode=ParseMode.HTML,
                reply_markup=markup,
                reply_parameters=reply,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            ),
            f"sending a message to chat {chat_id}",
        )

    async def _edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        media: Media | None,
        keyboard: InlineKeyboardMarkup | None,
    ) -> bool:
        """Edit a message in place; False when it cannot be (then a new one is sent)."""
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

    async def _attachments(self, chat_id: int, message: Message, reply_to: int | None) -> None:
        """The message's files: one, or several as one album (one call, not one each)."""
        reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
        files = message.attachments
        if len(files) == 1:
            await self._quietly(
                lambda: self.bot.send_document(
                    chat_id, files[0].data, filename=files[0].filename, reply_parameters=reply
                ),
                f"sending {files[0].filename} to chat {chat_id}",
            )
        elif files:
            album = [InputMediaDocument(file.data, filename=file.filename) for file in files[:10]]
            await self._quietly(
                lambda: self.bot.send_media_group(chat_id, album, reply_parameters=reply),
                f"sending {len(album)} files to chat {chat_id}",
            )

    async def _notify(self, message: Message, user_id: str, text: str, posting: Posting) -> None:
        """A private notification; when Telegram refuses (the user never started the bot or
        blocked it), remember that and tell them once in the group how to enable it."""
        try:
            await self.bot.send_message(
                int(user_id),
                text,
                parse_mode=ParseMode.HTML,
                link_preview_options=LinkPreviewOptions(is_disabled=True),
            )
            return
        except Forbidden:
            pass
        except BadRequest as error:
            if "chat not found" not in error.message.lower():
                logger.warning("notifying user %s failed: %s", user_id, error)
                return
        except TelegramError as error:
            logger.warning("notifying user %s failed: %s", user_id, error)
            return
        user = posting.refused(user_id)
        name = user.name if user is not None else user_id
        username = self.bot_username()
        if not username:
            return
        _ = speech(user.locale if user is not None else first_locale())
        hint = _(
            "{name}, I cannot send you private notifications yet. Start a private chat with me "
            "to get them."
        ).format(name=name)
        mention = f'<a href="tg://user?id={int(user_id)}">{html_text(name)}</a>'
        body = html_text(hint).replace(html_text(name), mention, 1)
        button = InlineKeyboardButton(_("Enable notifications"), url=link(username, NOTIFY_PAYLOAD))
        await self._send(
            int(message.chat.chat_id), body, None, InlineKeyboardMarkup([[button]]), None
        )

    async def _quietly(self, call: Callable[[], Awaitable[T]], what: str) -> T | None:
        """Make one API call; harmless errors are ignored, others logged, none raised."""
        try:
            return await call()
        except TelegramError as error:
            if is_harmless(error):
                logger.debug("%s: %s", what, error)
            else:
                logger.warning("%s failed: %s", what, error)
            return None


def _media(message: Message) -> Media | None:
    """The message's picture: a replay's animation (named, so it is taken for a GIF), or a
    board."""
    if message.animation is not None:
        return ("animation", InputFile(message.animation, filename="replay.gif"))
    if message.image is not None:
        return ("photo", message.image)
    return None


def _locale_of(message: Message) -> str:
    """The language the command layer wrote the message in."""
    return first_locale(message.locale, message.chat.locale)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
