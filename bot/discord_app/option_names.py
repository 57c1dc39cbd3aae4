"""Slash-command option names in each language of Discord's client (lowercase, no spaces, at
most 32 characters, unique within a command), keyed by the English name the bot declares."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

OPTION_NAMES: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(
    {
        "de": {
            "opponent": "gegner",
            "length": "länge",
            "money": "geldspiel",
            "variant": "variante",
            "cube": "doppler",
            "time": "zeitlimit",
            "jacoby": "jacoby",
            "beavers": "beaver",
            "play": "zug",
            "level": "stufe",
            "topic": "kapitel",
            "language": "sprache",
            "seed": "seed",
            "match": "match",
            "game": "partie",
            "hints": "tipps",
            "player": "spieler",
            "unrated": "ungewertet",
            "where": "wo",
        },
    }
)
