"""Reading the options of ``/challenge`` and ``/play``: length, variant, cube, money rules,
time limit, match clock (``clock=fast``, ``normal``, ``10s+5m``: :mod:`gammon.clock`), hints (a
human match that allows /hint), unrated (the match changes no rating) and the bot's level.

>>> parse_challenge_options("5 clock=normal").rules.clock.reserve_for(5)
300

>>> parse_challenge_options("7 world-class nocube").level
'world_class'

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
from typing import Any, Final

from gammon import Variant
from gammon.clock_setting import parse_clock
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
    hints: bool = False
    level: str | None = None  # a level word was given (for a match against the bot)
    timed: bool = False  # a time limit was given explicitly
    unrated: bool = False  # the match changes nobody's rating


# The bot's levels (engine.api.Level values) and how players may write them.
LEVELS: Final = ("beginner", "intermediate", "advanced", "expert", "world_class")
_LEVEL_WORDS: Final[dict[str, str]] = {
    **{level: level for level in LEVELS},
    "world-class": "world_class",
    "worldclass": "world_class",
    "world": "world_class",
}


def _words(words: tuple[str, ...], field: str, value: object) -> dict[str, tuple[str, object]]:
    return dict.fromkeys(words, (field, value))


# The words that set one field of the rules to a fixed value (synonyms included).
_RULE_WORDS: Final[dict[str, tuple[str, object]]] = {
    **_words(("money", "unlimited", "single"), "length", 0),
    **_words(("nardy", "long_nardy", "longnardy", "nardi", "нарды"), "variant", Variant.LONG_NARDY),
    **_words(("backgammon", "bg"), "variant", Variant.BACKGAMMON),
    **_words(("nocube", "cube=off"), "cube", False),
    **_words(("cube", "cube=on"), "cube", True),
    **_words(("jacoby",), "jacoby", True),
    **_words(("beaver", "beavers"), "beavers", True),
    **_words(("auto", "autodoubles", "automatic"), "automatic_doubles", 1),
}


def parse_challenge_options(text: str, default_length: int = DEFAULT_LENGTH) -> ChallengeOptions:
    chosen: dict[str, Any] = {"length": default_length}
    limit: int | None = DEFAULT_MOVE_LIMIT
    hints = timed = unrated = False
    level: str | None = None
    for word in text.lower().split():
        named = word.removeprefix("level=")
        if _NUMBER.fullmatch(word):
            # Too many digits for any length (and for int(), past 4300) is refused as 0.
            length = int(word) if len(word) <= 4 else 0
            if not 1 <= length <= MAX_MATCH_LENGTH:
                raise OptionError(word)
            chosen["length"] = length
        elif word in _RULE_WORDS:
            field, value = _RULE_WORDS[word]
            chosen[field] = value
        elif named in _LEVEL_WORDS:
            level = _LEVEL_WORDS[named]
        elif word == "hints":
            hints = True
        elif word in ("unrated", "ungewertet"):
            unrated = True
        elif found := _TIME.fullmatch(word):
            limit = _seconds(found.group(1), found.group(2))
            timed = True
        elif word.startswith("clock="):
            try:
                chosen["clock"] = parse_clock(word.removeprefix("clock="))
            except ValueError:
                raise OptionError(word) from None
        else:
            raise OptionError(word)
    if "clock" in chosen and not timed:
        limit = None  # the clock keeps the time; no move time limit besides, unless asked
    try:
        rules = MatchRules(**chosen)
    except ValueError as error:
        raise OptionError(str(error)) from None
    return ChallengeOptions(rules, limit, hints, level, timed, unrated)


def _seconds(amount: str, unit: str) -> int | None:
    if amount in ("none", "off"):
        return None
    scale = {"m": 60, "h": 3600, "d": 86400, "": 3600}[unit]
    seconds = int(amount) * scale
    if not 60 <= seconds <= 30 * 86400:
        raise OptionError(f"time={amount}{unit}")
    return seconds
