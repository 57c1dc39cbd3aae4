"""Languages: gettext catalogs (compiled with Babel, read by gettext) for English, German,
Russian, Ukrainian, Turkish, Greek, Bulgarian and Arabic.

English is the source language, so its texts are the message ids themselves.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path
from typing import Final, Protocol

from babel import Locale

LOCALES: Final = ("en", "de", "ru", "uk", "tr", "el", "bg", "ar")
RIGHT_TO_LEFT: Final = frozenset({"ar"})
DEFAULT_LOCALE: Final = "en"
LOCALE_DIR: Final = Path(__file__).resolve().parents[2] / "locales"
DOMAIN: Final = "messages"


def language_name(locale: str) -> str:
    """The language's own name, as its speakers write it: Deutsch, Русский, Türkçe, العربية."""
    name = Locale.parse(locale).display_name or locale
    return name[:1].upper() + name[1:]


def language_choices() -> str:
    """Every language the bot speaks, by code and own name: "en (English), de (Deutsch), …"."""
    return ", ".join(f"{locale} ({language_name(locale)})" for locale in LOCALES)


def N_(text: str) -> str:  # noqa: N802 (gettext's conventional name for a deferred text)
    """Mark ``text`` for translation where it is shown, not here."""
    return text


def normalize_locale(value: str | None) -> str | None:
    """``de-DE``, ``de_AT``, ``DE`` -> ``de``; unknown languages -> ``None``."""
    if not value:
        return None
    language = value.replace("_", "-").split("-")[0].lower()
    return language if language in LOCALES else None


class _Chosen(Protocol):
    @property
    def language(self) -> str | None: ...


class _Person(Protocol):
    @property
    def prefs(self) -> _Chosen: ...
    @property
    def locale(self) -> str | None: ...


class _Room(Protocol):
    @property
    def settings(self) -> dict[str, object]: ...
    @property
    def locale(self) -> str | None: ...


def first_locale(*candidates: object) -> str:
    """The first candidate that names a language we speak (``de-AT`` counts as ``de``), else
    the default.

    >>> first_locale(None, "fr", "de-AT", "en")
    'de'
    >>> first_locale()
    'en'
    """
    for candidate in candidates:
        found = normalize_locale(candidate if isinstance(candidate, str) else None)
        if found is not None:
            return found
    return DEFAULT_LOCALE


def resolve_locale(
    user: _Person | None = None, chat: _Room | None = None, actor: str | None = None
) -> str:
    """A player's own language, for what only they read (a refusal, /help, a private
    notice): their choice (/language), the language of the client acting now, the language the
    platform last gave for them; only then the chat's language, else English."""
    return first_locale(
        user.prefs.language if user else None,
        actor,
        user.locale if user else None,
        chat.settings.get("language") if chat else None,
        chat.locale if chat else None,
    )


def room_locale(chat: _Room | None) -> str:
    """The language of what the whole chat reads (a challenge, a board, a result), never the
    personal language of whoever made it happen: the administrators' choice (/defaults
    language), else the platform's language for the chat (a Discord community's), else
    English. A private chat's platform language is its user's (see the command layer)."""
    if chat is None:
        return DEFAULT_LOCALE
    return first_locale(chat.settings.get("language"), chat.locale)


@lru_cache(maxsize=len(LOCALES))
def translator(locale: str) -> gettext.NullTranslations:
    if locale == DEFAULT_LOCALE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[locale], fallback=True)


class Speech:
    """One language's texts: call it like ``gettext``; ``ngettext`` picks the plural form the
    language's own rule asks for (Russian, Ukrainian and Arabic have more than two)."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self._catalog = translator(locale)

    def __call__(self, message: str) -> str:
        return self._catalog.gettext(message)

    def gettext(self, message: str) -> str:
        return self._catalog.gettext(message)

    def _(self, message: str) -> str:  # so that ``context.for_chat._("…")`` is extracted
        return self._catalog.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self._catalog.ngettext(singular, plural, count)


@lru_cache(maxsize=len(LOCALES))
def speech(locale: str) -> Speech:
    """The texts of ``locale`` (one shared object per language)."""
    return Speech(locale)
