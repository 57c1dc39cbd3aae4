"""The Telegram adapter: a python-telegram-bot ``Application`` in front of the command layer.

Updates become :class:`~bot.core.model.Request` objects (``incoming``), the answers become API
calls (``outgoing``). The adapter keeps no game state: slots live in the database, tokens carry
the whole state of a button, so a restart loses nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from telegram import CallbackQuery, Update
from telegram import Message as TelegramMessage
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    ApplicationBuilder,
    BaseRateLimiter,
    CallbackQueryHandler,
    ContextTypes,
    MessageHandler,
    filters,
)
from telegram.request import BaseRequest

from bot.config import Settings
from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.ports import ChatFrontEnd
from bot.core.posting import Origin, is_toast
from bot.core.text.i18n import first_locale, speech
from bot.core.text.player_text import isolated
from bot.telegram_app.commands import COMMANDS, register_commands
from bot.telegram_app.forum import ForumTopics
from bot.telegram_app.incoming import PLATFORM, Directory, parse_command
from bot.telegram_app.links import parse_board_payload, parse_challenge_payload
from bot.telegram_app.markup import without_mentions
from bot.telegram_app.outgoing import Poster
from bot.telegram_app.topics import chat_of_message, split_key
from bot.telegram_app.transport import AiohttpRequest
from bot.telegram_app.webhook import WebhookServer

logger = logging.getLogger(__name__)
FLOOD_RETRIES = 3  # calls Telegram refused with 429 (retry after N s), made again

ALLOWED_UPDATES = ["message", "callback_query"]
_TOAST_LIMIT = 200  # Telegram's limit for a callback answer
_ALERT_FROM = 64  # longer answers are shown as an alert that stays until dismissed


def file_url_for(base_url: str) -> str:
    """The file URL that belongs to a Bot API base URL.

    >>> file_url_for("http://127.0.0.1:8081/bot")
    'http://127.0.0.1:8081/file/bot'
    """
    root, found, _rest = base_url.rpartition("/bot")
    return f"{root}/file/bot" if found else base_url.rstrip("/") + "/file/bot"


class TelegramAdapter:
    """:class:`bot.hosting.Adapter` for Telegram (long polling, or a webhook when set)."""

    platform = PLATFORM

    def __init__(
        self,
        core: ChatFrontEnd,
        *,
        settings: Settings,
        request: BaseRequest | None = None,
        updates_request: BaseRequest | None = None,
        rate_limiter: BaseRateLimiter[Any] | None = None,
    ) -> None:
        if settings.telegram_token is None:
            raise ValueError("TELEGRAM_TOKEN is not set")
        # Bot API URLs contain the token: httpx logs every request URL at INFO, and the bot
        # object logs its URLs at DEBUG. Neither may reach a log file.
        logging.getLogger("httpx").setLevel(logging.WARNING)
        for name in ("telegram.Bot", "telegram.ext.ExtBot"):
            logging.getLogger(name).setLevel(logging.INFO)
        self.core = core
        self.settings = settings
        self.directory = Directory()
        builder = (
            ApplicationBuilder()
            .token(settings.telegram_token.get_secret_value())
            .concurrent_updates(True)
        )
        # Telegram's flood limits (30 messages a second, 20 a minute per group); a caller
        # (the tests) may pass its own, a Bot API fake without limits may switch them off.
        # Each process keeps them for its own calls; several processes of one bot together
        # may still pass them, and then Telegram answers 429 with the time to wait: the call
        # is made again after it (up to FLOOD_RETRIES times) instead of being lost.
        if rate_limiter is not None or settings.telegram_flood_limits:
            limiter: BaseRateLimiter[Any] = rate_limiter or AIORateLimiter(
                max_retries=FLOOD_RETRIES
            )
            builder = builder.rate_limiter(limiter)
        if settings.telegram_base_url:
            builder = builder.base_url(settings.telegram_base_url).base_file_url(
                file_url_for(settings.telegram_base_url)
            )
        builder = builder.request(request or AiohttpRequest())
        if updates_request is not None:
            builder = builder.get_updates_request(updates_request)
        self.application: Application = builder.build()  # type: ignore[type-arg]
        self.poster = Poster(self.application.bot, core, self._username, settings.telegram_mini_app)
        self.webhook: WebhookServer | None = None  # in webhook mode, once started
        self.application.add_handler(
            MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, self._on_message)
        )
        self.application.add_handler(CallbackQueryHandler(self._on_press))
        self.application.add_error_handler(self._on_error)
        core.register_admins(PLATFORM, self)
        core.register_threads(PLATFORM, ForumTopics(lambda: self.application.bot))

    async def is_admin(self, actor: Actor, chat: ChatRef) -> bool:
        """The core's :class:`~bot.core.permissions.AdminPort`: a group's owner and its
        administrators, as ``getChatMember`` says (remembered for a minute); in a forum's
        topic, the group's."""
        group, _topic = split_key(chat.chat_id)
        return await self.directory.is_admin(self.application.bot, group, int(actor.user_id))

    def _username(self) -> str:
        try:
            return str(self.application.bot.username)
        except RuntimeError:  # not initialised yet
            return ""

    # --- Adapter ------------------------------------------------------------------------

    async def initialize(self) -> None:
        """Log in (``getMe``) and tell the core which account the bot runs as: the player in
        matches against the bot, and whom ``/challenge @thisbot`` means."""
        await self.application.initialize()
        me = self.application.bot.bot
        await self.core.register_bot(PLATFORM, str(me.id), me.first_name or me.username)

    async def start(self) -> None:
        """Log in, register the command menu, and begin receiving updates."""
        await self.initialize()
        await register_commands(self.application.bot)
        await self.application.start()
        webhook = self.settings.telegram_webhook_url
        if webhook:
            # Each update stored before it is acknowledged: several processes may serve it.
            secret = self.settings.telegram_webhook_secret
            token = secret.get_secret_value() if secret else None
            self.webhook = WebhookServer(
                self.application,
                self.core.inbox,
                host=self.settings.telegram_webhook_listen,
                port=self.settings.telegram_webhook_port,
                path=urlsplit(webhook).path,
                secret=token,
                sweep_seconds=self.settings.telegram_webhook_sweep_seconds,
                stale_after=timedelta(seconds=self.settings.telegram_webhook_stale_seconds),
            )
            await self.webhook.start()
            await self.application.bot.set_webhook(
                webhook, secret_token=token, allowed_updates=ALLOWED_UPDATES
            )
        else:
            updater = self.application.updater
            assert updater is not None
            await updater.start_polling(allowed_updates=ALLOWED_UPDATES)
        logger.info("telegram: running as @%s", self._username())

    async def deliver(self, messages: Sequence[Message]) -> None:
        await self.poster.post_all(messages)

    async def stop(self) -> None:
        if self.webhook is not None:
            await self.webhook.stop()
            self.webhook = None
        updater = self.application.updater
        if updater is not None and updater.running:
            await updater.stop()
        if self.application.running:
            await self.application.stop()
        await self.application.shutdown()

    # --- messages -----------------------------------------------------------------------

    async def _on_message(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.message
        if message is None or message.from_user is None or message.from_user.is_bot:
            return
        try:
            await self._read(message)
        except Exception:
            logger.exception(
                "handling message %s in chat %s failed", message.message_id, message.chat.id
            )
            await self._apologise(message)

    async def _read(self, message: TelegramMessage) -> None:
        assert message.from_user is not None
        actor = self.directory.remember(message.from_user)
        chat = chat_of_message(message)  # a forum's topic is a chat of its own
        private = message.chat.type == ChatType.PRIVATE
        origin = Origin(
            chat.chat_id, actor.user_id, message_id=str(message.message_id), private=private
        )
        event_id = f"{message.chat.id}:{message.message_id}"
        command = parse_command(message, self._username())
        text = message.text or ""
        if command is None:
            if text.startswith("/"):
                return  # a command for another bot
            replied = message.reply_to_message
            to_me = (
                replied is not None
                and replied.forum_topic_created is None  # every message in a topic answers it
                and replied.from_user is not None
                and replied.from_user.id == self.application.bot.id
            )
            if not (private or to_me):
                return  # group chatter
            request = Request(actor, chat, text=text, event_id=event_id)
        elif command.name not in COMMANDS and not (private or command.addressed):
            return  # someone else's bot command in a group
        elif command.name == "start" and private:
            await self.core.delivery.mark_unreachable(actor, unreachable=False)
            challenge = parse_challenge_payload(command.argument)
            if challenge is not None:
                answer = await self.core.accept_challenge_link(actor, chat, challenge, event_id)
                await self.poster.post_all(
                    answer, replace(origin, private_chat_id=str(message.chat.id))
                )
                return
            board = parse_board_payload(command.argument)  # [Open board] pressed in a group
            if board is not None:
                token, slug = board
                request = Request(actor, chat, token=token, argument=slug, event_id=event_id)
            else:
                request = Request(actor, chat, command="start", event_id=event_id)
        else:
            mentions, unknown = self.directory.mentions(message, self.application.bot.bot)
            # A challenge needs its opponent; /defaults every organiser it names.
            challenge = command.name == "challenge" and not mentions
            if unknown and (challenge or command.name == "defaults"):
                await self._unknown_username(message, unknown[0], command.name)
                return
            request = Request(
                actor,
                chat,
                command=command.name,
                argument=command.argument,
                event_id=event_id,
                mentions=tuple(mentions),
            )
        await self.poster.post_all(await self.core.handle(request), origin)

    async def _unknown_username(
        self, message: TelegramMessage, username: str, command: str
    ) -> None:
        user = message.from_user
        locale = first_locale(user.language_code if user else None)
        _ = speech(locale)
        said = (
            _(
                "I have not met {username} yet: Telegram tells me who a member is only by their "
                "messages. Ask them to write /help here, then name them again."
            )
            if command == "defaults"
            else _(
                "I have not met {username} yet. Ask them to write /help here, or answer one of "
                "their messages with /challenge."
            )
        )
        # the name without its mention: it would call them
        await message.reply_text(said.format(username=without_mentions(isolated(username))))

    async def _apologise(self, message: TelegramMessage) -> None:
        user = message.from_user
        locale = first_locale(user.language_code if user else None)
        try:
            await message.reply_text(
                speech(locale)("Sorry, something went wrong. Please try again.")
            )
        except TelegramError:
            logger.warning("apologising in chat %s failed too", message.chat.id)

    # --- button presses -----------------------------------------------------------------

    async def _on_press(self, update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        """Ask the command layer, answer the query at once (a refusal is its toast), then
        post the rest. Every query is answered exactly once, whatever happens."""
        query = update.callback_query
        if query is None:
            return
        pressed = query.message
        locale = first_locale(query.from_user.language_code)
        _ = speech(locale)
        if not isinstance(pressed, TelegramMessage) or query.data is None:
            await self._answer(query, _("That button is out of date."))
            return
        actor = self.directory.remember(query.from_user)
        chat = chat_of_message(pressed)
        request = Request(actor, chat, token=query.data, event_id=query.id)
        try:
            answer = await self.core.handle(request)
        except Exception:
            logger.exception("button %r in chat %s failed", query.data, pressed.chat.id)
            await self._answer(query, _("Sorry, something went wrong. Please try again."))
            return
        origin = Origin(
            chat.chat_id,
            actor.user_id,
            pressed_id=str(pressed.message_id),
            pressed_has_media=bool(pressed.photo or pressed.animation),
            press=True,
        )
        toasts = [message for message in answer if is_toast(message, origin)]
        await self._answer(query, "\n".join(message.text for message in toasts))
        await self.poster.post_all([m for m in answer if m not in toasts], origin)

    async def _answer(self, query: CallbackQuery, text: str) -> None:
        if len(text) > _TOAST_LIMIT:
            text = text[: _TOAST_LIMIT - 1] + "…"
        try:
            await query.answer(text or None, show_alert=len(text) > _ALERT_FROM)
        except TelegramError as error:
            logger.warning("answering callback query %s failed: %s", query.id, error)

    async def _on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        logger.error("update %r caused an error", update, exc_info=context.error)
