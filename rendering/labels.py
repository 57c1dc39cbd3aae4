"""The words on a picture, replaceable for translations (the chat layer passes its own)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

DEFAULT_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "match_to": "Match to {length}",
        "money": "Money game",
        "crawford": "Crawford",
        "long_nardy_to": "Long nardy · to {length}",
        "long_nardy_single": "Long nardy · single games",
        "pips": "{pips} pips",
        "doubles": "{name} doubles to {value}",
        "played": "{name}: {play}",
        "wins": "{name} wins",
        "player": "Player {number}",
    }
)


def label(labels: Mapping[str, str], key: str, **values: object) -> str:
    """``labels[key]`` (falling back to English) with ``values`` filled in."""
    template = labels.get(key, DEFAULT_LABELS[key])
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return DEFAULT_LABELS[key].format(**values)
