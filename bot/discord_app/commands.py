"""The slash commands, generated from the command registry: one per listed command, its
options typed (users, ranges, choices with labels, flags) and turned back into the core's
argument text by :meth:`registry.Command.argument` (``/challenge`` -> ``"5 nardy time=24h"``).
A command with subcommands (``/defaults show`` and ``/defaults set``) becomes a group.

Descriptions and choice labels are ``locale_str``; :mod:`bot.discord_app.translation` gives
Discord their translations from the gettext catalogs. Command names stay the same in every
language because the bot's own texts (in every language) name them.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

from bot.core import registry
from bot.core.registry import Kind

Run = Callable[
    [discord.Interaction[Any], str, str, tuple[discord.abc.User, ...], tuple[discord.Role, ...]],
    Awaitable[None],
]
Suggest = Callable[[discord.Interaction[Any], str], Awaitable[list[str]]]
SlashCommand = app_commands.Command[Any, Any, Any]

MAX_CHOICES: Final = 25
MAX_CHOICE_LENGTH: Final = 100
_RANGE: Any = app_commands.Range  # subscripted with run-time bounds, which mypy cannot check


def build_commands(run: Run, suggest: Suggest) -> list[SlashCommand | app_commands.Group]:
    """Every application command, calling ``run(interaction, command, argument, mentions,
    roles)``;
    ``suggest(interaction, typed)`` offers the values of options marked ``suggest``."""
    return [_build(command, run, suggest) for command in registry.LISTED]


def _build(
    command: registry.Command, run: Run, suggest: Suggest
) -> SlashCommand | app_commands.Group:
    if not command.subcommands:
        callback = _callback(command, command.options, run, suggest)
        return app_commands.Command(
            name=command.name, description=locale_str(command.summary), callback=callback
        )
    group = app_commands.Group(name=command.name, description=locale_str(command.summary))
    for part in command.subcommands:
        options = command.options if part.takes_options else ()
        group.add_command(
            app_commands.Command(
                name=part.name,
                description=locale_str(part.summary),
                callback=_callback(command, options, run, suggest),
                parent=group,
            )
        )
    return group


def _callback(
    command: registry.Command,
    options: tuple[registry.Option, ...],
    run: Run,
    suggest: Suggest,
) -> Callable[..., Coroutine[Any, Any, None]]:
    """``async def callback(interaction, **values)`` with a signature discord.py reads as the
    typed options, described, with their choices and suggestions."""

    async def callback(interaction: discord.Interaction[Any], **values: Any) -> None:
        named = [
            values[option.name]
            for option in options
            if option.kind in (Kind.USER, Kind.MENTIONABLE) and values.get(option.name) is not None
        ]
        mentions = tuple(value for value in named if not isinstance(value, discord.Role))
        roles = tuple(value for value in named if isinstance(value, discord.Role))
        await run(interaction, command.name, command.argument(values), mentions, roles)

    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    signature = inspect.Signature([first, *(_parameter(option) for option in options)])
    callback.__signature__ = signature  # type: ignore[attr-defined]  # read by discord.py
    if not options:
        return callback
    app_commands.describe(**{option.name: locale_str(option.description) for option in options})(
        callback
    )
    choices = {option.name: _choices(option) for option in options if option.choices}
    if choices:
        app_commands.choices(**choices)(callback)
    suggested = {option.name: _suggestions(suggest) for option in options if option.suggest}
    if suggested:
        app_commands.autocomplete(**suggested)(callback)
    return callback


def _parameter(option: registry.Option) -> inspect.Parameter:
    """Keyword-only, so optional options may come before required ones."""
    annotation = _annotation(option)
    if option.required:
        default: object = inspect.Parameter.empty
    elif option.kind is Kind.FLAG:
        default = False
    else:
        annotation, default = annotation | None, None
    return inspect.Parameter(
        option.name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default
    )


def _annotation(option: registry.Option) -> Any:
    if option.kind is Kind.USER:
        return discord.User
    if option.kind is Kind.MENTIONABLE:
        return discord.User | discord.Role
    if option.kind is Kind.FLAG:
        return bool
    if option.kind is Kind.INTEGER:
        if option.minimum is None and option.maximum is None:
            return int
        return _RANGE[int, option.minimum, option.maximum]
    if option.kind is Kind.TEXT and option.maximum is not None:
        return _RANGE[str, option.minimum or 1, option.maximum]
    return str  # TEXT without a limit, CHOICE


def _choices(option: registry.Option) -> list[Choice[str]]:
    labels = option.labels or option.choices
    return [
        Choice(name=locale_str(label), value=value)
        for label, value in zip(labels, option.choices, strict=True)
    ][:MAX_CHOICES]


def _suggestions(
    suggest: Suggest,
) -> Callable[[discord.Interaction[Any], str], Coroutine[Any, Any, list[Choice[str]]]]:
    async def suggestions(interaction: discord.Interaction[Any], typed: str) -> list[Choice[str]]:
        values = [value[:MAX_CHOICE_LENGTH] for value in await suggest(interaction, typed)]
        return [Choice(name=value, value=value) for value in values[:MAX_CHOICES]]

    return suggestions
