"""How a message reads on Telegram: its text (HTML, the mentioned users linked in a group) and
its inline keyboard."""

from __future__ import annotations

from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import MessageLimit

from bot.core.model import Message
from bot.core.posting import Posting
from bot.core.text.i18n import first_locale, speech
from bot.telegram_app.links import accept_token_payload, link
from bot.telegram_app.markup import html_text

_SHORT_LABEL = 16  # up to three buttons this short share a row
MAX_BODY = MessageLimit.MAX_TEXT_LENGTH - 200  # room for the mentions


def locale_of(message: Message) -> str:
    """The language the command layer wrote the message in."""
    return first_locale(message.locale, message.chat.locale)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Composer:
    """A message's text and keyboard (the bot's username links to a private chat)."""

    def __init__(self, bot_username: Callable[[], str]) -> None:
        self.bot_username = bot_username

    def text(self, message: Message, group: bool, posting: Posting) -> str:
        # Clipped before escaping, so no entity is cut; Telegram counts the parsed text.
        body = html_text(clip(message.text, MAX_BODY))
        if not group or not message.mention:
            return body
        links = [
            f'<a href="tg://user?id={int(user_id)}">{html_text(posting.name(user_id))}</a>'
            for user_id in message.mention
        ]
        return " ".join(links) + "\n" + body

    def keyboard(self, message: Message, group: bool) -> InlineKeyboardMarkup | None:
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
                    _ = speech(locale_of(message))
                    label = _("Accept in a private chat (with notifications)")
                    rows.append([InlineKeyboardButton(label, url=link(username, payload))])
        return InlineKeyboardMarkup(rows) if rows else None
