"""Languages: English and German from gettext catalogs (compiled with Babel, read by gettext).

English is the source language, so its texts are the message ids themselves.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path
from typing import Final, Protocol

LOCALES: Final = ("en", "de")
DEFAULT_LOCALE: Final = "en"
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locales"
DOMAIN: Final = "messages"


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
    """The one order in which the bot picks a language: the user's own choice (/language),
    the chat's (/defaults language), the language of the client acting now, the language the
    platform last gave for the user, the chat's platform language, English."""
    return first_locale(
        user.prefs.language if user else None,
        chat.settings.get("language") if chat else None,
        actor,
        user.locale if user else None,
        chat.locale if chat else None,
    )


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

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self._catalog.ngettext(singular, plural, count)


@lru_cache(maxsize=len(LOCALES))
def speech(locale: str) -> Speech:
    """The texts of ``locale`` (one shared object per language)."""
    return Speech(locale)
