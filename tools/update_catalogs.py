"""Keep the message catalogs in step with the code, and compile them.

    python tools/update_catalogs.py               # extract, merge, check, compile every language
    python tools/update_catalogs.py --check ru    # what is wrong with Russian; writes nothing
    python tools/update_catalogs.py --missing ru  # the texts Russian lacks, as JSON lines
    python tools/update_catalogs.py --init pt     # start a catalog for a new language

The translators' files are the source: ``bot/locales/<code>/LC_MESSAGES/messages.po``, which
Poedit, Weblate or Crowdin edit. This script extracts every ``_("...")`` and
``_.ngettext("...", "...", n)`` from the code into ``bot/locales/messages.pot`` (Babel), merges
that template into each catalog (a new text arrives untranslated; a changed text is marked fuzzy
with the old translation as a suggestion; a text the code dropped leaves the catalog), and
compiles the ``.mo`` files the bot reads at run time. It compiles only when every language is
complete: nothing untranslated or fuzzy, every placeholder kept, as many plural forms as the
language has. Otherwise it names each problem and exits with 1, leaving the merged ``.po``
files for the translators.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "bot" / "locales"
sys.path.insert(0, str(ROOT))

from bot.core.text.i18n import LOCALES as LANGUAGES  # noqa: E402

PLACEHOLDER = re.compile(r"\{\w+(?:[:!][^{}]*)?\}|%\(\w+\)[ds]")
# A plural form may say the number in words ("one", Arabic's dual) instead of these.
NUMBERS_IN_WORDS = frozenset({"{count}", "{points}", "{limit}", "{length}"})
# A date in the headers would change every run and make every catalog differ in each commit.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)


def catalog_path(language: str, locales: Path = LOCALES) -> Path:
    return locales / language / "LC_MESSAGES" / "messages.po"


def extract(locales: Path = LOCALES) -> Catalog:
    """Every text of the code, as the template catalog (also written to messages.pot)."""
    template = locales / "messages.pot"
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
    with template.open("rb") as handle:
        return read_po(handle)


def read_catalog(path: Path, language: str) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=language)


def write_catalog(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        write_po(handle, catalog, sort_output=True, no_location=True, ignore_obsolete=True)


def merge(catalog: Catalog, template: Catalog) -> None:
    """Bring ``catalog`` to the template's texts, keeping every translation that still fits."""
    template.creation_date = FIXED_DATE
    catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
    catalog.creation_date = FIXED_DATE
    catalog.fuzzy = False


def _forms(message: Message) -> tuple[str, ...]:
    string = message.string
    if isinstance(string, (list, tuple)):
        return tuple(str(form) for form in string)
    return (str(string or ""),)


def problems(catalog: Catalog) -> list[str]:
    """Everything that keeps ``catalog`` from being compiled: an untranslated or fuzzy text, a
    lost or invented placeholder, the wrong number of plural forms."""
    found: list[str] = []
    for message in catalog:
        if not message.id:
            continue
        plural = isinstance(message.id, (list, tuple))
        english = tuple(message.id) if plural else (message.id,)
        forms = _forms(message)
        if not any(form.strip() for form in forms):
            found.append(f"untranslated: {english[0]!r}")
            continue
        if message.fuzzy:
            found.append(f"fuzzy (check the suggestion, then clear the flag): {english[0]!r}")
        if plural and len(forms) != catalog.num_plurals:
            found.append(
                f"{catalog.num_plurals} plural forms wanted, {len(forms)} given: {english[0]!r}"
            )
        wanted = {name for text in english for name in PLACEHOLDER.findall(text)}
        for form in forms:
            if not form.strip():
                found.append(f"an empty form: {english[0]!r}")
            got = set(PLACEHOLDER.findall(form))
            lost = wanted - got - (NUMBERS_IN_WORDS if plural else frozenset())
            if got - wanted or lost:
                found.append(
                    f"placeholders {sorted(got)} instead of {sorted(wanted)}: {english[0]!r}"
                )
    return found


def compile_catalog(path: Path, language: str) -> None:
    """The .mo file beside ``path``, made from exactly what the .po file says."""
    written = read_catalog(path, language)
    with path.with_suffix(".mo").open("wb") as handle:
        write_mo(handle, written)


def new_catalog(language: str, template: Catalog) -> Catalog:
    """An empty catalog for ``language`` with its plural rule, every text untranslated."""
    Locale.parse(language)  # refuses a code Babel does not know
    catalog = Catalog(locale=language, project="gammonbot", version="1")
    catalog.header_comment = (
        f"# {Locale.parse(language).english_name} translations of gammonbot.\n"
        "# GPL-3.0-or-later. Edit the msgstr lines; tools/update_catalogs.py merges new texts\n"
        "# from the code and compiles the catalog."
    )
    catalog.creation_date = catalog.revision_date = FIXED_DATE
    catalog.last_translator = catalog.language_team = "gammonbot"
    catalog.msgid_bugs_address = ""
    for message in template:
        if message.id:
            catalog.add(message.id, "" if isinstance(message.id, str) else ())
    return catalog


def update_all(languages: Iterable[str], template: Catalog, locales: Path = LOCALES) -> int:
    """Merge the template into every catalog and compile those that are complete; the number of
    problems left (0: everything compiled)."""
    wrong: dict[str, list[str]] = {}
    for language in languages:
        path = catalog_path(language, locales)
        catalog = read_catalog(path, language)
        merge(catalog, template)
        write_catalog(path, catalog)
        wrong[language] = problems(read_catalog(path, language))
    if any(wrong.values()):
        for language, found in wrong.items():
            if found:
                print(f"{language}: {len(found)} problem(s)\n  " + "\n  ".join(found))
        print("Nothing compiled: translate the texts above in the .po files, then run again.")
        return sum(len(found) for found in wrong.values())
    for language in wrong:
        compile_catalog(catalog_path(language, locales), language)
    return 0


def missing(language: str, template: Catalog) -> None:
    """The texts ``language`` lacks (or has fuzzy), each with the German for reference."""
    catalog = read_catalog(catalog_path(language), language)
    merge(catalog, template)
    german = {message.id: message.string for message in read_catalog(catalog_path("de"), "de")}
    for message in catalog:
        if not message.id or (any(f.strip() for f in _forms(message)) and not message.fuzzy):
            continue
        key = message.id if isinstance(message.id, str) else list(message.id)
        entry: dict[str, object] = {"id": key, "de": german.get(message.id)}
        if not isinstance(message.id, str):
            entry["plural_forms"] = catalog.num_plurals
            entry["plural_rule"] = catalog.plural_expr
        print(json.dumps(entry, ensure_ascii=False))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", metavar="LANG", help="report what LANG lacks; write nothing")
    parser.add_argument("--missing", metavar="LANG", help="print the texts LANG lacks as JSON")
    parser.add_argument("--init", metavar="LANG", help="start a catalog for a new language")
    options = parser.parse_args()
    template = extract()
    if options.init:
        path = catalog_path(options.init)
        if path.exists():
            raise SystemExit(f"{path} exists already")
        write_catalog(path, new_catalog(options.init, template))
        print(f"{path}: {len(template) - 1} texts to translate")
        return
    if options.missing:
        missing(options.missing, template)
        return
    if options.check:
        catalog = read_catalog(catalog_path(options.check), options.check)
        merge(catalog, template)
        wrong = problems(catalog)
        print("\n".join(wrong) or f"{options.check}: complete")
        raise SystemExit(1 if wrong else 0)
    languages = [language for language in LANGUAGES if language != "en"]
    if update_all(languages, template):
        raise SystemExit(1)
    print(", ".join(languages), f"compiled: {len(template) - 1} texts")


if __name__ == "__main__":
    main()
