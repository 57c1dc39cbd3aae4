"""What Discord's client shows in each of its locales the bot speaks: every command
description, option name and choice translated, within Discord's limits."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discord_app.commands import build_commands
from bot.discord_app.translation import LANGUAGES, CatalogTranslator

# Discord's rule for names: lowercase letters (any script), digits, - and _; 1 to 32 long.
NAME = re.compile(r"^[-_\w]{1,32}$")


async def _ignore(*_args: Any) -> Any:
    return None


async def payloads() -> list[dict[str, Any]]:
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    translator = CatalogTranslator()
    found = []
    for command in build_commands(_ignore, _ignore):
        found.append(await command.get_translated_payload(tree, translator))
    return found


def options_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The options of a command, or of each subcommand of a group."""
    options = payload.get("options", [])
    nested = [option for option in options if option["type"] in (1, 2)]
    if nested:
        return [inner for option in nested for inner in options_of(option)]
    return list(options)


def descriptions_of(payload: dict[str, Any]) -> list[dict[str, Any]]:
    found = [payload]
    for option in payload.get("options", []):
        found += descriptions_of(option)
    return found


def test_discord_locales_are_the_bots_languages_without_arabic() -> None:
    assert sorted(LANGUAGES.values()) == ["bg", "de", "el", "ru", "tr", "uk"]


@pytest.mark.parametrize("locale", sorted(LANGUAGES, key=str), ids=str)
async def test_every_command_and_option_is_translated_within_discords_limits(
    locale: discord.Locale,
) -> None:
    key = locale.value
    for payload in await payloads():
        for described in descriptions_of(payload):
            translated = described.get("description_localizations", {}).get(key)
            assert translated, (key, described["name"], described["description"])
            assert 1 <= len(translated) <= 100, (key, translated)
        names = []
        for option in options_of(payload):
            name = option.get("name_localizations", {}).get(key)
            assert name, (key, payload["name"], option["name"])
            assert NAME.match(name), (key, name)
            assert name == name.lower(), (key, name)
            names.append(name)
            for choice in option.get("choices", []):
                label = choice.get("name_localizations", {}).get(key, choice["name"])
                assert 1 <= len(label) <= 100, (key, label)
        assert len(names) == len(set(names)), (key, payload["name"], names)


async def test_a_russian_client_reads_russian_descriptions() -> None:
    russian = {
        payload["name"]: payload["description_localizations"]["ru"] for payload in await payloads()
    }
    assert re.search("[а-яё]", russian["roll"])
    assert russian["roll"] != russian["resign"]


def test_an_arabic_post_with_pings_still_starts_right_to_left() -> None:
    from bot.core.model import ChatRef, Message
    from bot.core.text.direction import directed_text
    from bot.discord_app.posting import format_content

    text = directed_text("سارة تضاعف إلى 2.", "ar")
    arabic = Message(ChatRef("discord", "1"), text, mention=("42",), locale="ar")
    english = Message(ChatRef("discord", "1"), "Sara doubles to 2.", mention=("42",), locale="en")
    assert format_content(arabic).startswith("\u200f<@42> ")
    assert format_content(english) == "<@42> Sara doubles to 2."
