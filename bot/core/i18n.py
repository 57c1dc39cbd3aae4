"""Languages: English and German from gettext catalogs (compiled with Babel, read by gettext).

English is the source language, so its texts are the message ids themselves.
"""

from __future__ import annotations

import gettext
from functools import lru_cache
from pathlib import Path
from typing import Final

LOCALES: Final = ("en", "de")
DEFAULT_LOCALE: Final = "en"
LOCALE_DIR: Final = Path(__file__).resolve().parent.parent / "locales"
DOMAIN: Final = "messages"


def normalize_locale(value: str | None) -> str | None:
    """``de-DE``, ``de_AT``, ``DE`` -> ``de``; unknown languages -> ``None``."""
    if not value:
        return None
    language = value.replace("_", "-").split("-")[0].lower()
    return language if language in LOCALES else None


@lru_cache(maxsize=len(LOCALES))
def translator(locale: str) -> gettext.NullTranslations:
    if locale == DEFAULT_LOCALE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[locale], fallback=True)
