"""One command registry drives the core's dispatch, /help, Telegram's menus and the Discord tree:
they cannot drift apart."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest

from bot.core import registry
from bot.core.context import Context
from bot.core.information import InfoService
from bot.core.model import Message
from bot.discord_app.commands import build_commands
from bot.telegram_app.commands import COMMANDS as TELEGRAM_COMMANDS
from bot.telegram_app.commands import command_menu
from tests.bot.scripted import Room


async def _nothing(*_arguments: Any) -> Any:
    return []


def test_every_command_has_a_handler_on_the_core(room: Room) -> None:
    for command in registry.COMMANDS:
        _service, method = command.handler.split(".")
        handler = room.core.handler(command)
        assert inspect.iscoroutinefunction(handler), command.name
        assert handler.__name__ == method, command.name


def test_telegram_menus_list_the_registry_in_every_language() -> None:
    listed = [command.name for command in registry.COMMANDS if command.listed]
    assert [entry.command for entry in command_menu("en")] == listed
    german = {entry.command: entry.description for entry in command_menu("de")}
    assert list(german) == listed
    assert german["roll"] == "Würfeln"
    assert {command.name for command in registry.COMMANDS} == TELEGRAM_COMMANDS


def test_the_discord_tree_has_each_listed_command_with_its_options() -> None:
    tree = {command.name: command for command in build_commands(_nothing, _nothing)}
    assert set(tree) == {command.name for command in registry.LISTED}
    for declared in registry.LISTED:
        if declared.admin:
            continue  # a group of subcommands (defaults show / set)
        command = tree[declared.name]
        parameters = {parameter.name: parameter for parameter in command.parameters}  # type: ignore[union-attr]
        assert list(parameters) == [option.name for option in declared.options], declared.name
        for option in declared.options:
            parameter = parameters[option.name]
            assert parameter.required == option.required, (declared.name, option.name)
            if option.choices:
                values = [choice.value for choice in parameter.choices]
                assert values == list(option.choices), (declared.name, option.name)
            if option.kind is registry.Kind.INTEGER:
                assert (parameter.min_value, parameter.max_value) == (
                    option.minimum,
                    option.maximum,
                )


async def test_help_has_the_registry_lines_in_order(room: Room) -> None:
    answer = await room.command("anna", "/help")
    lines = answer[0].text.split("\n")
    assert lines[1:] == [command.help for command in registry.COMMANDS if command.help]


async def test_every_registered_command_is_answered(room: Room) -> None:
    for command in registry.COMMANDS:
        answer = await room.command("anna", f"/{command.name}")
        assert answer, command.name
        assert not any("do not know that command" in message.text for message in answer)
        assert not any("went wrong" in message.text for message in answer), command.name
    unknown = await room.command("anna", "/nonsense")
    assert unknown[0].text == "I do not know that command. /help lists them all."


async def test_the_readmes_worked_example_adds_a_working_command(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    blocks = [
        block
        for block in re.findall(r"```python\n(.*?)```", readme, re.DOTALL)
        if block.startswith("# bot/core/")
    ]
    assert len(blocks) == 2
    entry = eval(blocks[0], {"Command": registry.Command, "N_": registry.N_})
    namespace: dict[str, Any] = {"Context": Context, "Message": Message}
    exec(blocks[1], namespace)
    monkeypatch.setattr(registry, "COMMANDS", (*registry.COMMANDS, entry))
    monkeypatch.setitem(registry._BY_NAME, entry.name, entry)
    service, method = entry.handler.split(".")
    assert service == "info"
    monkeypatch.setattr(InfoService, method, namespace[method], raising=False)
    assert (await room.command("anna", "/pips"))[0].text.startswith("You have no match")
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    assert (await room.command("anna", "/pips"))[0].text == "Pips: you 167, your opponent 167"
    helped = await room.command("anna", "/help")
    assert helped[0].text.endswith("/pips – the pip counts of your match")
