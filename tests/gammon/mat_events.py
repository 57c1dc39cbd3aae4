"""A match as the events a ``.mat`` file shows, game by game: from our log, and from gnubg's file.

An event is a roll with the board after its play (both sides' checkers, each in its own
numbering: index 0 borne off, 25 the bar), a double or beaver with the cube it turns, a take, a
drop, or the "Wins" of a game with the points gnubg states for it (the kind of win times the
cube). :func:`events_of_log` reads them from our actions through our own rules;
:func:`events_of_gnubg` reads gnubg's export on its own: cells by gnubg's columns, and its
plays (one die's step at a time, ``25`` the bar, ``0`` off) stepped on a board of its own,
so nothing of ours decides what gnubg's file says.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    CannotMove,
    ClaimWin,
    Double,
    Drop,
    Move,
    OpeningRoll,
    Roll,
    Take,
)
from gammon.flow import GameEnd, GameResult, MatchState, Phase, new_match, replay_states
from gammon.movegen import legal_plays
from gammon.notation import parse_play

Side = tuple[int, ...]
Board = tuple[Side, Side]
Event = tuple[object, ...]

_START: Side = (0, 0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def events_of_log(state: MatchState) -> list[list[Event]]:
    """Each game's events as our record of ``state`` has them."""
    log = _Log()
    after = replay_states(state.rules, state.actions)
    before = [new_match(state.rules), *after]
    for action, previous, current in zip(state.actions, before, after, strict=False):
        log.add(action, previous, current)
    if log.rolled is not None:
        log.games[-1].append(log.unplayed())
    return log.games


class _Log:
    def __init__(self) -> None:
        self.games: list[list[Event]] = []
        self.board: Board = (_START, _START)
        self.rolled: tuple[int, tuple[int, int]] | None = None  # dice not yet played

    def unplayed(self) -> Event:
        """Dice rolled and not played (a resignation followed): the board stays."""
        assert self.rolled is not None
        return ("roll", self.rolled[0], tuple(sorted(self.rolled[1])), self.board)

    def add(self, action: Action, previous: MatchState, current: MatchState) -> None:
        if previous.game_number > len(self.games):
            self.games.append([])
            self.board, self.rolled = (_START, _START), None
        events = self.games[-1]
        if isinstance(action, OpeningRoll) and current.phase is Phase.MOVING:
            assert current.dice is not None
            self.rolled = (current.player_on_roll, current.dice)
        elif isinstance(action, Roll):
            self.rolled = (action.player, action.dice)
        elif isinstance(action, Move | CannotMove) and self.rolled is not None:
            if isinstance(action, Move):
                assert previous.dice is not None
                play = parse_play(action.play, previous.position, previous.dice)
                self.board = _sides(action.player, play.result.opponent, play.result.player)
            events.append(("roll", self.rolled[0], tuple(sorted(self.rolled[1])), self.board))
            self.rolled = None
        elif isinstance(action, Double | Beaver):
            kind, factor = ("double", 2) if isinstance(action, Double) else ("beaver", 4)
            events.append((kind, action.player, previous.cube_value * factor))
        elif isinstance(action, Take | Drop):
            events.append(("take" if isinstance(action, Take) else "drop", action.player))
        elif isinstance(action, AcceptResignation | ClaimWin) and self.rolled is not None:
            assert previous.dice is not None
            if len(legal_plays(previous.position, previous.dice)) != 1:
                events.append(self.unplayed())  # a forced roll is left out of the file
        if len(current.games) > len(previous.games):
            events.append(_wins(current.games[-1]))
            self.rolled = None


def _wins(result: GameResult) -> Event:
    """The points gnubg writes: the kind of win times the cube after the last checker (the
    Jacoby rule left to the reader), the points scored after a drop or a resignation."""
    assert result.winner is not None
    assert result.kind is not None
    if result.reason is GameEnd.BEAR_OFF:
        return ("wins", result.winner, int(result.kind) * result.cube_value)
    return ("wins", result.winner, result.points)


def same_games(ours: list[list[Event]], theirs: list[list[Event]]) -> bool:
    """The same games, event for event."""
    return len(ours) == len(theirs) and all(
        game in (other, _as_gnubg_writes_it(other))
        for game, other in zip(ours, theirs, strict=True)
    )


def _as_gnubg_writes_it(game: list[Event]) -> list[Event]:
    """A slip of gnubg 1.07's writer: the right-hand player's opening dice, when a resignation
    follows them unplayed, are written in the left-hand column (and read so by any reader)."""
    if len(game) == 2 and game[0][:2] == ("roll", 0) and game[1][0] == "wins":
        return [("roll", 1, *game[0][2:]), game[1]]
    return game


def _sides(mover: int, mover_side: Side, other_side: Side) -> Board:
    return (mover_side, other_side) if mover == 0 else (other_side, mover_side)


_GAME = re.compile(r"^ Game \d+$")
_TOKEN = re.compile(
    r"(?P<roll>[1-6][1-6]):(?P<play>(?: \d+/\d+\*?)*)"
    r"|(?P<offer>Doubles|Beavers) => (?P<cube>\d+)"
    r"|(?P<take>Takes)|(?P<drop>Drops)|Wins (?P<points>\d+) points?"
)
_RIGHT = 33  # gnubg's "%3d) %-27s ": a cell from this column on is the right-hand player's


def events_of_gnubg(text: str) -> list[list[Event]]:
    """Each game's events as gnubg's own ``.mat`` export writes them."""
    games: list[list[Event]] = []
    board: Board = (_START, _START)
    lines = text.splitlines()
    for line in lines:
        if _GAME.match(line):
            games.append([])
            board = (_START, _START)
            continue
        if not games or " : " in line:
            continue
        for token in _TOKEN.finditer(line):
            side = 1 if token.start() >= _RIGHT else 0
            if token["roll"]:
                board = _stepped(board, side, token["play"].split())
                dice = tuple(sorted(int(die) for die in token["roll"]))
                games[-1].append(("roll", side, dice, board))
            elif token["offer"]:
                kind = "double" if token["offer"] == "Doubles" else "beaver"
                games[-1].append((kind, side, int(token["cube"])))
            elif token["take"]:
                games[-1].append(("take", side))
            elif token["drop"]:
                games[-1].append(("drop", side))
            else:
                games[-1].append(("wins", side, int(token["points"])))
    return games


def _stepped(board: Board, side: int, steps: Sequence[str]) -> Board:
    """The board after one side's steps ``from/to``; a lone opposing checker where a step
    lands goes to the bar."""
    mover, other = list(board[side]), list(board[1 - side])
    for step in steps:
        start, end = (int(point) for point in step.rstrip("*").split("/"))
        assert mover[start] > 0, f"no checker on {start} for {step}"
        mover[start] -= 1
        mover[end] += 1
        if end and other[25 - end] == 1:
            other[25 - end] = 0
            other[25] += 1
        assert not end or other[25 - end] == 0, f"{step} lands on a closed point"
    return _sides(side, tuple(mover), tuple(other))
