"""Reading ``/tournament new``: the format, its options, the match lengths by bracket and
stage, the days a match may take, the seeding, the name, and the matches' rules (as
``/challenge`` reads them).

>>> options = parse_tournament_options('single consolation=5 lastchance=3 7 final=9 "Friday cup"')
>>> options.settings.kind.value, options.settings.consolation, options.settings.last_chance
('single', True, True)
>>> options.settings.lengths.default, options.name
(7, 'Friday cup')
>>> parse_tournament_options("swiss rounds=5 nardy random days=3").settings.rounds
5
>>> parse_tournament_options("single closes=48h").registration_seconds
172800
>>> parse_tournament_options("roundrobin group=6 playoff").settings.group_size
6
>>> parse_tournament_options("single threads=off").settings.threads
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

from bot.core.match.options import OptionError, parse_challenge_options
from bot.core.tournament.settings import Kind, TournamentSettings
from gammon.match_rules import MAX_MATCH_LENGTH, MatchRules
from gammon.tournament import Bracket, Lengths, Stage

DEFAULT_LENGTH: Final = 5
NAME_LENGTH: Final = 64
MAX_DAYS: Final = 60
MAX_SWISS_ROUNDS: Final = 15

_KINDS: Final = {
    "single": Kind.SINGLE,
    "knockout": Kind.SINGLE,
    "ko": Kind.SINGLE,
    "double": Kind.DOUBLE,
    "de": Kind.DOUBLE,
    "roundrobin": Kind.ROUND_ROBIN,
    "round_robin": Kind.ROUND_ROBIN,
    "rr": Kind.ROUND_ROBIN,
    "swiss": Kind.SWISS,
    "league": Kind.LEAGUE,
}
# name=N: the length of a bracket's or a stage's matches (consolation and lastchance switch
# those brackets on as well).
_LENGTH_WORDS: Final[dict[str, Bracket | Stage]] = {
    "consolation": Bracket.CONSOLATION,
    "lastchance": Bracket.LAST_CHANCE,
    "losers": Bracket.LOSERS,
    "final": Stage.FINAL,
    "semifinal": Stage.SEMIFINAL,
}
_VALUE = re.compile(r"([a-z]+)=([0-9]{1,3})")
_CLOSES = re.compile(r"closes=([0-9]{1,3})([mhd])")
_THREADS: Final = {"threads=on": True, "threads=off": False}
MAX_REGISTRATION_SECONDS: Final = 30 * 86400
_QUOTED = re.compile(r"[\"“”«»„]([^\"“”«»„]{1,200})[\"“”«»„]")


@dataclass(frozen=True)
class TournamentOptions:
    settings: TournamentSettings
    rules: MatchRules  # every match's rules but its length (the lengths say that)
    move_time_limit: int | None
    rated: bool
    random_seeding: bool
    name: str
    registration_seconds: int | None = None  # closes=48h: the clock starts it then


def parse_tournament_options(text: str) -> TournamentOptions:
    """The options of ``/tournament new``; :class:`OptionError` names a word it cannot read."""
    name = ""
    quoted = _QUOTED.search(text)
    if quoted is not None:
        name = " ".join(quoted.group(1).split())[:NAME_LENGTH]
        text = text[: quoted.start()] + " " + text[quoted.end() :]
    kind = Kind.SINGLE
    flags: dict[str, bool] = {}
    numbers: dict[str, int] = {}
    by_bracket: dict[Bracket, int] = {}
    by_stage: dict[Stage, int] = {}
    random_seeding = False
    registration: int | None = None
    threads = True
    rest: list[str] = []
    for word in text.lower().split():
        value = _VALUE.fullmatch(word)
        closes = _CLOSES.fullmatch(word)
        if closes is not None:
            registration = int(closes.group(1)) * {"m": 60, "h": 3600, "d": 86400}[closes.group(2)]
            if not 60 <= registration <= MAX_REGISTRATION_SECONDS:
                raise OptionError(word)
        elif word in _THREADS:
            threads = _THREADS[word]
        elif word in _KINDS:
            kind = _KINDS[word]
        elif word in ("consolation", "lastchance", "playoff"):
            flags[word] = True
        elif word == "random":
            random_seeding = True
        elif value is not None and value.group(1) in _LENGTH_WORDS:
            place = _LENGTH_WORDS[value.group(1)]
            if isinstance(place, Bracket):
                by_bracket[place] = _length(word, value.group(2))
                flags[value.group(1)] = True
            else:
                by_stage[place] = _length(word, value.group(2))
        elif value is not None and value.group(1) in ("rounds", "group", "days", "up", "down"):
            numbers[value.group(1)] = int(value.group(2))
        else:
            rest.append(word)
    challenge = parse_challenge_options(" ".join(rest), DEFAULT_LENGTH)
    if challenge.rules.length == 0 or challenge.level is not None or challenge.hints:
        raise OptionError(next(word for word in rest if not word.isdigit()))
    settings = TournamentSettings(
        kind,
        Lengths(challenge.rules.length, by_bracket, by_stage),
        consolation=flags.get("consolation", False),
        last_chance=flags.get("lastchance", False),
        group_size=numbers.get("group", 8),
        playoff=flags.get("playoff", False),
        rounds=numbers.get("rounds", 0),
        promoted=numbers.get("up", 2),
        relegated=numbers.get("down", 2),
        match_days=numbers.get("days"),
        threads=threads,
    )
    _check(settings)
    return TournamentOptions(
        settings,
        replace(challenge.rules, length=1),  # a placeholder: each match has its slot's length
        challenge.move_time_limit,
        not challenge.unrated,
        random_seeding,
        name,
        registration,
    )


def _length(word: str, digits: str) -> int:
    length = int(digits)
    if not 1 <= length <= MAX_MATCH_LENGTH:
        raise OptionError(word)
    return length


def _check(settings: TournamentSettings) -> None:
    if settings.last_chance and not settings.consolation:
        raise OptionError("lastchance")
    if (settings.consolation or settings.last_chance) and settings.kind is not Kind.SINGLE:
        raise OptionError("consolation")
    if settings.playoff and settings.kind is not Kind.ROUND_ROBIN:
        raise OptionError("playoff")
    if not 3 <= settings.group_size <= 16:
        raise OptionError(f"group={settings.group_size}")
    if settings.kind is Kind.SWISS and not 1 <= settings.rounds <= MAX_SWISS_ROUNDS:
        raise OptionError(f"rounds={settings.rounds}")
    if settings.match_days is not None and not 1 <= settings.match_days <= MAX_DAYS:
        raise OptionError(f"days={settings.match_days}")
