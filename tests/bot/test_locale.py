"""One order for choosing a language, used by the core, the clock and the adapters."""

from __future__ import annotations

from bot.core.text.i18n import resolve_locale, room_locale
from storage import ChatRecord, UserRecord


def _user(language: str | None = None, locale: str | None = None) -> UserRecord:
    preferences = {"language": language} if language else {}
    return UserRecord(1, "test", "u1", "U", locale, preferences)


def _chat(language: str | None = None, locale: str | None = None) -> ChatRecord:
    settings = {"language": language} if language else {}
    return ChatRecord(1, "test", "c1", locale, settings)


def test_a_players_own_language_is_their_choice_then_their_clients_then_the_chats() -> None:
    assert resolve_locale(_user("de"), _chat("en"), "en") == "de"
    assert resolve_locale(_user(), _chat("de"), "en") == "en"  # the client's, not the chat's
    assert resolve_locale(_user(locale="en"), _chat(locale="en"), "de-AT") == "de"
    assert resolve_locale(_user(locale="de"), _chat(locale="en"), None) == "de"
    assert resolve_locale(_user(), _chat("ru"), None) == "ru"  # nothing known of the player
    assert resolve_locale(_user(), _chat(locale="de_CH"), "fr") == "de"
    assert resolve_locale(_user(language="xx"), None, None) == "en"
    assert resolve_locale() == "en"


def test_the_chats_language_is_the_administrators_choice_then_the_platforms_then_english() -> None:
    assert room_locale(_chat("tr", "de")) == "tr"
    assert room_locale(_chat(locale="uk-UA")) == "uk"
    assert room_locale(_chat(locale="pt-BR")) == "en"
    assert room_locale(_chat()) == "en"
    assert room_locale(None) == "en"
