"""What players write comes back in the bot's messages (names, seeds, option words, names
typed after a command) and does nothing there: no link with a hidden address, no mention, no
markdown on Discord; no tag or @mention on Telegram; no bidirectional control that turns the
rest of a line around, anywhere."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.service import Core
from bot.core.text.player_text import balanced, isolated, without_bidi_controls
from bot.discord_app.posting import format_content
from bot.telegram_app.markup import html_text
from storage import Database
from tests.bot.scripted import Room
from tests.databases import sqlite_copy
from tests.player_text_checks import (
    live_discord_marks,
    player_texts,
    telegram_problems,
    unpaired_bidi_controls,
)
from tests.seeds import fixed_seeds

# Snowflake-like ids, so the Discord content carries the intended pings in front.
ANNA, BOB = "111111111111111111", "222222222222222222"


def _check(message: Message) -> None:
    assert unpaired_bidi_controls(message.text) == [], message.text
    content = format_content(message)
    pings = "".join(f"<@{user}> " for user in message.mention)
    assert content.startswith(pings)
    assert live_discord_marks(content.removeprefix(pings)) == [], content
    assert telegram_problems(html_text(message.text)) == [], message.text


async def _exchange(url: str, name: str, seed: str, word: str, typed: str) -> list[Message]:
    """Anna, called ``name``, challenges Bob with the option ``word``, then properly, sets the
    client seed ``seed``; Bob accepts; both ask /verify; Anna types a move and a name."""
    database = Database(url)
    core = Core(database, render_images=False, server_seeds=fixed_seeds())
    chat = ChatRef("discord", "333333333333333333")
    anna, bob = Actor("discord", ANNA, name), Actor("discord", BOB, "Bob")
    said: list[Message] = []

    async def send(actor: Actor, **fields: object) -> list[Message]:
        answer = await core.handle(
            Request(actor, chat, event_id=f"e{len(said)}", **fields)  # type: ignore[arg-type]
        )
        said.extend(answer)
        return answer

    await send(anna, command="challenge", argument=f"@Bob 1 {word}", mentions=(bob,))
    await send(anna, command="challenge", argument="@Bob 1", mentions=(bob,))
    await send(anna, command="seed", argument=seed)
    accept = next(
        button for message in said for button in message.buttons if button.label == "Accept"
    )
    await send(bob, token=accept.token)
    await send(anna, command="verify")
    await send(bob, command="verify")
    await send(anna, command="move", argument=typed)
    await send(bob, command="take", argument=typed)
    await send(anna, command="matches")
    await database.close()
    return said


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(player_texts, player_texts, player_texts, player_texts)
def test_what_players_write_does_nothing_in_the_bots_messages(
    migrated_sqlite: Path, name: str, seed: str, word: str, typed: str
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = sqlite_copy(migrated_sqlite, Path(folder) / "echo.db")
        said = asyncio.run(_exchange(url, name, seed, word, typed))
    assert said
    for message in said:
        _check(message)


async def test_the_issues_seed_is_shown_as_text_and_isolated(room: Room) -> None:
    await room.command("anna", "/challenge @bob 1")
    [set_seed] = await room.command("anna", "/seed \u202edlrow olleh")
    assert "“\u2068dlrow olleh\u2069”" in set_seed.text  # the override is gone
    await room.press("bob", "Accept")
    [verified] = await room.command("anna", "/verify")
    assert "Anna “\u2068dlrow olleh\u2069”" in verified.text
    trick = "[Claim your prize](https://evil.example) <@123456789012345678>"
    [tricked] = await room.command("bob", f"/seed {trick}")
    content = format_content(tricked)
    assert live_discord_marks(content) == []


def test_isolating_and_balancing() -> None:
    assert (
        without_bidi_controls(
            "a\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061cb"
        )
        == "ab"
    )
    assert isolated("") == ""
    assert balanced("\u2066x\u2069") == "\u2066x\u2069"  # the bot's own isolates stay
    assert balanced("\u202ex\ny\u2068") == "x\ny\u2068\u2069"  # closed at its line's end
    assert unpaired_bidi_controls(balanced("\u2069\u2068\u2068a\u2069\r\nb\u202b")) == []
