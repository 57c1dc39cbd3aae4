"""The slash commands: one per command of the core, its options turned back into the
core's argument text (``/challenge`` options -> ``"5 nardy nocube time=24h"``).

Descriptions are ``locale_str`` marked with ``_`` so Babel extracts them into the gettext
catalogs; :mod:`bot.discord_app.translation` gives Discord the German versions. Command names
stay the same in every language because the bot's own texts (in German too) name them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.app_commands import locale_str as _

from bot.core import registry, rules_text

Run = Callable[[discord.Interaction[Any], str, str, tuple[discord.abc.User, ...]], Awaitable[None]]
Suggest = Callable[[discord.Interaction[Any], str], Awaitable[list[str]]]

MAX_CHOICES: Final = 25
_TIME_LIMITS: Final = (
    Choice(name=_("12 hours"), value="time=12h"),
    Choice(name=_("1 day"), value="time=24h"),
    Choice(name=_("3 days"), value="time=72h"),
    Choice(name=_("1 week"), value="time=7d"),
    Choice(name=_("No limit"), value="time=none"),
)
_LANGUAGES: Final = (
    Choice(name="English", value="en"),
    Choice(name="Deutsch", value="de"),
)


def _english(text: str) -> str:
    return text


def build_commands(
    run: Run, suggest: Suggest
) -> list[app_commands.Command[Any, Any, Any] | app_commands.Group]:
    """Every application command, calling ``run(interaction, command, argument, mentions)``."""
    commands: list[app_commands.Command[Any, Any, Any] | app_commands.Group] = [
        _simple(command.name, _(command.summary), run)
        for command in registry.LISTED
        if not command.options and not command.admin
    ]

    @app_commands.command(name="challenge", description=_summary("challenge"))
    @app_commands.describe(**_option_descriptions("challenge"))
    @app_commands.choices(
        variant=[
            Choice(name=_("Backgammon"), value="backgammon"),
            Choice(name=_("Long nardy"), value="nardy"),
        ],
        cube=[Choice(name=_("on"), value="cube"), Choice(name=_("off"), value="nocube")],
        time=list(_TIME_LIMITS),
    )
    async def challenge(
        interaction: discord.Interaction[Any],
        opponent: discord.User | None = None,
        length: app_commands.Range[int, 1, 25] | None = None,
        money: bool = False,
        variant: str | None = None,
        cube: str | None = None,
        time: str | None = None,
        jacoby: bool = False,
        beavers: bool = False,
    ) -> None:
        words = [str(length)] if length is not None else []
        words += ["money"] if money else []
        words += [word for word in (variant, cube, time) if word]
        words += ["jacoby"] if jacoby else []
        words += ["beaver"] if beavers else []
        mentions = (opponent,) if opponent is not None else ()
        await run(interaction, "challenge", " ".join(words), mentions)

    @app_commands.command(name="move", description=_summary("move"))
    @app_commands.describe(**_option_descriptions("move"))
    async def move(
        interaction: discord.Interaction[Any], play: app_commands.Range[str, 1, 100]
    ) -> None:
        await run(interaction, "move", play, ())

    @move.autocomplete("play")
    async def move_choices(interaction: discord.Interaction[Any], typed: str) -> list[Choice[str]]:
        plays = await suggest(interaction, typed)
        return [Choice(name=play[:100], value=play[:100]) for play in plays[:MAX_CHOICES]]

    @app_commands.command(name="resign", description=_summary("resign"))
    @app_commands.describe(**_option_descriptions("resign"))
    @app_commands.choices(
        level=[
            Choice(name=_("Single game"), value="single"),
            Choice(name=_("Gammon"), value="gammon"),
            Choice(name=_("Backgammon"), value="backgammon"),
        ]
    )
    async def resign(interaction: discord.Interaction[Any], level: str = "single") -> None:
        await run(interaction, "resign", level, ())

    @app_commands.command(name="rules", description=_summary("rules"))
    @app_commands.describe(**_option_descriptions("rules"))
    @app_commands.choices(
        topic=[
            Choice(name=_(rules_text.chapter_title(_english, chapter)), value=chapter.topic)
            for chapter in rules_text.CHAPTERS[:MAX_CHOICES]
        ]
    )
    async def rules(interaction: discord.Interaction[Any], topic: str = "overview") -> None:
        await run(interaction, "rules", topic, ())

    @app_commands.command(name="language", description=_summary("language"))
    @app_commands.describe(**_option_descriptions("language"))
    @app_commands.choices(language=list(_LANGUAGES))
    async def language(interaction: discord.Interaction[Any], language: str) -> None:
        await run(interaction, "language", language, ())

    @app_commands.command(name="seed", description=_summary("seed"))
    @app_commands.describe(**_option_descriptions("seed"))
    async def seed(
        interaction: discord.Interaction[Any], seed: app_commands.Range[str, 1, 64]
    ) -> None:
        await run(interaction, "seed", seed, ())

    defaults = app_commands.Group(name="defaults", description=_summary("defaults"))

    @defaults.command(name="show", description=_("Show this chat's defaults"))
    async def defaults_show(interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "defaults", "", ())

    @defaults.command(name="set", description=_("Change this chat's defaults (server managers)"))
    @app_commands.describe(
        length=_("Match length in points"),
        money=_("Money games by default"),
        language=_("The chat's language"),
    )
    @app_commands.choices(language=list(_LANGUAGES))
    async def defaults_set(
        interaction: discord.Interaction[Any],
        length: app_commands.Range[int, 1, 25] | None = None,
        money: bool = False,
        language: str | None = None,
    ) -> None:
        words = ["length", "money"] if money else []
        if length is not None and not money:
            words = ["length", str(length)]
        if language:
            words += ["language", language]
        await run(interaction, "defaults", " ".join(words), ())

    commands += [challenge, move, resign, rules, language, seed, defaults]
    return commands


def _declared(name: str) -> registry.Command:
    command = registry.find(name)
    assert command is not None, name
    return command


def _summary(name: str) -> app_commands.locale_str:
    """The registry's one-line summary of a command, translated by the catalog translator."""
    return _(_declared(name).summary)


def _option_descriptions(name: str) -> dict[str, app_commands.locale_str]:
    return {option.name: _(option.description) for option in _declared(name).options}


def _simple(
    name: str, description: app_commands.locale_str, run: Run
) -> app_commands.Command[Any, Any, Any]:
    async def callback(interaction: discord.Interaction[Any]) -> None:
        await run(interaction, name, "", ())

    return app_commands.Command(name=name, description=description, callback=callback)
