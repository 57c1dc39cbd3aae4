"""Reading ``.mat`` text (see :mod:`gammon.mat_format`): our own export, and what GNU
Backgammon, eXtreme Gammon and the servers write, into the actions that replay it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    Double,
    Drop,
    Move,
    OpeningRoll,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.flow import Phase, advance, new_match
from gammon.mat_layout import RIGHT_COLUMN
from gammon.match_rules import MatchRules
from gammon.position import Variant


class MatFormatError(ValueError):
    """The text is not a ``.mat`` file this reader understands."""


class MatLimitError(MatFormatError):
    """The text holds more games or decisions than the reader was allowed to take: found
    while reading the lines, before anything is replayed."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"more than {limit} {what}")
        self.what = what
        self.limit = limit


@dataclass(frozen=True)
class MatLimits:
    """How much a file may hold: ``games`` ("Game N" lines) and ``decisions`` (its entries:
    every roll with its play, and every cube action). ``None`` is no limit."""

    games: int | None = None
    decisions: int | None = None


@dataclass(frozen=True)
class MatRecord:
    """A match read from ``.mat`` text: its rules, the actions that replay it and the two
    players' names as the first game's score line gives them (player 0 is the left column).
    ``unfinished_game`` is the number of a game the text ends in before its result (a
    truncated file, or a running match), else ``None``."""

    rules: MatchRules
    actions: tuple[Action, ...]
    names: tuple[str, str]
    unfinished_game: int | None = None


def import_mat(text: str) -> tuple[MatchRules, list[Action]]:
    """Read ``.mat`` text into match rules and the actions that replay it."""
    record = read_mat(text)
    return record.rules, list(record.actions)


def read_mat(text: str, limits: MatLimits | None = None) -> MatRecord:
    """Read ``.mat`` text as we, GNU Backgammon, eXtreme Gammon and the servers write it.

    The layout is read the way gnubg's own importer reads it (a second ``dd:`` or a gap of two
    spaces starts the right-hand cell), and what the other writers add is understood too:
    ``25/20`` and ``6/0`` for the bar and off, one step at a time or merged, ``(2)`` for
    repeats, ``Cannot Move`` and ``???`` after the dice, ``Drops``/``Passes``, ``Beavers``,
    ``Wins ... and the match``. The score line of every game is checked against the replay,
    so a file that does not add up is refused rather than analysed wrongly. Raises
    :class:`MatFormatError`, and nothing else, for anything it cannot read;
    :class:`MatLimitError` as soon as the lines hold more than ``limits`` allow.
    """
    parsed = _Parser(limits or MatLimits()).parse(text)
    rules = _rules_from(parsed.length, parsed.tags, beavers_seen=parsed.beavers_seen)
    replay = _Replay(rules)
    actions = replay.run(parsed.games)
    return MatRecord(rules, tuple(actions), parsed.names(), replay.unfinished_game)


# --- reading the text --------------------------------------------------------------------------

_LENGTH = re.compile(r"^\s*(\d{1,6})\s+point\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d{1,6})\b", re.IGNORECASE)
_MOVE_LINE = re.compile(r"^(\s*\d{1,4}\))(.*)$")
_WINS = re.compile(r"^Wins\s+(\d{1,6})\s+points?(?:\s+and\s+the\s+match)?\.?$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(.*?)\s*:\s*(\d{1,6})\s+(.*?)\s*:\s*(\d{1,6})\s*$")
_RATING = re.compile(r",\s*\d+(?:\.\d+)?$")  # GamesGrid puts the rating after the name
_TAG = re.compile(r'^[;#]\s*\[([A-Za-z][\w ]*?)\s+"([^"]*)"\]\s*$')
_DRAW = re.compile(r"^\s*Draw\s*$", re.IGNORECASE)
_DICE = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_INNER_DICE = re.compile(r"(?<=\s)[1-6][1-6]:")
_RUN = re.compile(r"\S+(?: \S+)*")
_CELL_START = re.compile(
    r"^(?:[1-6][1-6]:|doubles?\b|beavers?\b|raccoons?\b|takes?\b|drops?\b|pass(?:es)?\b"
    r"|wins?\b|resigns?\b)",
    re.IGNORECASE,
)
_DOUBLES = re.compile(r"^Doubles?(?:\s*=>\s*\d{1,6})?$", re.IGNORECASE)
_BEAVERS = re.compile(r"^Beavers?(?:\s*=>\s*\d{1,6})?$", re.IGNORECASE)
_TAKES = re.compile(r"^Takes?$", re.IGNORECASE)
_DROPS = re.compile(r"^(?:Drops?|Pass(?:es)?)$", re.IGNORECASE)
_NO_PLAY = re.compile(r"^(?:\?{1,4}|Cannot\s+Move)$", re.IGNORECASE)  # XG: a dance, a resign
_RIGHT_CELL = 12  # a lone cell starting this far after "N)" is the right-hand one
_WINS_SPLIT = RIGHT_COLUMN // 2  # a "Wins" further right is player 1's
_LONGEST_LINE = 1000  # gnubg reads lines into 1024 bytes; longer ones are no .mat text


@dataclass(frozen=True)
class _Cell:
    player: int
    text: str
    line: int


@dataclass
class _Game:
    number: int
    line: int
    score: tuple[int, int] | None = None
    names: tuple[str, str] | None = None
    cells: list[_Cell] = field(default_factory=list)
    win: tuple[int, int] | None = None  # (winner, points) as the "Wins" line states it


@dataclass
class _Parsed:
    length: int
    tags: dict[str, str]
    games: list[_Game]
    beavers_seen: bool

    def names(self) -> tuple[str, str]:
        if self.games and self.games[0].names is not None:
            return self.games[0].names
        first = self.tags.get("player 1", "").strip() or "Player 1"
        second = self.tags.get("player 2", "").strip() or "Player 2"
        return (first, second)


class _Parser:
    """Lines into games of cells; nothing about the rules yet."""

    def __init__(self, limits: MatLimits) -> None:
        self.length: int | None = None
        self.tags: dict[str, str] = {}
        self.games: list[_Game] = []
        self.limits = limits
        self.decisions = 0

    def parse(self, text: str) -> _Parsed:
        for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
            self._line(raw.expandtabs().rstrip(), number)
        if self.length is None:
            raise MatFormatError("no ' N point match' line")
        beavers = any(_BEAVERS.match(cell.text) for game in self.games for cell in game.cells)
        return _Parsed(self.length, self.tags, self.games, beavers)

    def _line(self, line: str, number: int) -> None:
        if len(line) > _LONGEST_LINE:
            raise MatFormatError(f"line {number}: longer than {_LONGEST_LINE} characters")
        stripped = line.strip()
        if not stripped:
            return
        if stripped[0] in ";#":
            self._comment(stripped, number)
            return
        if self.length is None:
            found = _LENGTH.match(line)
            if not found:
                raise MatFormatError(
                    f"line {number}: expected ' N point match', found {_quoted(stripped)}"
                )
            self.length = int(found.group(1))
            return
        move_line = _MOVE_LINE.match(line)
        if move_line:
            cells = self._cells(move_line, number)
            self.decisions += len(cells)
            _within(self.decisions, self.limits.decisions, "decisions")
            self._game(number).cells.extend(cells)
            return
        game_line = _GAME.match(line)
        if game_line:
            self.games.append(_Game(int(game_line.group(1)), number))
            _within(len(self.games), self.limits.games, "games")
            return
        game = self._game(number)
        wins = _WINS.match(stripped)
        if wins:
            winner = 0 if len(line) - len(line.lstrip()) < _WINS_SPLIT else 1
            game.win = (winner, int(wins.group(1)))
        elif _DRAW.match(line):
            return  # the replay of the last roll decides it
        elif ":" in line and game.score is None and not game.cells:
            game.score, game.names = _score_line(line, number)
        else:
            raise MatFormatError(f"line {number}: cannot read {_quoted(stripped)}")

    def _comment(self, stripped: str, number: int) -> None:
        if stripped[1:].strip().lower().startswith("set pos"):
            raise MatFormatError(f"line {number}: positions set up by hand cannot be replayed")
        tag = _TAG.match(stripped)
        if tag and self.length is None:
            self.tags[tag.group(1).strip().lower()] = tag.group(2)

    def _game(self, number: int) -> _Game:
        if not self.games:
            raise MatFormatError(f"line {number}: moves before the first 'Game' line")
        return self.games[-1]

    def _cells(self, move_line: re.Match[str], number: int) -> list[_Cell]:
        """The one or two cells of a numbered line, and a "Wins" that may close it."""
        offset = len(move_line.group(1))
        pieces = _pieces(move_line.group(2))
        game = self.games[-1] if self.games else None
        if pieces and _WINS.match(pieces[-1][1]):
            start, text = pieces.pop()
            winner = 0 if offset + start < _WINS_SPLIT else 1
            if game is not None:
                game.win = (winner, int(text.split()[1]))
        if len(pieces) > 2 or any(_WINS.match(text) for _start, text in pieces):
            raise MatFormatError(f"line {number}: cannot read {_quoted(move_line.group(0))}")
        if len(pieces) == 2:
            return [_Cell(player, text, number) for player, (_start, text) in enumerate(pieces)]
        return [_Cell(1 if start >= _RIGHT_CELL else 0, text, number) for start, text in pieces]


def _within(count: int, limit: int | None, what: str) -> None:
    if limit is not None and count > limit:
        raise MatLimitError(what, limit)


def _pieces(content: str) -> list[tuple[int, str]]:
    """The texts of a numbered line with their columns: runs of words apart by two spaces or
    more, a run split again where dice begin (a long left play may leave one space only),
    and the parts of a play that a wide gap separates joined to its dice again."""
    pieces: list[tuple[int, str]] = []
    for run in _RUN.finditer(content):
        cuts = [0, *(found.start() for found in _INNER_DICE.finditer(run.group()))]
        for begin, end in zip(cuts, [*cuts[1:], len(run.group())], strict=True):
            text = run.group()[begin:end].strip()
            if pieces and _DICE.match(pieces[-1][1]) and not _CELL_START.match(text):
                pieces[-1] = (pieces[-1][0], f"{pieces[-1][1]} {text}")
            else:
                pieces.append((run.start() + begin, text))
    return pieces


def _score_line(line: str, number: int) -> tuple[tuple[int, int], tuple[str, str]]:
    found = _SCORE.match(line)
    if not found:
        raise MatFormatError(f"line {number}: cannot read the score line {_quoted(line.strip())}")
    first = _RATING.sub("", found.group(1)).strip() or "Player 1"
    second = _RATING.sub("", found.group(3)).strip() or "Player 2"
    return (int(found.group(2)), int(found.group(4))), (first, second)


def _rules_from(length: int, tags: dict[str, str], *, beavers_seen: bool) -> MatchRules:
    variation = tags.get("variation", "Backgammon").lower()
    try:
        if variation == "longnardy":
            return MatchRules(
                length=length,
                variant=Variant.LONG_NARDY,
                mars=tags.get("mars", "On").lower() == "on",
                last_roll=tags.get("lastroll", "Off").lower() == "on",
                series_start=tags.get("seriesstart", "Loser").lower(),
            )
        if variation != "backgammon":
            raise MatFormatError(f"unsupported variation {_quoted(tags['variation'])}")
        if length == 0:  # a money session, as gnubg writes one
            beavers = any(key.startswith("beaver") and _on(value) for key, value in tags.items())
            return MatchRules(
                length=0, jacoby=_on(tags.get("jacoby", "Off")), beavers=beavers or beavers_seen
            )
        if not _on(tags.get("crawford", "On")):
            raise MatFormatError("matches without the Crawford rule are not supported")
        return MatchRules(length=length)
    except ValueError as error:
        if isinstance(error, MatFormatError):
            raise
        raise MatFormatError(str(error)) from None


def _on(value: str) -> bool:
    return value.strip().lower() in ("on", "yes", "true", "1")


_QUOTED = 40  # characters of the offending text an error message repeats


def _quoted(text: str) -> str:
    """The text as an error message quotes it: short, one line, control characters escaped."""
    return repr(text if len(text) <= _QUOTED else text[:_QUOTED] + "…")


# --- replaying the games -----------------------------------------------------------------------


class _Replay:
    """The games' cells applied to a match, with the results the file states where play alone
    does not end a game (a resignation, or a drop some writers leave out)."""

    def __init__(self, rules: MatchRules) -> None:
        self.state = new_match(rules)
        self.actions: list[Action] = []
        self.unfinished_game: int | None = None

    def run(self, games: Sequence[_Game]) -> list[Action]:
        for index, game in enumerate(games):
            if self.state.phase is Phase.FINISHED:
                break  # like gnubg: games after the end of the match are left out
            self._check_score(game)
            games_before = len(self.state.games)
            self._play(game, games_before)
            if len(self.state.games) == games_before:
                following = games[index + 1] if index + 1 < len(games) else None
                self._finish(game, following)
            if len(self.state.games) == games_before:  # only the last game can stay open
                self.unfinished_game = self.state.game_number
        return self.actions

    def _check_score(self, game: _Game) -> None:
        score = self.state.score
        if game.score is not None and self.state.rules.length and game.score != score:
            raise MatFormatError(
                f"line {game.line}: game {game.number} starts at {game.score[0]}-"
                f"{game.score[1]}, but the games before it end at {score[0]}-{score[1]}"
            )

    def _play(self, game: _Game, games_before: int) -> None:
        lot = self.state.phase is Phase.OPENING
        for cell in game.cells:
            for action in _cell_actions(cell, lot=lot, variant=self.state.variant):
                if len(self.state.games) > games_before:
                    ended = f"{_quoted(cell.text)} after the game ended"
                    raise MatFormatError(f"line {cell.line}: {ended}")
                self._apply(action, cell)
            lot = lot and not _DICE.match(cell.text)

    def _apply(self, action: Action, cell: _Cell) -> None:
        after_beaver = bool(self.actions) and isinstance(self.actions[-1], Beaver)
        if after_beaver and isinstance(action, Take):
            return  # the doubler accepts the beaver: our rules need no answer to it
        if after_beaver and isinstance(action, Drop):
            raise MatFormatError(f"line {cell.line}: dropping a beaver is not supported")
        try:
            state, recorded = advance(self.state, action)
        except ValueError as error:
            raise MatFormatError(f"line {cell.line}: {_quoted(cell.text)}: {error}") from None
        # The state's own history is dropped at each step (``self.actions`` keeps the record):
        # appending to it on every step made a long session's replay quadratic.
        self.state = replace(state, actions=())
        self.actions.extend(recorded)

    def _finish(self, game: _Game, following: _Game | None) -> None:
        """End a game that play did not end, as the next score line (or else the "Wins"
        line) says; the last game of a running match stays open."""
        result = game.win
        if following is not None and following.score is not None:
            before = self.state.score
            gained = (following.score[0] - before[0], following.score[1] - before[1])
            if min(gained) == 0 and max(gained) > 0:
                result = (gained.index(max(gained)), max(gained))
        if result is None:
            if following is None:
                return
            raise MatFormatError(f"line {game.line}: game {game.number} has no result")
        winner, points = result
        cell = _Cell(winner, f"Wins {points}", game.line)
        state = self.state
        if state.phase is Phase.DOUBLED and winner == state.player_on_roll:
            self._apply(Drop(1 - winner), cell)  # a drop the file did not write down
            return
        level = WinKind(max(1, min(3, points // max(1, state.cube_value))))
        self._apply(Resign(1 - winner, level), cell)
        self._apply(AcceptResignation(winner), cell)


def _cell_actions(cell: _Cell, *, lot: bool, variant: Variant) -> list[Action]:
    """The actions of one cell. ``lot``: the game starts with an opening roll, which in
    backgammon is the first play's roll and in long nardy only decides who starts."""
    text = cell.text
    dice = _DICE.match(text)
    if dice:
        roll = (int(dice.group(1)), int(dice.group(2)))
        play = dice.group(3).strip()
        actions: list[Action] = []
        if lot and variant is Variant.BACKGAMMON:
            high, low = max(roll), min(roll)
            actions.append(OpeningRoll((high, low) if cell.player == 0 else (low, high)))
        else:
            if lot:
                actions.append(OpeningRoll((2, 1) if cell.player == 0 else (1, 2)))
            actions.append(Roll(cell.player, roll))
        if play.lower().startswith("illegal"):
            raise MatFormatError(f"line {cell.line}: illegal plays cannot be replayed")
        if play and not _NO_PLAY.match(play):
            actions.append(Move(cell.player, play))
        # Bare dice are a dance, or a roll before a resignation: the replay decides.
        return actions
    if _DOUBLES.match(text):
        return [Double(cell.player)]
    if _BEAVERS.match(text):
        return [Beaver(cell.player)]
    if _TAKES.match(text):
        return [Take(cell.player)]
    if _DROPS.match(text):
        return [Drop(cell.player)]
    if text.lower().startswith("resign"):
        return []  # the "Wins" line that follows says how it ended
    if text.lower().startswith("raccoon"):
        raise MatFormatError(f"line {cell.line}: raccoons are not supported")
    raise MatFormatError(f"line {cell.line}: cannot read {_quoted(text)}")
