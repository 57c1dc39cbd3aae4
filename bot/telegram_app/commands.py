"""The command menu Telegram shows (``setMyCommands``), in English and German.

Every command of the command layer is listed except ``/start``, which Telegram offers by
itself. Descriptions are short (Telegram allows 256 characters, the menu shows far fewer).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import Bot, BotCommand
from telegram.error import TelegramError

from bot.core.i18n import LOCALES, translator

logger = logging.getLogger(__name__)


def _descriptions(_: Callable[[str], str]) -> list[tuple[str, str]]:
    return [
        ("challenge", _("Offer a match: /challenge @user 5")),
        ("accept", _("Accept the newest challenge for you")),
        ("roll", _("Roll the dice")),
        ("move", _("Play your dice: /move 13/10* 6/5")),
        ("double", _("Offer the cube")),
        ("resign", _("Offer to resign: single, gammon or backgammon")),
        ("board", _("Show the board again")),
        ("matches", _("Your active matches")),
        ("claim", _("Win when your opponent's time has run out")),
        ("settings", _("Automatic rolls, confirmations, board theme")),
        ("language", _("Your language: en or de")),
        ("seed", _("Your client seed for the next match")),
        ("verify", _("The dice transcript of your match")),
        ("export", _("Your match as a .mat file")),
        ("rules", _("The rules, chapter by chapter")),
        ("defaults", _("The chat's defaults (administrators)")),
        ("help", _("What I can do")),
    ]


def command_menu(locale: str) -> list[BotCommand]:
    return [
        BotCommand(name, description)
        for name, description in _descriptions(translator(locale).gettext)
    ]


COMMANDS = frozenset(name for name, _description in _descriptions(str)) | {"start"}


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
