"""Replays of games: the moments worth showing, read from a match's record of actions.

:func:`replay_games` steps through the record with :func:`gammon.flow.apply` and cuts it into
games, each a sequence of :class:`ReplayFrame` values: the starting position, every play, every
roll that could not be played, every cube action, and how the game ended. Rolls are not frames
of their own (their dice are shown with the play), nor are tied opening rolls, resignation
offers or rejected resignations: they change nothing on the board.

>>> from gammon.actions import Double, Drop, Move, OpeningRoll
>>> from gammon.match_rules import MatchRules
>>> actions = [OpeningRoll((3, 1)), Move(0, "8/5 6/5"), Double(1), Drop(0),
...            OpeningRoll((4, 4)), OpeningRoll((2, 5))]
>>> first, second = replay_games(MatchRules(length=3), actions)
>>> [frame.kind.value for frame in first.frames]
['start', 'play', 'double', 'end']
>>> (first.result.winner, first.result.reason.value, first.frames[-1].state.score)
(1, 'drop', (0, 1))
>>> [frame.kind.value for frame in second.frames], second.frames[0].dice, second.result
(['start'], (2, 5), None)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Final

from gammon.actions import (
    Action,
    Beaver,
    CannotMove,
    Double,
    Move,
    OpeningRoll,
    Take,
)
from gammon.flow import GameResult, MatchState, Phase, apply, apply_move, new_match
from gammon.match_rules import MatchRules
from gammon.play import Play
from gammon.position import Position


class FrameKind(enum.StrEnum):
    """What a frame shows."""

    START = "start"
    """A game's starting position, once it is known who starts: in backgammon after the
    opening roll that decided it (``dice`` are that roll, player 0's die first); in long nardy's
    first game after the lot (``dice`` the lot's); in its later games, whose starter the rules
    name, the position before the first action of the game (``dice`` ``None``)."""
    PLAY = "play"
    """A checker play: ``play`` and the ``dice`` it used; ``state`` is after the play."""
    CANNOT_MOVE = "cannot_move"
    """A roll (``dice``) that could not be played; the turn passed."""
    DOUBLE = "double"
    """``player`` offered a double; ``state`` waits for the answer."""
    TAKE = "take"
    """``player`` took the double and owns the cube."""
    BEAVER = "beaver"
    """``player`` took and at once redoubled (money play)."""
    END = "end"
    """A game ended without a play to show: a drop (``player`` dropped), an accepted
    resignation (``player`` accepted it) or a forfeit (``player`` claimed the match)."""


@dataclass(frozen=True)
class ReplayFrame:
    """One moment of a game.

    ``state`` is the match after the frame's action, without its ``actions`` (so frames stay
    small). Only the frame that ends a game differs: :func:`gammon.flow.apply` has already set
    up the next game then, so its ``state`` is the game's closing moment instead: the final
    position, the cube of that game and the score after it, with nobody to act (``phase`` is
    :attr:`Phase.FINISHED` at the end of the match, else :attr:`Phase.OPENING`). It is a
    state to show, not one to continue playing from.

    A play has passed the turn, so ``state.dice`` is ``None``: the frame keeps ``dice``.
    ``player`` is who acted (``None`` for :attr:`FrameKind.START`); ``result`` is set on the
    frame that ends its game.
    """

    game: int
    kind: FrameKind
    state: MatchState
    player: int | None
    dice: tuple[int, int] | None
    play: Play | None
    result: GameResult | None


@dataclass(frozen=True)
class GameReplay:
    """One game's frames; ``result`` is ``None`` while the game is still being played."""

    number: int
    frames: tuple[ReplayFrame, ...]
    result: GameResult | None


def replay_games(rules: MatchRules, actions: Iterable[Action]) -> tuple[GameReplay, ...]:
    """The games of a match record, in order; the last one may still be in progress.

    A game appears once it has started (see :attr:`FrameKind.START`), so a record that ends
    with tied opening rolls, or between games, has no game in progress. Raises
    :class:`gammon.flow.ActionError` for an action the rules do not allow, as
    :func:`gammon.flow.replay` does.
    """
    cutter = _Cutter(new_match(rules))
    for action in actions:
        cutter.add(action)
    return cutter.games()


# Actions shown as a frame of their own kind (moves and unplayable rolls are read apart).
_CUBE_KINDS: Final[dict[type, FrameKind]] = {
    Double: FrameKind.DOUBLE,
    Take: FrameKind.TAKE,
    Beaver: FrameKind.BEAVER,
}


class _Cutter:
    """Steps through a record from ``state`` and collects its frames game by game.

    ``in_game`` starts in the middle of ``state``'s game, without a START frame: for tests
    that start from a made-up position."""

    def __init__(self, state: MatchState, in_game: bool = False) -> None:
        self.state = replace(state, actions=())
        self.done: list[GameReplay] = []
        self.frames: list[ReplayFrame] | None = [] if in_game else None  # the game being played
        self.number = state.game_number

    def games(self) -> tuple[GameReplay, ...]:
        if self.frames is None:
            return tuple(self.done)
        return (*self.done, GameReplay(self.number, tuple(self.frames), None))

    def add(self, action: Action) -> None:
        before = self.state
        play = None
        if isinstance(action, Move):
            after, play = apply_move(before, action)  # the play is read once, for both
        else:
            after = apply(before, action)
        # Each state's history is dropped at once: frames do not keep it, and appending to it
        # on every step would make a long record quadratic.
        after = replace(after, actions=())
        self.state = after
        if self.frames is None:
            if isinstance(action, OpeningRoll):
                if after.phase is not Phase.OPENING:  # not a tie: the game starts
                    self.open(after, action.dice)
                return
            self.open(before, None)  # a long nardy game whose starter the rules named
        self.record(before, after, action, play)

    def open(self, state: MatchState, dice: tuple[int, int] | None) -> None:
        self.number = state.game_number
        self.frames = [ReplayFrame(self.number, FrameKind.START, state, None, dice, None, None)]

    def record(
        self, before: MatchState, after: MatchState, action: Action, play: Play | None
    ) -> None:
        assert self.frames is not None
        frame = _frame(self.number, before, after, action, play)
        if len(after.games) == len(before.games):
            if frame is not None:
                self.frames.append(frame)
            return
        result = after.games[-1]
        closing = _closing_state(before, after, action, frame)
        if frame is None:
            player = getattr(action, "player", None)
            frame = ReplayFrame(self.number, FrameKind.END, closing, player, None, None, result)
        else:
            frame = replace(frame, state=closing, result=result)
        self.frames.append(frame)
        self.done.append(GameReplay(self.number, tuple(self.frames), result))
        self.frames = None


def _frame(
    number: int, before: MatchState, after: MatchState, action: Action, play: Play | None
) -> ReplayFrame | None:
    """The frame ``action`` makes, without a result; ``None`` for actions not shown. The
    endings (a drop, an accepted resignation, a forfeit) are among those: the game's end
    turns them into END frames (see :meth:`_Cutter.record`)."""
    if isinstance(action, Move):
        return ReplayFrame(number, FrameKind.PLAY, after, action.player, before.dice, play, None)
    if isinstance(action, CannotMove):
        kind = FrameKind.CANNOT_MOVE
        return ReplayFrame(number, kind, after, action.player, before.dice, None, None)
    kind_of_cube = _CUBE_KINDS.get(type(action))
    if kind_of_cube is not None:
        player = getattr(action, "player", None)
        return ReplayFrame(number, kind_of_cube, after, player, None, None, None)
    return None


def _closing_state(
    before: MatchState, after: MatchState, action: Action, frame: ReplayFrame | None
) -> MatchState:
    """The moment a game ended: its last position and cube, the match's new score and results.

    ``after`` is already the next game (or, for a forfeit, the finished match), so the
    game's own values come from ``before``."""
    position, on_roll = _final_position(before, action, frame)
    return replace(
        after,
        phase=Phase.FINISHED if after.phase is Phase.FINISHED else Phase.OPENING,
        position=position,
        player_on_roll=on_roll,
        dice=None,
        cube_value=before.cube_value,
        cube_owner=before.cube_owner,
        cube_turned=before.cube_turned,
        automatic_doubles=before.automatic_doubles,
        game_number=before.game_number,
        crawford_game=before.crawford_game,
        game_starter=before.game_starter,
        resignation=None,
        last_roll=False,
    )


def _final_position(
    before: MatchState, action: Action, frame: ReplayFrame | None
) -> tuple[Position, int]:
    """The board a game ended on and the player it is seen from (as in a state: the player
    who would be on roll next)."""
    if frame is not None and frame.play is not None and frame.player is not None:
        return frame.play.result, 1 - frame.player
    if isinstance(action, CannotMove):  # long nardy's last roll, unplayable: the turn passes
        return before.position.swapped(), 1 - action.player
    return before.position, before.player_on_roll
