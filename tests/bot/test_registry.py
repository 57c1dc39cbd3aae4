"""One command registry drives the core's dispatch, /help, Telegram's menus and the Discord tree:
they cannot drift apart."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import AppCommandOptionType, app_commands

from bot.core import registry
from bot.core.context import Context
from bot.core.info.information import InfoService
from bot.core.model import Message
from bot.core.text.i18n import LOCALES
from bot.discord_app.commands import build_commands
from bot.telegram_app.commands import COMMANDS as TELEGRAM_COMMANDS
from bot.telegram_app.commands import command_menu
from tests.bot.scripted import Room
from tests.fakes.discord_server import role_payload


async def _nothing(*_arguments: Any) -> Any:
    return []


def test_every_command_and_button_kind_has_a_handler_on_the_core(room: Room) -> None:
    services = room.core.ports.services
    for command in registry.COMMANDS:
        handler = command.handler(services)
        assert inspect.iscoroutinefunction(handler), command.name
    for press in registry.PRESSES:
        assert inspect.iscoroutinefunction(press.handler(services)), press
        assert press.handler(services).__name__ == "press", press
    assert {press.kind for press in registry.PRESSES} == set("mcurhtp")  # every kind of token


def test_telegram_menus_list_the_registry_in_every_language() -> None:
    listed = [command.name for command in registry.COMMANDS if command.listed]
    assert [entry.command for entry in command_menu("en")] == listed
    german = {entry.command: entry.description for entry in command_menu("de")}
    assert list(german) == listed
    assert german["roll"] == "Würfeln"
    assert {command.name for command in registry.COMMANDS} == TELEGRAM_COMMANDS
    english = {entry.command: entry.description for entry in command_menu("en")}
    for locale in LOCALES[1:]:
        menu = {entry.command: entry.description for entry in command_menu(locale)}
        assert list(menu) == listed, locale
        for name, description in menu.items():
            assert 1 <= len(description) <= 256, (locale, name)  # Telegram's limits
            assert description != english[name], (locale, name)  # really translated


def _slash_commands() -> dict[str, Any]:
    """The Discord tree by qualified name (``defaults set``)."""
    tree: dict[str, Any] = {}
    for command in build_commands(_nothing, _nothing):
        parts = command.commands if isinstance(command, app_commands.Group) else [command]
        tree |= {part.qualified_name: part for part in parts}
    return tree


def test_the_discord_tree_has_each_listed_command_with_its_options() -> None:
    tree = _slash_commands()
    expected: dict[str, tuple[registry.Option, ...]] = {}
    for declared in registry.LISTED:
        expected[declared.name] = declared.options
        for part in declared.subcommands:
            expected.pop(declared.name, None)
            expected[f"{declared.name} {part.name}"] = (
                declared.options if part.takes_options else ()
            )
    assert set(tree) == set(expected)
    assert {"defaults show", "defaults set"} <= set(tree)
    for name, options in expected.items():
        parameters = {parameter.name: parameter for parameter in tree[name].parameters}
        assert list(parameters) == [option.name for option in options], name
        for option in options:
            parameter = parameters[option.name]
            assert parameter.required == option.required, (name, option.name)
            assert parameter.description == option.description, (name, option.name)
            if option.choices:
                labels = option.labels or option.choices
                choices = [(choice.name, choice.value) for choice in parameter.choices]
                assert choices == list(zip(labels, option.choices, strict=True))[:25], name
            if option.kind in (registry.Kind.INTEGER, registry.Kind.TEXT) and option.maximum:
                assert (parameter.min_value, parameter.max_value) == (
                    option.minimum or 1,
                    option.maximum,
                )
            assert parameter.autocomplete == option.suggest, (name, option.name)
    time = {choice.value: choice.name for choice in tree["challenge"].get_parameter("time").choices}
    assert time["time=24h"] == "1 day"
    assert tree["defaults show"].description == "Show this chat's defaults"


async def test_a_command_added_to_the_registry_gets_a_typed_slash_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    added = registry.Command(
        "handicap",
        handler="info.handicap",
        summary="Give points away",
        options=(
            registry.Option(
                "points", registry.Kind.INTEGER, "How many", minimum=1, maximum=9, prefix="points"
            ),
            registry.Option("crawford", registry.Kind.FLAG, "Only at Crawford", word="late"),
            registry.Option("rival", registry.Kind.USER, "Whom"),
        ),
    )
    monkeypatch.setattr(registry, "LISTED", (*registry.LISTED, added))
    calls: list[tuple[Any, ...]] = []

    async def run(*arguments: Any) -> None:
        calls.append(arguments)

    command = next(item for item in build_commands(run, _nothing) if item.name == "handicap")
    assert isinstance(command, app_commands.Command)
    assert command.description == "Give points away"
    points, crawford, rival = command.parameters
    assert (points.type, points.min_value, points.max_value) == (AppCommandOptionType.integer, 1, 9)
    assert (crawford.type, crawford.required) == (AppCommandOptionType.boolean, False)
    assert rival.type is AppCommandOptionType.user
    callback: Any = command.callback
    interaction, bob = object(), object()
    await callback(interaction, points=3, crawford=True, rival=bob)
    await callback(interaction, points=None, crawford=False, rival=None)
    assert calls == [
        (interaction, "handicap", "points 3 late", (bob,), ()),
        (interaction, "handicap", "", (), ()),
    ]


async def test_a_member_or_a_role_option_passes_either_apart_after_its_word(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``/defaults set organisers:`` takes a member or a role: a member goes with the mentions,
    a role with the roles, and the argument names the option's word."""
    added = registry.Command(
        "staff",
        handler="info.staff",
        summary="Who helps",
        options=(registry.Option("who", registry.Kind.MENTIONABLE, "Whom", prefix="helpers"),),
    )
    monkeypatch.setattr(registry, "LISTED", (*registry.LISTED, added))
    calls: list[tuple[Any, ...]] = []

    async def run(*arguments: Any) -> None:
        calls.append(arguments)

    command = next(item for item in build_commands(run, _nothing) if item.name == "staff")
    assert isinstance(command, app_commands.Command)
    (who,) = command.parameters
    assert who.type is AppCommandOptionType.mentionable
    callback: Any = command.callback
    interaction, bob = object(), object()
    role = discord.Role(guild=Any, state=Any, data=role_payload(7, "Staff", 1))  # type: ignore[arg-type]
    await callback(interaction, who=bob)
    await callback(interaction, who=role)
    assert calls == [
        (interaction, "staff", "helpers", (bob,), ()),
        (interaction, "staff", "helpers", (), (role,)),
    ]


async def test_help_has_the_registry_lines_in_order(room: Room) -> None:
    answer = await room.command("anna", "/help")
    lines = answer[0].text.split("\n")
    assert lines[1:] == [command.help for command in registry.COMMANDS if command.help]


async def test_the_chouette_help_line_names_the_time_limit(room: Room) -> None:
    lines = (await room.command("anna", "/help"))[0].text.split("\n")
    chouette = next(line for line in lines if line.startswith("/chouette "))
    assert chouette.startswith("/chouette [team|turned|captain] [jacoby] [beaver] [time=24h] – ")


async def test_every_registered_command_is_answered(room: Room) -> None:
    for command in registry.COMMANDS:
        answer = await room.command("anna", f"/{command.name}")
        assert answer, command.name
        assert not any("do not know that command" in message.text for message in answer)
        assert not any("went wrong" in message.text for message in answer), command.name
    unknown = await room.command("anna", "/nonsense")
    assert unknown[0].text == "I do not know that command. /help lists them all."


async def test_the_documented_worked_example_adds_a_working_command(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    guide = Path(__file__).resolve().parents[2] / "docs" / "development.md"
    blocks = [
        block
        for block in re.findall(
            r"```python\n(.*?)```", guide.read_text(encoding="utf-8"), re.DOTALL
        )
        if block.startswith("# bot/core/")
    ]
    assert len(blocks) == 2
    entry = eval(blocks[0], {"Command": registry.Command, "N_": registry.N_})
    namespace: dict[str, Any] = {"Context": Context, "Message": Message}
    exec(blocks[1], namespace)
    monkeypatch.setattr(registry, "COMMANDS", (*registry.COMMANDS, entry))
    monkeypatch.setitem(registry._BY_NAME, entry.name, entry)
    monkeypatch.setattr(InfoService, "pips", namespace["pips"], raising=False)
    assert (await room.command("anna", "/pips"))[0].text.startswith("You have no match")
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    assert (await room.command("anna", "/pips"))[0].text == "Pips: you 167, your opponent 167"
    helped = await room.command("anna", "/help")
    assert helped[0].text.endswith("/pips – the pip counts of your match")
