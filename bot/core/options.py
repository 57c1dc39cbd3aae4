"""Reading the options of ``/challenge``: length, variant, cube, money rules, time limit.

>>> parse_challenge_options("5 nardy time=24h").rules.length
5
>>> parse_challenge_options("money jacoby beaver").rules.jacoby
True

Numbers are ASCII digits only; any other word is an :class:`OptionError` naming it:

>>> try:
...     parse_challenge_options("5 time=٣h")
... except OptionError as error:
...     print(error.word)
time=٣h
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from gammon import Variant
from gammon.match_rules import MAX_MATCH_LENGTH, MatchRules

DEFAULT_LENGTH: Final = 3
DEFAULT_MOVE_LIMIT: Final = 72 * 3600
_TIME = re.compile(r"(?:time|limit)=(none|off|[0-9]{1,4})([hmd]?)")
_NUMBER = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() and int() take other digits too


class OptionError(ValueError):
    """A challenge option that cannot be read; ``word`` is the culprit."""

    def __init__(self, word: str) -> None:
        super().__init__(word)
        self.word = word


@dataclass(frozen=True)
class ChallengeOptions:
    rules: MatchRules
    move_time_limit: int | None


def parse_challenge_options(text: str, default_length: int = DEFAULT_LENGTH) -> ChallengeOptions:
    length = default_length
    variant = Variant.BACKGAMMON
    cube: bool | None = None
    jacoby = beavers = False
    automatic = 0
    limit: int | None = DEFAULT_MOVE_LIMIT
    for word in text.lower().split():
        if _NUMBER.fullmatch(word):
            # Too many digits for any length (and for int(), past 4300) is refused as 0.
            length = int(word) if len(word) <= 4 else 0
            if not 1 <= length <= MAX_MATCH_LENGTH:
                raise OptionError(word)
        elif word in ("money", "unlimited", "single"):
            length = 0
        elif word in ("nardy", "long_nardy", "longnardy", "nardi", "нарды"):
            variant = Variant.LONG_NARDY
        elif word in ("backgammon", "bg"):
            variant = Variant.BACKGAMMON
        elif word in ("nocube", "cube=off"):
            cube = False
        elif word in ("cube", "cube=on"):
            cube = True
        elif word == "jacoby":
            jacoby = True
        elif word in ("beaver", "beavers"):
            beavers = True
        elif word in ("auto", "autodoubles", "automatic"):
            automatic = 1
        elif found := _TIME.fullmatch(word):
            limit = _seconds(found.group(1), found.group(2))
        else:
            raise OptionError(word)
    try:
        rules = MatchRules(
            length=length,
            cube=cube,
            jacoby=jacoby,
            beavers=beavers,
            automatic_doubles=automatic,
            variant=variant,
        )
    except ValueError as error:
        raise OptionError(str(error)) from None
    return ChallengeOptions(rules, limit)


def _seconds(amount: str, unit: str) -> int | None:
    if amount in ("none", "off"):
        return None
    scale = {"m": 60, "h": 3600, "d": 86400, "": 3600}[unit]
    seconds = int(amount) * scale
    if not 60 <= seconds <= 30 * 86400:
        raise OptionError(f"time={amount}{unit}")
    return seconds
