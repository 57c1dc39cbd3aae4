"""Refresh the message catalogs after texts changed in the code.

    python tools/update_catalogs.py             # extract, fill, compile every language
    python tools/update_catalogs.py --check ru  # what Russian lacks or gets wrong; writes nothing
    python tools/update_catalogs.py --missing ru  # the texts Russian lacks, as JSON lines

Extracts every ``_("...")`` and ``_.ngettext("...", "...", n)`` from bot/ (Babel), writes
bot/locales/messages.pot, fills each language's catalog from tools/translations/<code>.py and
compiles the .mo files the bot reads at run time. It refuses to finish while any language lacks
a text, keeps one the code no longer has, loses a placeholder or has the wrong number of plural
forms for its language.

A translation file holds one dict, ``TRANSLATIONS``: an ordinary text maps the English message
id to its translation; a text with plural forms maps the pair ``(singular, plural)`` to a tuple
with one form for each of the language's plural categories, in gettext's order (Babel's
``Locale.plural_form`` names it; the header of each .po file states the rule).
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import subprocess
import sys
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "bot" / "locales"
sys.path.insert(0, str(ROOT))

from bot.core.i18n import LOCALES as LANGUAGES  # noqa: E402

Key = str | tuple[str, str]
Translation = str | tuple[str, ...]
PLACEHOLDER = re.compile(r"\{\w+(?:[:!][^{}]*)?\}|%\(\w+\)[ds]")


def translations(language: str) -> Mapping[Key, Translation]:
    module = importlib.import_module(f"tools.translations.{language}")
    table: Mapping[Key, Translation] = module.TRANSLATIONS
    return table


def extract() -> Path:
    template = LOCALES / "messages.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "-F",
            "babel.cfg",
            "--no-location",
            "--sort-output",
            "--omit-header",
            "-o",
            str(template),
            ".",
        ],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return template


def key_of(message: Message) -> Key:
    if isinstance(message.id, (list, tuple)):
        return (str(message.id[0]), str(message.id[1]))
    return str(message.id)


def read_template(template: Path, language: str) -> Catalog:
    with template.open("rb") as handle:
        return read_po(handle, locale=language)


def problems(catalog: Catalog, table: Mapping[Key, Translation]) -> list[str]:
    """Everything wrong with ``table`` for the texts in ``catalog``: missing, stale, a lost or
    invented placeholder, the wrong number of plural forms."""
    found: list[str] = []
    wanted = {key_of(message) for message in catalog if message.id}
    for key in sorted(wanted - set(table), key=str):
        found.append(f"missing: {key!r}")
    for key in sorted(set(table) - wanted, key=str):
        found.append(f"stale (no longer in the code): {key!r}")
    for key in sorted(wanted & set(table), key=str):
        value = table[key]
        english = key if isinstance(key, tuple) else (key,)
        forms = value if isinstance(value, tuple) else (value,)
        if isinstance(key, tuple) != isinstance(value, tuple):
            found.append(f"plural texts need a tuple of forms, others a string: {key!r}")
            continue
        if isinstance(key, tuple) and len(forms) != catalog.num_plurals:
            found.append(f"{catalog.num_plurals} plural forms wanted, {len(forms)} given: {key!r}")
        placeholders = {name for text in english for name in PLACEHOLDER.findall(text)}
        for form in forms:
            if not form.strip():
                found.append(f"empty translation: {key!r}")
            got = set(PLACEHOLDER.findall(form))
            if got - placeholders or (placeholders - got and not isinstance(key, tuple)):
                found.append(
                    f"placeholders {sorted(got)} instead of {sorted(placeholders)}: {key!r}"
                )
    return found


FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)  # a date in the header would change every run


def describe(catalog: Catalog, language: str) -> None:
    catalog.project = "gammonbot"
    catalog.version = "1"
    catalog.header_comment = (
        f"# {language}: the texts of gammonbot, made by tools/update_catalogs.py from\n"
        f"# tools/translations/{language}.py. GPL-3.0-or-later."
    )
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    catalog.last_translator = catalog.language_team = "gammonbot"
    catalog.msgid_bugs_address = ""


def fill(template: Path, language: str) -> int:
    catalog = read_template(template, language)
    table = translations(language)
    wrong = problems(catalog, table)
    if wrong:
        raise SystemExit(f"{language}:\n" + "\n".join(wrong))
    for message in catalog:
        if message.id:
            message.string = table[key_of(message)]
    catalog.fuzzy = False
    describe(catalog, language)
    folder = LOCALES / language / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "messages.po").open("wb") as handle:
        write_po(handle, catalog, sort_output=True, no_location=True)
    with (folder / "messages.po").open("rb") as handle:
        written = read_po(handle, locale=language)  # compile exactly what the .po file says
    with (folder / "messages.mo").open("wb") as handle:
        write_mo(handle, written)
    return len(table)


def missing(template: Path, language: str) -> None:
    catalog = read_template(template, language)
    try:
        table = translations(language)
    except ModuleNotFoundError:
        table = {}
    german = translations("de")
    for message in catalog:
        key = key_of(message)
        if message.id and key not in table:
            entry: dict[str, object] = {"id": key, "de": german.get(key)}
            if isinstance(key, tuple):
                entry["plural_forms"] = catalog.num_plurals
                entry["plural_rule"] = catalog.plural_expr
            print(json.dumps(entry, ensure_ascii=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", metavar="LANG", help="report what LANG lacks; write nothing")
    parser.add_argument("--missing", metavar="LANG", help="print the texts LANG lacks as JSON")
    options = parser.parse_args()
    template = extract()
    if options.missing:
        missing(template, options.missing)
        return
    if options.check:
        wrong = problems(read_template(template, options.check), translations(options.check))
        print("\n".join(wrong) or f"{options.check}: complete")
        raise SystemExit(1 if wrong else 0)
    counts = {language: fill(template, language) for language in LANGUAGES if language != "en"}
    print(", ".join(f"{language} {count}" for language, count in counts.items()), "texts")


if __name__ == "__main__":
    main()
