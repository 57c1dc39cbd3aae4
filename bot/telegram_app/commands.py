"""The command menu Telegram shows (``setMyCommands``), in each language the bot speaks.

Every command of the command registry is listed except ``/start``, which Telegram offers by
itself, with the registry's one-line summary (Telegram allows 256 characters, the menu shows
far fewer).
"""

from __future__ import annotations

import logging

from telegram import Bot, BotCommand
from telegram.error import TelegramError

from bot.core import registry
from bot.core.text.i18n import LOCALES, speech

logger = logging.getLogger(__name__)


def command_menu(locale: str) -> list[BotCommand]:
    """The menu in one language: every listed command of the registry, in its order."""
    _ = speech(locale)
    return [BotCommand(command.name, _(command.summary)) for command in registry.LISTED]


COMMANDS = registry.NAMES


async def register_commands(bot: Bot) -> None:
    """English for everyone, plus every other language by its ``language_code``. A failure is
    logged, not fatal: the commands work without the menu."""
    try:
        await bot.set_my_commands(command_menu("en"))
        for locale in LOCALES:
            if locale != "en":
                await bot.set_my_commands(command_menu(locale), language_code=locale)
    except TelegramError:
        logger.exception("registering the command menu failed")
