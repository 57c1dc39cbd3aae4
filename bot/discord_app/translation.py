"""Command descriptions, option names and choices in the languages of Discord's client.

Descriptions and choice names come from the gettext catalogs (the same texts as the rest of the
bot). Option names are identifiers Discord shows in the command line, so they get a table of
their own (:mod:`bot.discord_app.option_names`) instead of catalog entries that could clash with
ordinary words. Arabic is not one of Discord's locales: Arabic speakers see English commands
there and choose Arabic for the bot's texts with ``/language ar``.
"""

from __future__ import annotations

from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location

from bot.core.text.i18n import speech
from bot.discord_app.option_names import OPTION_NAMES

LANGUAGES: Final = {
    discord.Locale.german: "de",
    discord.Locale.russian: "ru",
    discord.Locale.ukrainian: "uk",
    discord.Locale.turkish: "tr",
    discord.Locale.greek: "el",
    discord.Locale.bulgarian: "bg",
}


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = LANGUAGES.get(locale)
        if language is None:
            return None
        location: Any = context.location
        if location in (Location.command_name, Location.group_name):
            return None  # the bot's texts name the commands in English in every language
        if location is Location.parameter_name:
            return OPTION_NAMES.get(language, {}).get(string.message)
        translated = speech(language)(string.message)
        return translated if translated != string.message else None
