"""``gammonbot analyse``: a match in ``.mat`` format in, the engine's analysis out as JSON.

The work is bounded and can be watched and stopped: a file with more games or decisions
than allowed is refused while its lines are read, before anything is replayed or the engine
loaded; on a terminal a progress bar runs on stderr (nothing is added when stderr is piped,
so stdout stays one JSON document); Ctrl-C is the caller's to catch (see ``bot.cli``). A
game the file ends in before its result is analysed up to where the file ends, named in the
JSON and in a warning on stderr.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any, Final

import click

from gammon import Variant
from gammon.mat_format import MatFormatError, MatLimitError, MatLimits, MatRecord, read_mat

if TYPE_CHECKING:
    from engine.api import Level, MatchAnalysis

MAX_BYTES: Final = 10_000_000
_OPTION_OF: Final = {"games": "--max-games", "decisions": "--max-decisions"}


class RefusedError(Exception):
    """The file cannot be analysed; the message is the one line to show."""


def analyse_file(path: str, level: Level | None, limits: MatLimits) -> None:
    """Print the analysis of the match in ``path`` as JSON; raise :class:`RefusedError`."""
    record = read_record(path, limits)
    if record.rules.variant is not Variant.BACKGAMMON:
        raise RefusedError(f"{path}: only backgammon matches can be analysed")
    if record.unfinished_game is not None:
        click.echo(
            f"warning: {path}: game {record.unfinished_game} is unfinished (the file ends "
            "in it): its decisions are analysed up to the end of the file",
            err=True,
        )
    from engine.levels import ANALYSIS_LEVEL
    from engine.records import analysis_to_json

    analysis = _analysed(path, record, level or ANALYSIS_LEVEL)
    data = analysis_to_json(analysis)
    data["unfinished_game"] = unfinished_game(record, analysis)
    click.echo(json.dumps(data, ensure_ascii=False))


def read_record(path: str, limits: MatLimits) -> MatRecord:
    """The match in a .mat file. UTF-8 (with or without a byte order mark) as gnubg and
    eXtreme Gammon write it, else Latin-1 as older programs did: every byte then reads, and
    what is no .mat text fails as one."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as error:
        raise RefusedError(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_BYTES:
        raise RefusedError(f"{path}: too large for a .mat file (over {MAX_BYTES // 1_000_000} MB)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    try:
        return read_mat(text, limits)
    except MatLimitError as error:
        option = _OPTION_OF[error.what]
        raise RefusedError(
            f"{path}: more than {error.limit} {error.what}, the limit of {option}; "
            f"to analyse it anyway, raise it: {option} N"
        ) from None
    except MatFormatError as error:
        raise RefusedError(f"{path}: not a .mat file that can be read: {error}") from None


def _analysed(path: str, record: MatRecord, level: Level) -> MatchAnalysis:
    from engine.analysis import analyse_match

    try:
        if not sys.stderr.isatty():
            return analyse_match(record.rules, record.actions, record.names, level)
        with click.progressbar(record.actions, label="analysing", file=sys.stderr) as actions:
            return analyse_match(record.rules, actions, record.names, level)
    except ValueError as error:
        raise RefusedError(f"{path}: cannot analyse: {error}") from None


def unfinished_game(record: MatRecord, analysis: MatchAnalysis) -> dict[str, Any] | None:
    """The JSON about a game the file ends in: its number and how many of its decisions
    were analysed (all up to the end of the file); ``None`` when every game has ended."""
    number = record.unfinished_game
    if number is None:
        return None
    decisions = sum(1 for decision in analysis.decisions if decision.game == number)
    return {"game": number, "decisions": decisions, "analysed_up_to_the_end_of_the_file": True}
