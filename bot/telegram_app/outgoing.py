"""The command layer's messages as Bot API calls: photos with captions, inline keyboards,
slots, mentions, private notifications.

Telegram has no ephemeral messages, so a message meant for one user (``private_to``) goes
where that user caused it: the toast of a button press (chosen by the adapter before calling
:meth:`Poster.post_all`), an edit of the pressed panel (``/settings``), the private chat when
the request came from there (deep links), or else a reply to the user's own message.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
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

from bot.core.folding import fold_notes
from bot.core.i18n import first_locale, speech
from bot.core.model import Actor, Message
from bot.core.service import Core
from bot.core.tokens import BadTokenError, parse_token
from bot.telegram_app.links import NOTIFY_PAYLOAD, accept_token_payload, link
from bot.telegram_app.markup import html_text

logger = logging.getLogger(__name__)

PLATFORM = "telegram"
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


@dataclass
class Origin:
    """The update a batch of messages answers."""

    chat_id: int
    message_id: int | None = None  # the user's message, for replies
    pressed_message_id: int | None = None  # the message whose button was pressed
    pressed_has_media: bool = True  # ... is a photo or an animation (else: text)
    private_chat_id: int | None = None  # the request came from this private chat (deep link)
    touched: set[int] = field(default_factory=set)  # messages posted or edited meanwhile


def is_harmless(error: TelegramError) -> bool:
    return isinstance(error, BadRequest) and any(
        phrase in error.message.lower() for phrase in _HARMLESS
    )


class Poster:
    def __init__(self, bot: Bot, core: Core, bot_username: Callable[[], str]) -> None:
        self.bot = bot
        self.core = core
        self.bot_username = bot_username

    # --- batches ------------------------------------------------------------------------

    async def post_all(self, messages: Sequence[Message], origin: Origin | None = None) -> None:
        """Post every message in order, the sentences before a picture in its caption; one
        failing message does not stop the others."""
        for message in fold_notes(messages, MessageLimit.CAPTION_LENGTH - 200, _MAX_BODY):
            try:
                await self.post(message, origin)
            except Exception:
                logger.exception(
                    "posting a message to chat %s (slot %s) failed",
                    message.chat.chat_id,
                    message.slot,
                )

    async def post(self, message: Message, origin: Origin | None = None) -> None:
        """One message, with as few calls into its chat as it takes: a board for the player
        who pressed or typed (nobody to call) replaces the previous board of its slot in place,
        a message that calls nobody replaces a pressed board that would lose its buttons
        anyway (unless the answer keeps it: a match's end), and the previous board's buttons
        are only removed when it had any."""
        message = self._not_to_me(message)
        chat_id = int(message.chat.chat_id)
        reply_to: int | None = None
        private = message.private_to is not None and not message.chat.private
        if private and origin is not None:
            if origin.private_chat_id is not None:
                chat_id = origin.private_chat_id
            elif origin.pressed_message_id is not None and message.buttons:
                # A panel answering a press of its own buttons (/settings): update it in place.
                if await self._edit(
                    origin.chat_id,
                    origin.pressed_message_id,
                    html_text(_clip(message.text, _MAX_BODY)),
                    None,
                    self._keyboard(message, False),
                ):
                    origin.touched.add(origin.pressed_message_id)
                    return
            elif origin.message_id is not None:
                reply_to = origin.message_id
        group = not message.chat.private and chat_id == int(message.chat.chat_id)
        media = _media(message)
        pressed = _pressed_here(origin, chat_id)
        if message.edit_pressed and pressed is not None:
            # A replay stepped on: the pressed board shows the next frame, in place.
            text = html_text(_clip(message.text, _MAX_BODY))
            if await self._edit(chat_id, pressed, text, media, self._keyboard(message, False)):
                _touch(origin, pressed)
                return
        text = await self._text(message, group)
        slot = message.slot or _preview_slot(message)
        keyboard = self._keyboard(message, group)
        if slot is not None and not message.mention:
            previous = await self.core.delivery.slot_message(PLATFORM, str(chat_id), slot)
            if previous is not None and await self._edit(
                chat_id, int(previous), text, media, keyboard
            ):
                _touch(origin, int(previous))
                await self._attachments(chat_id, message, reply_to)
                return
        if (
            origin is not None
            and pressed is not None
            and pressed not in origin.touched
            and message.private_to is None
            and not message.mention
            and not message.keep_pressed
            and origin.pressed_has_media == (media is not None)
            and await self._edit(chat_id, pressed, text, media, keyboard)
        ):
            # The pressed message would only lose its buttons: it becomes this message.
            _touch(origin, pressed)
            await self._fill_slot(chat_id, slot, pressed, message, origin)
            await self._attachments(chat_id, message, reply_to)
            return
        markup: Markup = keyboard
        if keyboard is None and group and message.mention and message.image is not None:
            # A board that waits for a typed move: invite a reply from the player it mentions,
            # which reaches the bot even under the group privacy mode.
            markup = ForceReply(selective=True, input_field_placeholder="13/10* 6/5")
        sent = await self._send(chat_id, text, media, markup, reply_to)
        if sent is None:
            return
        _touch(origin, sent.message_id)
        await self._fill_slot(chat_id, slot, sent.message_id, message, origin)
        await self._attachments(chat_id, message, reply_to)
        if group:
            for user_id in message.notify:
                body = html_text(_clip(message.notice_for(user_id), _MAX_BODY))
                await self._notify(message, user_id, body)

    async def _fill_slot(
        self,
        chat_id: int,
        slot: str | None,
        message_id: int,
        message: Message,
        origin: Origin | None,
    ) -> None:
        """Record the slot's new message; strip the one it replaces if that had buttons."""
        if slot is None:
            return
        previous = await self.core.delivery.fill_slot(PLATFORM, str(chat_id), slot, str(message_id))
        if previous is None or int(previous) == message_id:
            return
        if message.strip_previous and (origin is None or int(previous) not in origin.touched):
            await self.strip(chat_id, int(previous))
            _touch(origin, int(previous))

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

    async def _text(self, message: Message, group: bool) -> str:
        # Clipped before escaping, so no entity is cut; Telegram counts the parsed text.
        body = html_text(_clip(message.text, _MAX_BODY))
        if not group or not message.mention:
            return body
        links = []
        for user_id in message.mention:
            user = await self.core.delivery.recipient(PLATFORM, user_id)
            name = user.name if user is not None else user_id
            links.append(f'<a href="tg://user?id={int(user_id)}">{html_text(name)}</a>')
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

    async def _notify(self, message: Message, user_id: str, text: str) -> None:
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
        user = await self.core.delivery.mark_unreachable(Actor(PLATFORM, user_id, user_id))
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


def _pressed_here(origin: Origin | None, chat_id: int) -> int | None:
    """The message whose button was pressed, when it is in this chat."""
    if origin is None or origin.chat_id != chat_id:
        return None
    return origin.pressed_message_id


def _touch(origin: Origin | None, message_id: int) -> None:
    if origin is not None:
        origin.touched.add(message_id)


def _preview_slot(message: Message) -> str | None:
    """Confirm-move previews of one user replace each other in place."""
    if message.private_to is None or message.image is None:
        return None
    for button in message.buttons:
        try:
            token = parse_token(button.token)
        except BadTokenError:
            continue
        if token.verb == "confirm":
            return f"preview:{token.target}:{message.private_to}"
    return None


def _locale_of(message: Message) -> str:
    """The language the command layer wrote the message in."""
    return first_locale(message.locale, message.chat.locale)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
