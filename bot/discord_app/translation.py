"""German command descriptions, option names and choices for Discord's client.

Descriptions and choice names come from the gettext catalogs (the same German as the rest of
the bot). Option names are identifiers Discord shows in the command line, so they get a small
table of their own instead of catalog entries that could clash with ordinary words.
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location

from bot.core.i18n import translator

GERMAN_OPTION_NAMES: Final = {
    "opponent": "gegner",
    "length": "länge",
    "money": "geldspiel",
    "variant": "variante",
    "cube": "doppler",
    "time": "zeitlimit",
    "jacoby": "jacoby",
    "beavers": "beaver",
    "play": "zug",
    "level": "stufe",
    "topic": "kapitel",
    "language": "sprache",
    "seed": "seed",
    "match": "partie",
}
_LANGUAGES: Final = {discord.Locale.german: "de"}


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = _LANGUAGES.get(locale)
        if language is None:
            return None
        location: Any = context.location
        if location in (Location.command_name, Location.group_name):
            return None  # the bot's texts name the commands in English in every language
        if location is Location.parameter_name:
            return GERMAN_OPTION_NAMES.get(string.message)
        translated = translator(language).gettext(string.message)
        return translated if translated != string.message else None
