"""The words on a picture, replaceable for translations (the chat layer passes its own).

The English texts are marked with ``N_`` so the bot's message catalogs take them in (see
babel.cfg): the bot translates exactly these."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final


def N_(text: str) -> str:  # noqa: N802 (gettext's conventional name for a deferred text)
    return text


DEFAULT_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "match_to": N_("Match to {length}"),
        "money": N_("Money game"),
        "crawford": N_("Crawford"),
        "long_nardy_to": N_("Long nardy · to {length}"),
        "long_nardy_single": N_("Long nardy · single games"),
        "pips": N_("Pips: {pips}"),
        "doubles": N_("{name} doubles to {value}"),
        "played": N_("{name}: {play}"),
        "wins": N_("{name} wins"),
        "player": N_("Player {number}"),
        # Replays of finished games (rendering/replay.py): one caption per frame.
        "game": N_("Game {number}"),
        "starts": N_("{name} starts"),
        "cannot_move": N_("{name} cannot move"),
        "takes": N_("{name} takes"),
        "beavers": N_("{name} beavers to {value}"),
        "passes": N_("{name} passes"),
        "resigns": N_("{name} resigns"),
        "out_of_time": N_("{name} ran out of time"),
        "draw": N_("Draw"),
        # Chouette boards (rendering/chouette.py): the box and the team members' cubes.
        "chouette": N_("Chouette"),  # where a money game says "Money game"
        "chouette_box": N_("Box"),
        "chouette_captain": N_("Captain"),
        "chouette_acting": N_("Acting captain"),
        "chouette_out": N_("out"),
    }
)


def label(labels: Mapping[str, str], key: str, **values: object) -> str:
    """``labels[key]`` (falling back to English) with ``values`` filled in."""
    template = labels.get(key, DEFAULT_LABELS[key])
    try:
        return template.format(**values)
    except (KeyError, IndexError, ValueError):
        return DEFAULT_LABELS[key].format(**values)
