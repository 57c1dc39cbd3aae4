"""The language catalogs: every text in the code is translated, and the compiled files are fresh."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
GERMAN = ROOT / "bot" / "locales" / "de" / "LC_MESSAGES"
FIX = "run: python tools/update_catalogs.py"


def german_catalog():  # type: ignore[no-untyped-def]
    with (GERMAN / "messages.po").open("rb") as handle:
        return read_po(handle, locale="de")


def texts_in_code() -> set[str]:
    found = extract_from_dir(str(ROOT / "bot"), method_map=[("**.py", "python")])
    return {
        message for _file, _line, message, _comments, _context in found if isinstance(message, str)
    }


def test_every_text_in_the_code_has_a_german_translation() -> None:
    catalog = german_catalog()
    translated = {str(message.id): message.string for message in catalog if message.id}
    in_code = texts_in_code()
    assert len(in_code) > 100
    missing = sorted(text for text in in_code if not translated.get(text))
    assert missing == [], FIX


def test_translations_keep_every_placeholder() -> None:
    for message in german_catalog():
        if message.id:
            wanted = sorted(re.findall(r"\{\w+\}", str(message.id)))
            assert sorted(re.findall(r"\{\w+\}", str(message.string))) == wanted, message.id


def test_the_compiled_catalog_is_not_stale() -> None:
    with (GERMAN / "messages.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    in_mo = {key: value for key, value in compiled._catalog.items() if key}  # type: ignore[attr-defined]
    in_po = {str(message.id): message.string for message in german_catalog() if message.id}
    assert in_mo == in_po, FIX
