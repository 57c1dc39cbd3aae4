"""The language a page is written in: a gettext callable plus the code for ``<html lang>``.

The pages translate every visible string through this object; the English message ids live in
:mod:`bot.pages.texts`, where Babel finds them (``babel.cfg`` extracts ``bot/**.py`` only, so the
templates themselves hold no text of their own).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.text.i18n import DEFAULT_LOCALE, RIGHT_TO_LEFT, Speech, first_locale, speech


class PageText:
    """Translate with ``text(msgid)`` or ``text.gettext(msgid)``; ``lang`` goes into the page."""

    def __init__(self, gettext: Callable[[str], str], lang: str = DEFAULT_LOCALE) -> None:
        self.gettext = gettext
        self.lang = lang

    def __call__(self, message: str) -> str:
        return self.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The plural form ``count`` asks for in this page's language."""
        return self.speech.ngettext(singular, plural, count)

    @property
    def direction(self) -> str:
        """``rtl`` for a language written right to left (Arabic), else ``ltr``."""
        return "rtl" if self.lang in RIGHT_TO_LEFT else "ltr"

    @property
    def speech(self) -> Speech:
        """The bot's own texts in this page's language, for the parts the pages share with
        the chats (captions, results)."""
        return speech(self.lang)

    @classmethod
    def for_locale(cls, locale: str | None) -> PageText:
        """The bot's own catalog for ``locale`` (``de-AT`` counts as ``de``; unknown: English)."""
        lang = first_locale(locale)
        return cls(speech(lang), lang)

    def __repr__(self) -> str:
        return f"PageText(lang={self.lang!r})"
