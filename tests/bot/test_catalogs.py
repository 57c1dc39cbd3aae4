"""The language catalogs: every text in the code is translated into every language, with every
placeholder and the plural forms the language needs, and the compiled files are fresh."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from bot.core.text.i18n import LOCALES

ROOT = Path(__file__).resolve().parents[2]
FIX = "run: python tools/update_catalogs.py"
TRANSLATED = [locale for locale in LOCALES if locale != "en"]
PLACEHOLDER = re.compile(r"\{\w+(?:[:!][^{}]*)?\}|%\(\w+\)[ds]")
# How many plural forms each language has (CLDR, as gettext writes them): written out here so a
# catalog with a wrong header fails, not only one that disagrees with itself.
PLURAL_FORMS = {"de": 2, "ru": 3, "uk": 3, "tr": 2, "el": 2, "bg": 2, "ar": 6}

Key = str | tuple[str, str]


def folder(locale: str) -> Path:
    return ROOT / "bot" / "locales" / locale / "LC_MESSAGES"


def catalog(locale: str) -> Catalog:
    with (folder(locale) / "messages.po").open("rb") as handle:
        return read_po(handle, locale=locale)


def key(message_id: object) -> Key:
    if isinstance(message_id, (list, tuple)):
        return (str(message_id[0]), str(message_id[1]))
    return str(message_id)


def texts_in_code() -> set[Key]:
    found: set[Key] = set()
    for directory in ("bot", "rendering"):
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT / directory), method_map=[("**.py", "python")]
        ):
            if directory == "rendering" and not _file.endswith("labels.py"):
                continue
            found.add(key(message))
    return found


@pytest.fixture(scope="module")
def in_code() -> set[Key]:
    texts = texts_in_code()
    assert len(texts) > 400
    assert any(isinstance(text, tuple) for text in texts)  # the plural texts are found too
    return texts


def test_every_language_the_bot_offers_has_a_catalog() -> None:
    assert set(PLURAL_FORMS) >= set(TRANSLATED)
    for locale in TRANSLATED:
        assert (folder(locale) / "messages.po").is_file(), locale


@pytest.mark.parametrize("locale", TRANSLATED)
def test_every_text_in_the_code_is_translated_and_none_is_stale(
    locale: str, in_code: set[Key]
) -> None:
    translated = {key(message.id): message.string for message in catalog(locale) if message.id}
    missing = sorted((text for text in in_code if not translated.get(text)), key=str)
    stale = sorted((text for text in translated if text not in in_code), key=str)
    assert (missing, stale) == ([], []), FIX


@pytest.mark.parametrize("locale", TRANSLATED)
def test_translations_keep_every_placeholder(locale: str) -> None:
    for message in catalog(locale):
        if not message.id:
            continue
        english = key(message.id)
        if isinstance(english, tuple):
            wanted = set(PLACEHOLDER.findall(english[1]))
            forms = message.string
            assert isinstance(forms, tuple), english
            assert len(forms) == PLURAL_FORMS[locale], english
            for form in forms:
                # a form may say the number in words ("one", Arabic's dual), never invent one
                assert set(PLACEHOLDER.findall(form)) <= wanted, (locale, english, form)
                assert set(PLACEHOLDER.findall(form)) >= wanted - {
                    "{count}",
                    "{points}",
                    "{limit}",
                    "{length}",
                }, (locale, english, form)
        else:
            wanted_list = sorted(PLACEHOLDER.findall(english))
            assert sorted(PLACEHOLDER.findall(str(message.string))) == wanted_list, (
                locale,
                english,
            )


@pytest.mark.parametrize("locale", TRANSLATED)
def test_each_catalog_states_its_languages_plural_rule(locale: str) -> None:
    with (folder(locale) / "messages.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    assert compiled.info()["plural-forms"].startswith(f"nplurals={PLURAL_FORMS[locale]};")


def test_plural_forms_follow_each_languages_rule() -> None:
    """Russian chooses among three forms (1, 2–4, 5–20, then again by the last digits)."""
    if "ru" not in TRANSLATED:
        pytest.skip("no Russian catalog")
    with (folder("ru") / "messages.mo").open("rb") as handle:
        russian = gettext.GNUTranslations(handle)
    singular = "A place here needs {points} point of rated matches; {name} has {experience}."
    plural = "A place here needs {points} points of rated matches; {name} has {experience}."
    forms = [russian.ngettext(singular, plural, n) for n in (1, 2, 5, 11, 21, 22, 25)]
    assert forms[0] == forms[4] != forms[1]
    assert forms[1] == forms[5] != forms[2]
    assert forms[2] == forms[3] == forms[6]


@pytest.mark.parametrize("locale", TRANSLATED)
def test_the_compiled_catalog_is_not_stale(locale: str) -> None:
    with (folder(locale) / "messages.mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    in_mo = {name: value for name, value in compiled._catalog.items() if name}  # type: ignore[attr-defined]
    in_po: dict[object, str] = {}
    for message in catalog(locale):
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            for index, form in enumerate(message.string):
                in_po[(str(message.id[0]), index)] = form
        else:
            in_po[str(message.id)] = message.string
    assert in_mo == in_po, FIX


@pytest.mark.parametrize("locale", TRANSLATED)
def test_no_translation_waits_for_review(locale: str) -> None:
    """A fuzzy entry is a suggestion the merge made for a changed text; gettext would show it
    as if it were checked."""
    fuzzy = [message.id for message in catalog(locale) if message.id and message.fuzzy]
    assert fuzzy == [], FIX
