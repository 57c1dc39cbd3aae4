"""Private notifications on Telegram, and the hint in the group to whoever cannot get them
yet (they never started the bot, or blocked it)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError

from bot.core.model import Message
from bot.core.posting import Posting
from bot.core.text.i18n import first_locale, speech
from bot.telegram_app.bot_calls import BotCalls
from bot.telegram_app.links import NOTIFY_PAYLOAD, link
from bot.telegram_app.markup import html_text

logger = logging.getLogger(__name__)


class PrivateNotes:
    """Notes sent to one user each, in their private chat with the bot."""

    def __init__(self, calls: BotCalls, bot_username: Callable[[], str]) -> None:
        self.bot = calls.bot
        self.calls = calls
        self.bot_username = bot_username

    async def notify(self, message: Message, user_id: str, text: str, posting: Posting) -> None:
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
        await self.calls.send(
            message.chat.chat_id, body, None, InlineKeyboardMarkup([[button]]), None
        )
