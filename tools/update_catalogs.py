"""Refresh the message catalogs after texts changed in the code.

    python tools/update_catalogs.py

Extracts every ``_("...")`` from bot/ (Babel), writes bot/locales/messages.pot, fills the German
catalog from tools/german.py (refusing to finish while a text has no translation) and compiles
the .mo files the bot reads at run time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "bot" / "locales"
sys.path.insert(0, str(ROOT))

from tools.german import GERMAN  # noqa: E402


def main() -> None:
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
    )
    with template.open("rb") as handle:
        catalog = read_po(handle, locale="de")
    missing = [message.id for message in catalog if message.id and message.id not in GERMAN]
    if missing:
        raise SystemExit("no German for:\n" + "\n".join(str(text) for text in missing))
    for message in catalog:
        if message.id:
            message.string = GERMAN[str(message.id)]
    catalog.fuzzy = False
    folder = LOCALES / "de" / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "messages.po").open("wb") as handle:
        write_po(handle, catalog, omit_header=True, sort_output=True, no_location=True)
    with (folder / "messages.po").open("rb") as handle:
        written = read_po(handle, locale="de")  # compile exactly what the .po file says
    with (folder / "messages.mo").open("wb") as handle:
        write_mo(handle, written)
    print(f"{len(GERMAN)} German texts; catalogs in {LOCALES}")


if __name__ == "__main__":
    main()
