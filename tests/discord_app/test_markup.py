"""A player's text in a Discord message shows as written: no markdown, no link with a hidden
address, no mention, and the bot's own addresses still work."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.core.model import ChatRef, Message
from bot.discord_app.markup import clipped, escaped
from bot.discord_app.posting import format_content
from tests.player_text_checks import discord_shown, live_discord_marks, player_texts

CHAT = ChatRef("discord", "1")


def test_the_issues_example_is_neither_a_link_nor_a_mention() -> None:
    seed = "[Claim your prize](https://evil.example) <@123456789012345678>"
    content = format_content(Message(CHAT, f"Your client seed is “{seed}”."))
    assert live_discord_marks(content) == []
    assert discord_shown(content) == f"Your client seed is “{seed}”."


def test_markup_right_behind_an_address_stays_escaped() -> None:
    """The client reads an address up to a space or a "<": a backslash escaping the "]"
    or "<" right behind one would become the link's last character and the mark live."""
    for text in (
        "[Claim your prize](https://evil.example)]<@123456789012345678>",
        "see https://x.example.<b>",
        "https://x.example)*bold*",
    ):
        assert live_discord_marks(escaped(text)) == [], text


def test_every_masked_link_of_a_line_is_escaped() -> None:
    """discord.utils.escape_markdown escapes only the first of several on one line."""
    content = escaped("[a](https://x.example) [b](https://y.example)")
    assert live_discord_marks(content) == []


def test_the_bots_own_addresses_stay_whole() -> None:
    text = "Check the dice: https://g.example/m/a_b*c/verify (or https://g.example/x_y)."
    assert escaped(text) == text


@given(player_texts, player_texts)
def test_player_text_in_a_message_renders_nothing(before: str, after: str) -> None:
    text = f"{before} played “{after}”"
    content = format_content(Message(CHAT, text, mention=("42",)))
    assert content.startswith("<@42> ")  # the intended ping stays
    assert live_discord_marks(content.removeprefix("<@42> ")) == []
    if "://" not in text:  # (addresses are Discord's to show)
        assert discord_shown(content.removeprefix("<@42> ")) == text.replace("\u200b", "")


@given(st.text(alphabet="\\*ab", max_size=30), st.integers(2, 20))
def test_a_cut_never_leaves_a_backslash_alone(text: str, limit: int) -> None:
    content = clipped(escaped(text), limit)
    assert len(content) <= limit
    assert live_discord_marks(content) == []
