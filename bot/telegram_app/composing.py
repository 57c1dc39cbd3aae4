"""How a message reads on Telegram: its text (HTML, the mentioned users linked in a group) and
its inline keyboard."""

from __future__ import annotations

import re
from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.constants import MessageLimit

from bot.core.model import Button, Message
from bot.core.posting import Posting
from bot.core.text.i18n import first_locale, speech
from bot.telegram_app.links import accept_token_payload, board_payload, link
from bot.telegram_app.markup import html_text

_BOARD_PAGE = re.compile(r"/m/([A-Za-z0-9_-]{16,32})/play$")
_SHORT_LABEL = 16  # up to three buttons this short share a row
MAX_BODY = MessageLimit.MAX_TEXT_LENGTH - 200  # room for the mentions


def locale_of(message: Message) -> str:
    """The language the command layer wrote the message in."""
    return first_locale(message.locale, message.chat.locale)


def board_slug(page: str) -> str | None:
    """The match's slug in the address of its board page (``…/m/<slug>/play``).

    >>> board_slug("https://gammon.example.org/m/Zm9vYmFyYmF6cXV4cXV1eA/play")
    'Zm9vYmFyYmF6cXV4cXV1eA'
    """
    found = _BOARD_PAGE.search(page)
    return found.group(1) if found else None


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Composer:
    """A message's text and keyboard (the bot's username links to a private chat)."""

    def __init__(self, bot_username: Callable[[], str], mini_app: str | None = None) -> None:
        self.bot_username = bot_username
        self.mini_app = mini_app  # the short name of the bot's Mini App (the board page)

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
            item = self._button(button, group)
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

    def _button(self, button: Button, group: bool) -> InlineKeyboardButton:
        """A button as pressed on Telegram. [Open board] opens the board page as a Mini App:
        in a private chat the page itself; in a group (where Telegram allows no such button)
        the bot's Mini App by its direct link, whose start parameter names the match, when
        ``TELEGRAM_MINI_APP`` names it; else a deep link into the private chat with the bot,
        where the bot answers the player's own link and the Mini App button."""
        if button.page is not None and not group:
            return InlineKeyboardButton(button.label, web_app=WebAppInfo(button.page))
        username = self.bot_username()
        slug = board_slug(button.page) if button.page is not None else None
        if slug is not None and self.mini_app and username:
            direct = f"https://t.me/{username}/{self.mini_app}?startapp={slug}"
            return InlineKeyboardButton(button.label, url=direct)
        payload = board_payload(button.token, slug) if slug is not None else None
        if payload is not None and username:
            return InlineKeyboardButton(button.label, url=link(username, payload))
        return InlineKeyboardButton(button.label, callback_data=button.token)
