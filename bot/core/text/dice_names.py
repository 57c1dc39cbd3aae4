"""A roll as players of each language call it: ``6-6`` everywhere, and next to a double the
name it has at the table where the language has one (Turkish ``6-6 (düşeş)``, ``1-1 (hep
yek)``). The names are the Persian-Turkish numerals that travelled with the game; the players
of each language spell them their own way. They are names, not translations, so they live
here rather than in the message catalogs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final

DOUBLE_NAMES: Final[Mapping[str, Mapping[int, str]]] = MappingProxyType(
    {
        # Only names found in players' own writing; a double without a known name shows its
        # numbers alone rather than an invented one.
        "tr": {1: "hep yek", 2: "dubara", 3: "dü se", 4: "dört cihar", 5: "dü beş", 6: "düşeş"},
        "ar": {1: "هاب يك", 2: "دوبارة", 3: "دوسة", 4: "دورجي", 5: "دبش", 6: "دوش"},
        "ru": {3: "ду-се", 4: "ду-чар", 5: "ду-беш", 6: "ду-шеш"},
        "uk": {3: "ду-се", 4: "ду-чар", 5: "ду-беш", 6: "ду-шеш"},
        "bg": {2: "дюбара", 3: "дюсе", 5: "дюбеш", 6: "дюшеш"},
        "el": {1: "άσσοι", 2: "δυάρες", 3: "τριάρες", 4: "τεσσάρες", 5: "πεντάρες", 6: "εξάρες"},
    }
)


def roll_text(locale: str, dice: Sequence[int]) -> str:
    """``6-5``; a double with its name where ``locale`` has one: ``6-6 (düşeş)``.

    >>> roll_text("tr", (6, 6)), roll_text("tr", (5, 6)), roll_text("en", (6, 6))
    ('6-6 (düşeş)', '6-5', '6-6')
    """
    high, low = max(dice), min(dice)
    name = DOUBLE_NAMES.get(locale, {}).get(high) if high == low else None
    return f"{high}-{low} ({name})" if name else f"{high}-{low}"
