"""Administrators on the console: nobody, unless the ``CONSOLE_ADMINS`` setting names them (the
console once let everyone change every chat's defaults)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console_app.chat import ConsoleChat
from tests.bot.scripted import Room
from tests.bot.test_console import run_console

REFUSAL = "Only an administrator of this chat can change its defaults."
UPDATED = "The chat's defaults are updated."


async def test_a_console_user_not_named_an_administrator_is_refused(room: Room) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output, admins=["Dee"])
    await chat.line("alice: /defaults length 5")
    assert REFUSAL in output.getvalue()
    assert UPDATED not in output.getvalue()
    await chat.line("dee: /defaults length 5")  # names are read in any case
    assert UPDATED in output.getvalue()
    shown = io.StringIO()
    chat.out = shown
    await chat.line("alice: /defaults")
    assert "matches of 5 points by default" in shown.getvalue()


async def test_in_her_private_chat_a_console_user_administers_it(room: Room) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output)
    await chat.line("#@alice alice: /defaults length 5")
    assert UPDATED in output.getvalue()


async def test_a_console_administrator_ends_someone_elses_chouette(room: Room) -> None:
    output = io.StringIO()
    chat = ConsoleChat(room.core, output, admins=["dee"])
    await chat.line("ann: /chouette")
    await chat.line("bob: /chouette join")
    await chat.line("cy: /chouette end")
    assert "Only the host who opened the table or an administrator ends it." in output.getvalue()
    await chat.line("dee: /chouette end")
    assert "The chouette is over. Games played: 0." in output.getvalue()


def test_the_console_admins_setting_names_the_administrators(tmp_path: Path) -> None:
    lines = ["alice: /defaults length 5", "bob: /defaults length 7", "alice: /defaults"]
    output = run_console(tmp_path, lines, CONSOLE_ADMINS="bob, carol")
    first, second, third = output.split("--\n")[:3]
    assert REFUSAL in first
    assert UPDATED in second
    assert "matches of 7 points by default" in third
