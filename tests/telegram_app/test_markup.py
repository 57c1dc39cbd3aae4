"""A player's text in a Telegram message shows as written: no tag, no mention."""

from __future__ import annotations

from hypothesis import given

from bot.telegram_app.markup import html_text
from tests.player_text_checks import player_texts, telegram_problems


def test_an_at_name_calls_nobody_and_a_tag_is_text() -> None:
    body = html_text('@admin_user <a href="tg://user?id=1">x</a>')
    assert telegram_problems(body) == []


@given(player_texts)
def test_player_text_renders_nothing(text: str) -> None:
    assert telegram_problems(html_text(f"Your client seed is “{text}”.")) == []
