"""Game and match flow: who may do what now, and the state that results.

:func:`apply` takes a :class:`MatchState` and one action and returns the next state, or raises
:class:`ActionError` saying why the action is not allowed now. States never change in place.
:func:`advance` is what a bot calls: it applies the action (recording a play in canonical
notation) and then the automatic consequences (a roll that cannot be played).

>>> state = new_match(MatchRules(length=5))
>>> state = apply(state, OpeningRoll((3, 1)))
>>> (state.phase, state.player_on_roll, state.dice)
(<Phase.MOVING: 'moving'>, 0, (3, 1))
>>> state = apply(state, Move(0, "8/5 6/5"))
>>> (state.phase, state.player_on_roll, state.position.pip_counts())
(<Phase.ROLLING: 'rolling'>, 1, (167, 163))
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

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
    RejectResignation,
    Resign,
    Roll,
    Take,
    TimeOut,
    WinKind,
)
from gammon.errors import PlayError
from gammon.match import GameState, Match, Resignation
from gammon.match_rules import MatchRules
from gammon.movegen import checked_dice, legal_plays
from gammon.notation import parse_play
from gammon.play import Play
from gammon.position import BAR, OFF, Position, Variant
from gammon.sure_win import match_won_for_sure

_START = Position.start()


class Phase(enum.Enum):
    """What the match waits for."""

    OPENING = "opening"  # the opening roll of a game
    ROLLING = "rolling"  # the player on roll doubles or rolls
    MOVING = "moving"  # the player on roll plays the dice
    DOUBLED = "doubled"  # the doubled player takes, drops or beavers
    RESIGNING = "resigning"  # the resigner's opponent accepts or rejects
    FINISHED = "finished"  # the match is over


class Refusal(enum.StrEnum):
    """Why an action is not allowed now: stable codes, for translations and callers."""

    NOT_YOUR_TURN = "not_your_turn"
    ROLL_FIRST = "roll_first"
    ALREADY_ROLLED = "already_rolled"  # so doubling is no longer possible this turn
    DICE_ROLLED = "dice_rolled"  # so rolling again is not
    OPENING_ROLL_FIRST = "opening_roll_first"
    DOUBLE_PENDING = "double_pending"
    RESIGNATION_PENDING = "resignation_pending"
    WRONG_PHASE = "wrong_phase"
    NOT_CUBE_OWNER = "not_cube_owner"
    CRAWFORD_GAME = "crawford_game"
    DEAD_CUBE = "dead_cube"
    CUBE_DISABLED = "cube_disabled"
    NO_DOUBLE_PENDING = "no_double_pending"
    NOT_DOUBLED_PLAYER = "not_doubled_player"
    BEAVER_DISABLED = "beaver_disabled"
    NO_RESIGNATION_PENDING = "no_resignation_pending"
    NOT_YOUR_RESIGNATION = "not_your_resignation"
    MATCH_OVER = "match_over"
    MUST_MOVE = "must_move"
    NOT_CLAIMABLE = "not_claimable"
    NOT_WAITING = "not_waiting"
    NOBODY_ON_TURN = "nobody_on_turn"
    ILLEGAL_PLAY = "illegal_play"
    INVALID_DICE = "invalid_dice"
    UNKNOWN_ACTION = "unknown_action"


class GameEnd(enum.StrEnum):
    """How a game ended."""

    BEAR_OFF = "bear_off"
    DROP = "drop"
    RESIGN = "resign"
    DRAW = "draw"
    FORFEIT = "forfeit"  # the opponent ran out of time and the match was claimed (or lost)
    TIME_OUT = "time_out"  # the winner's clock ran out with the match won for sure


class ActionError(ValueError):
    """An action that is not allowed now. ``reason`` is a :class:`Refusal` (a ``str``).

    Out of turn while a player rolls or moves, rolling, doubling and playing are refused with
    ``not_your_turn``; rolling again after rolling is ``dice_rolled``, doubling after rolling
    ``already_rolled``. A claim is ``not_waiting`` from the player who must act and
    ``nobody_on_turn`` while the opening roll decides who starts.
    """

    def __init__(self, reason: str, message: str, play_error: PlayError | None = None) -> None:
        super().__init__(message)
        self.reason = Refusal(reason)
        self.play_error = play_error


@dataclass(frozen=True)
class GameResult:
    """One finished game: ``reason`` is ``bear_off``, ``drop``, ``resign``, ``draw``,
    ``forfeit`` (the opponent ran out of time and the match was claimed, or their clock ran
    out) or ``time_out`` (the winner's clock ran out with the match won for sure).

    A draw (long nardy's last roll) has no ``winner`` and no ``kind``. In long nardy
    ``SINGLE`` is oin and ``GAMMON`` is mars.
    """

    number: int
    winner: int | None
    points: int
    kind: WinKind | None
    reason: GameEnd
    cube_value: int
    score_after: tuple[int, int]
    crawford: bool


@dataclass(frozen=True)
class ResignationOffer:
    player: int
    level: WinKind
    resume: Phase


@dataclass(frozen=True)
class MatchState:
    """Everything about a match at one moment, and the actions that led here.

    ``position`` is seen from ``player_on_roll`` (see :class:`gammon.Position`). During a
    double or a resignation offer the player who must answer is :attr:`turn`. Long nardy:
    ``white`` is the player who won the lot (White, first to play in the first game),
    ``game_starter`` who played first in this game, and ``last_roll`` is true while the
    other player takes the one extra roll after the starter bore off first.
    """

    rules: MatchRules
    phase: Phase = Phase.OPENING
    position: Position = _START
    player_on_roll: int = 0
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    cube_turned: bool = False
    automatic_doubles: int = 0
    score: tuple[int, int] = (0, 0)
    game_number: int = 1
    crawford_game: bool = False
    crawford_used: bool = False
    resignation: ResignationOffer | None = None
    games: tuple[GameResult, ...] = ()
    actions: tuple[Action, ...] = ()
    dice_events: int = 0
    game_starter: int = 0
    white: int | None = None
    last_roll: bool = False

    @property
    def turn(self) -> int | None:
        """The player who must act now (``None`` while the dice decide or after the match)."""
        if self.phase in (Phase.ROLLING, Phase.MOVING):
            return self.player_on_roll
        if self.phase is Phase.DOUBLED:
            return 1 - self.player_on_roll
        if self.phase is Phase.RESIGNING and self.resignation is not None:
            return 1 - self.resignation.player
        return None

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    @property
    def winner(self) -> int | None:
        """The match winner once the match is over."""
        if self.phase is not Phase.FINISHED or not self.games:
            return None
        return self.games[-1].winner

    def board_for(self, player: int) -> Position:
        """The position seen from ``player`` (their checkers as ``Position.player``)."""
        return self.position if player == self.player_on_roll else self.position.swapped()

    def legal_plays(self) -> tuple[Play, ...]:
        """The plays open to the player on roll; empty unless the dice are rolled."""
        if self.phase is not Phase.MOVING or self.dice is None:
            return ()
        return legal_plays(self.position, self.dice)

    def double_refusal(self, player: int) -> ActionError | None:
        """Why ``player`` may not double now, or ``None`` when they may."""
        return _double_refusal(self, player)

    def match_id(self) -> str:
        """The GNU Backgammon Match ID of this moment, as gnubg writes it: the higher die
        first, and the Jacoby flag set in a match (gnubg's rule applies to money play only)."""
        if self.phase is Phase.FINISHED:
            game_state = GameState.OVER
        elif self.phase is Phase.OPENING:
            game_state = GameState.NO_GAME
        else:
            game_state = GameState.PLAYING
        turn = self.turn
        return Match(
            length=self.rules.length,
            score=self.score,
            cube_value=min(self.cube_value, 1 << 15),
            cube_owner=self.cube_owner,
            player_on_roll=self.player_on_roll,
            turn=self.player_on_roll if turn is None else turn,
            crawford=self.crawford_game,
            game_state=game_state,
            double_offered=self.phase is Phase.DOUBLED,
            resignation=Resignation(self.resignation.level)
            if self.resignation
            else Resignation.NONE,
            dice=None if self.dice is None else (max(self.dice), min(self.dice)),
            jacoby=self.rules.jacoby and self.rules.is_money,
        ).id()


def new_match(rules: MatchRules) -> MatchState:
    """A match waiting for the opening roll of its first game (the lot, in long nardy)."""
    return MatchState(rules=rules, position=Position.start(rules.variant))


def replay(rules: MatchRules, actions: Iterable[Action]) -> MatchState:
    """Rebuild the state from a match record."""
    state = new_match(rules)
    for action in actions:
        state = apply(state, action)
    return state


def replay_states(rules: MatchRules, actions: Iterable[Action]) -> list[MatchState]:
    """The state after each action of a match record, in order; raises :class:`ActionError`
    where the record breaks the rules. Readers that go through one record in several ways
    (the .mat export and the dice check at a match's end) replay it once with this."""
    states = []
    state = new_match(rules)
    for action in actions:
        state = apply(state, action)
        states.append(state)
    return states


def advance(state: MatchState, action: Action) -> tuple[MatchState, list[Action]]:
    """Apply ``action`` and what follows by itself; return the state and the actions recorded.

    A play is recorded in canonical notation. When a roll leaves no legal play, a
    :class:`CannotMove` is recorded at once and the turn passes.
    """
    if isinstance(action, Move):
        _need_unfinished(state)
        play = _parse(state, action)
        action = Move(action.player, str(play), play)
        state = _recorded(state, _play(state, action.player, play), action)
    else:
        state = apply(state, action)
    recorded: list[Action] = [action]
    if state.phase is Phase.MOVING and not state.legal_plays():
        forced = CannotMove(state.player_on_roll)
        recorded.append(forced)
        state = apply(state, forced)
    return state, recorded


@dataclass(frozen=True)
class Step:
    """One action applied: the state before, what was recorded (the action in canonical form,
    then what followed by itself, e.g. a roll that cannot be played) and the state after."""

    before: MatchState
    recorded: tuple[Action, ...]
    after: MatchState


# The dice of dice event ``nonce`` of a match: ``roller(state.dice_events)``.
Roller = Callable[[int], tuple[int, int]]
# What plays by itself in a state (an opening roll, an automatic roll, a forced play), or None
# when a player must act.
FollowUp = Callable[[MatchState, Roller], Action | None]
MAX_FOLLOW_UPS = 500


def plan(
    state: MatchState, action: Action | None, follow: FollowUp | None, roller: Roller
) -> list[Step]:
    """Apply ``action`` (if any), then what ``follow`` plays by itself after it, one
    :class:`Step` each: everything one write should record. Raises :class:`ActionError` when
    ``action`` is not allowed now.

    >>> def opening(state, roll):
    ...     return OpeningRoll(roll(state.dice_events)) if state.phase is Phase.OPENING else None
    >>> steps = plan(new_match(MatchRules(length=1)), None, opening, lambda nonce: (4, 2))
    >>> [step.recorded for step in steps]
    [(OpeningRoll(dice=(4, 2)),)]
    """
    steps: list[Step] = []
    if action is not None:
        after, recorded = advance(state, action)
        steps.append(Step(state, tuple(recorded), after))
        state = after
    if follow is None:
        return steps
    for _count in range(MAX_FOLLOW_UPS):
        automatic = follow(state, roller) if state.phase is not Phase.FINISHED else None
        if automatic is None:
            break
        after, recorded = advance(state, automatic)
        steps.append(Step(state, tuple(recorded), after))
        state = after
    return steps


def apply(state: MatchState, action: Action) -> MatchState:
    """The state after ``action``; raises :class:`ActionError` if it is not allowed now."""
    _need_unfinished(state)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise ActionError("unknown_action", f"not an action: {action!r}")
    return _recorded(state, handler(state, action), action)


def apply_move(state: MatchState, action: Move) -> tuple[MatchState, Play]:
    """:func:`apply` for a move, with the play its text was read as (a replay shows it)."""
    _need_unfinished(state)
    play = _parse(state, action)
    return _recorded(state, _play(state, action.player, play), action), play


def _recorded(before: MatchState, after: MatchState, action: Action) -> MatchState:
    return replace(after, actions=(*before.actions, action))


def _need_unfinished(state: MatchState) -> None:
    if state.phase is Phase.FINISHED:
        raise ActionError("match_over", "the match is over")


# --- checks shared by the handlers ----------------------------------------------------------


def _need_phase(state: MatchState, *phases: Phase) -> None:
    if state.phase in phases:
        return
    messages = {
        Phase.OPENING: ("opening_roll_first", "the game starts with the opening roll"),
        Phase.ROLLING: ("roll_first", "roll first"),
        Phase.MOVING: ("dice_rolled", "the dice are already rolled: play them"),
        Phase.DOUBLED: ("double_pending", "a double waits for an answer"),
        Phase.RESIGNING: ("resignation_pending", "a resignation waits for an answer"),
    }
    reason, message = messages.get(state.phase, ("wrong_phase", "not possible now"))
    raise ActionError(reason, message)


def _need_turn(state: MatchState, player: int) -> None:
    if state.turn != player:
        raise ActionError("not_your_turn", "it is not your turn")


def _out_of_turn(state: MatchState, player: int) -> bool:
    """True while somebody else than ``player`` rolls or moves: then whose turn it is comes
    before the phase. A double or resignation waiting for an answer, and the opening roll, are
    explained by the phase instead."""
    return state.phase in (Phase.ROLLING, Phase.MOVING) and state.turn != player


def _need_own_turn(state: MatchState, player: int, *phases: Phase) -> None:
    """``player`` may roll or play only in their own turn and in one of ``phases``."""
    if _out_of_turn(state, player):
        _need_turn(state, player)
    _need_phase(state, *phases)


def _parse(state: MatchState, action: Move) -> Play:
    _need_own_turn(state, action.player, Phase.MOVING)
    assert state.dice is not None
    if action.value is not None and action.value in state.legal_plays():
        return action.value  # already read (a preview, a forced play): one of the legal plays
    try:
        return parse_play(action.play, state.position, state.dice)
    except PlayError as error:
        raise ActionError("illegal_play", str(error), play_error=error) from error


def _double_refusal(state: MatchState, player: int) -> ActionError | None:
    rules = state.rules
    if _out_of_turn(state, player):
        return ActionError("not_your_turn", "you can double only at the start of your own turn")
    if not rules.uses_cube:
        if rules.variant is Variant.LONG_NARDY:
            return ActionError("cube_disabled", "long nardy is played without a doubling cube")
        return ActionError("cube_disabled", "this match is played without the doubling cube")
    if state.phase is Phase.MOVING:
        return ActionError(
            "already_rolled", "you already rolled, so you can no longer double this turn"
        )
    if state.phase is not Phase.ROLLING:
        try:
            _need_phase(state, Phase.ROLLING)
        except ActionError as error:
            return error
    if state.crawford_game:
        return ActionError("crawford_game", "nobody may double in the Crawford game")
    if state.cube_owner is not None and state.cube_owner != player:
        return ActionError("not_cube_owner", "your opponent owns the cube")
    if not rules.is_money and state.cube_value >= rules.length - state.score[player]:
        return ActionError(
            "dead_cube",
            "the cube is dead for you: winning this game at its current value already wins you "
            "the match, so a double cannot matter",
        )
    return None


# --- handlers --------------------------------------------------------------------------------


def _opening_roll(state: MatchState, action: OpeningRoll) -> MatchState:
    _need_phase(state, Phase.OPENING)
    first, second = _checked(action.dice)
    events = state.dice_events + 1
    if first == second:
        if state.automatic_doubles < state.rules.automatic_doubles:
            return replace(
                state,
                dice_events=events,
                cube_value=state.cube_value * 2,
                automatic_doubles=state.automatic_doubles + 1,
            )
        return replace(state, dice_events=events)
    starter = 0 if first > second else 1
    if state.variant is Variant.LONG_NARDY:
        # The lot only decides who takes White and starts; the first play gets fresh dice.
        return replace(
            state,
            phase=Phase.ROLLING,
            player_on_roll=starter,
            game_starter=starter,
            white=starter,
            dice_events=events,
        )
    return replace(
        state,
        phase=Phase.MOVING,
        position=Position.start(),
        player_on_roll=starter,
        game_starter=starter,
        dice=(first, second),
        dice_events=events,
    )


def _roll(state: MatchState, action: Roll) -> MatchState:
    _need_own_turn(state, action.player, Phase.ROLLING)
    return replace(
        state, phase=Phase.MOVING, dice=_checked(action.dice), dice_events=state.dice_events + 1
    )


def _move(state: MatchState, action: Move) -> MatchState:
    return _play(state, action.player, _parse(state, action))


def _play(state: MatchState, player: int, play: Play) -> MatchState:
    if state.last_roll:
        return _after_last_roll(state, player, play.result)
    if play.result.opponent[OFF] == 15:
        loser = play.result.player
        if state.rules.last_roll and player == state.game_starter:
            return _pass_turn(replace(state, position=play.result, last_roll=True))
        return _end_game(state, player, _win_kind(state, loser), GameEnd.BEAR_OFF)
    return _pass_turn(replace(state, position=play.result))


def _cannot_move(state: MatchState, action: CannotMove) -> MatchState:
    _need_own_turn(state, action.player, Phase.MOVING)
    if state.legal_plays():
        raise ActionError("must_move", "a legal play exists, so the roll must be played")
    if state.last_roll:
        return _after_last_roll(state, action.player, state.position.swapped())
    return _pass_turn(replace(state, position=state.position.swapped()))


def _after_last_roll(state: MatchState, player: int, result: Position) -> MatchState:
    """The extra roll is played: a draw if it bore off the last checker, else the starter won."""
    after = replace(state, position=result, last_roll=False)
    if result.opponent[OFF] == 15:
        return _end_game(after, None, None, GameEnd.DRAW)
    loser = result.opponent
    return _end_game(after, 1 - player, _win_kind(state, loser), GameEnd.BEAR_OFF)


def _double(state: MatchState, action: Double) -> MatchState:
    refusal = _double_refusal(state, action.player)
    if refusal is not None:
        raise refusal
    return replace(state, phase=Phase.DOUBLED)


def _take(state: MatchState, action: Take) -> MatchState:
    _answer_double(state, action.player)
    return _cube_taken(state, action.player, factor=2)


def _beaver(state: MatchState, action: Beaver) -> MatchState:
    _answer_double(state, action.player)
    if not (state.rules.is_money and state.rules.beavers):
        raise ActionError("beaver_disabled", "beavers are not played in this session")
    return _cube_taken(state, action.player, factor=4)


def _cube_taken(state: MatchState, taker: int, factor: int) -> MatchState:
    """The taker owns the cube, now ``factor`` times its value; the doubler rolls."""
    return replace(
        state,
        phase=Phase.ROLLING,
        cube_value=state.cube_value * factor,
        cube_owner=taker,
        cube_turned=True,
    )


def _drop(state: MatchState, action: Drop) -> MatchState:
    _answer_double(state, action.player)
    return _end_game(state, state.player_on_roll, WinKind.SINGLE, GameEnd.DROP)


def _answer_double(state: MatchState, player: int) -> None:
    if state.phase is not Phase.DOUBLED:
        raise ActionError("no_double_pending", "there is no double to answer")
    if state.turn != player:
        raise ActionError("not_doubled_player", "only the doubled player answers a double")


def _resign(state: MatchState, action: Resign) -> MatchState:
    _need_phase(state, Phase.ROLLING, Phase.MOVING)
    level = WinKind(action.level)
    if state.variant is Variant.LONG_NARDY:
        # A resignation scores by the position at that moment, whatever was offered.
        level = _win_kind(state, state.board_for(action.player).player)
    offer = ResignationOffer(action.player, level, state.phase)
    return replace(state, phase=Phase.RESIGNING, resignation=offer)


def _answer_resignation(state: MatchState, player: int) -> ResignationOffer:
    if state.phase is not Phase.RESIGNING or state.resignation is None:
        raise ActionError("no_resignation_pending", "there is no resignation to answer")
    if player == state.resignation.player:
        raise ActionError("not_your_resignation", "your opponent answers your resignation")
    return state.resignation


def _accept_resignation(state: MatchState, action: AcceptResignation) -> MatchState:
    offer = _answer_resignation(state, action.player)
    resolved = replace(state, resignation=None)
    return _end_game(resolved, action.player, offer.level, GameEnd.RESIGN)


def _reject_resignation(state: MatchState, action: RejectResignation) -> MatchState:
    offer = _answer_resignation(state, action.player)
    return replace(state, phase=offer.resume, resignation=None)


def _claim_win(state: MatchState, action: ClaimWin) -> MatchState:
    """A forfeit: the claimant wins the match (in a match, the points still missing; in money
    play or single games, the game at its current value) and play ends.

    Only the player who waits may claim: the opponent must be the one to act now. While the
    opening roll decides who starts, nobody waits for anybody.
    """
    if state.turn is None:
        raise ActionError("nobody_on_turn", "nobody is on turn yet, so there is nothing to claim")
    if state.turn != 1 - action.player:
        raise ActionError("not_waiting", "only the player who is waiting can claim the match")
    return _forfeit(state, action.player)


def _time_out(state: MatchState, action: TimeOut) -> MatchState:
    """The clock of the player who must act ran out (WBGF § 4.3 iii): they lose the match as a
    forfeit, unless they would have won it for sure: the game is a race won whatever the dice
    (:mod:`gammon.sure_win`) and a single game at the cube (at twice the cube when the time ran
    out answering a double: taking was theirs to do) reaches the match length. Then the game
    ends at once as that win, which wins the match; the rest of the game could only have
    confirmed it.

    An offer to resign left unanswered is accepted instead, as under a move time limit: the
    game ends as offered and the match goes on (over the board the resigner's clock would be
    the one running, and nobody wins a match by offering to lose a game)."""
    player = action.player
    if state.turn is None:
        raise ActionError("nobody_on_turn", "nobody is on turn, so no clock runs")
    if state.turn != player:
        raise ActionError("not_your_turn", "only the clock of the player who must act runs")
    offer = state.resignation
    if offer is not None:  # as a late answer under a move time limit: accepted, play goes on
        return replace(_end_game(state, player, offer.level, GameEnd.RESIGN), resignation=None)
    doubled = state.phase is Phase.DOUBLED
    cube = state.cube_value * (2 if doubled else 1)
    board = state.board_for(player)
    first = state.player_on_roll == player
    if not match_won_for_sure(
        board.player, board.opponent, first, cube, state.score[player], state.rules.length
    ):
        return _forfeit(state, 1 - player)
    taken = replace(state, cube_value=cube, cube_owner=player) if doubled else state
    ended = _end_game(taken, player, WinKind.SINGLE, GameEnd.TIME_OUT)
    return replace(ended, resignation=None)


def _forfeit(state: MatchState, winner: int) -> MatchState:
    """``winner`` wins the match by the opponent's time (in money play or single games, the
    game at its current value) and play ends."""
    missing = state.rules.length - state.score[winner]
    points = missing if state.rules.length else state.cube_value
    score = list(state.score)
    score[winner] += points
    result = GameResult(
        number=state.game_number,
        winner=winner,
        points=points,
        kind=WinKind.SINGLE,
        reason=GameEnd.FORFEIT,
        cube_value=state.cube_value,
        score_after=(score[0], score[1]),
        crawford=state.crawford_game,
    )
    return replace(
        state,
        phase=Phase.FINISHED,
        score=(score[0], score[1]),
        games=(*state.games, result),
        dice=None,
        resignation=None,
    )


# --- turns, games and the match -----------------------------------------------------------


def _checked(dice: Sequence[int]) -> tuple[int, int]:
    try:
        checked_dice(dice)
    except ValueError as error:
        raise ActionError("invalid_dice", str(error)) from None
    return (dice[0], dice[1])


def _pass_turn(state: MatchState) -> MatchState:
    return replace(state, phase=Phase.ROLLING, player_on_roll=1 - state.player_on_roll, dice=None)


def _win_kind(state: MatchState, loser: tuple[int, ...]) -> WinKind:
    """How much a game won now is worth, from the loser's checkers.

    Backgammon: single if the loser bore off a checker; else gammon, or backgammon with a
    checker on the bar or in the winner's home board (the loser's points 19 to 24). Long nardy:
    oin (SINGLE) if the loser bore off a checker, else mars (GAMMON) unless mars is off.
    """
    if loser[OFF]:
        return WinKind.SINGLE
    if state.variant is Variant.LONG_NARDY:
        return WinKind.GAMMON if state.rules.mars else WinKind.SINGLE
    if loser[BAR] or any(loser[19:BAR]):
        return WinKind.BACKGAMMON
    return WinKind.GAMMON


def game_points(state: MatchState, kind: WinKind) -> int:
    """Points a game won by ``kind`` scores now: kind times cube, single under Jacoby."""
    if state.rules.jacoby and not state.cube_turned:
        kind = WinKind.SINGLE
    return int(kind) * state.cube_value


def _end_game(
    state: MatchState, winner: int | None, kind: WinKind | None, reason: GameEnd
) -> MatchState:
    """Score the game (``winner`` ``None`` for a draw) and set up the next one, if any."""
    points = 0 if kind is None else game_points(state, kind)
    score = list(state.score)
    if winner is not None:
        score[winner] += points
    new_score = (score[0], score[1])
    result = GameResult(
        number=state.game_number,
        winner=winner,
        points=points,
        kind=kind,
        reason=reason,
        cube_value=state.cube_value,
        score_after=new_score,
        crawford=state.crawford_game,
    )
    length = state.rules.length
    finished = replace(state, score=new_score, games=(*state.games, result), dice=None)
    if length and winner is not None and new_score[winner] >= length:
        return replace(finished, phase=Phase.FINISHED)
    crawford_next = (
        state.rules.uses_cube
        and bool(length)
        and not state.crawford_used
        and winner is not None
        and new_score[winner] == length - 1
    )
    next_game = replace(
        finished,
        position=Position.start(state.variant),
        cube_value=1,
        cube_owner=None,
        cube_turned=False,
        automatic_doubles=0,
        game_number=state.game_number + 1,
        crawford_game=crawford_next,
        crawford_used=state.crawford_used or crawford_next,
    )
    if state.variant is Variant.BACKGAMMON:
        return replace(next_game, phase=Phase.OPENING)
    starter = _next_starter(state, winner)
    return replace(next_game, phase=Phase.ROLLING, player_on_roll=starter, game_starter=starter)


def _next_starter(state: MatchState, winner: int | None) -> int:
    """Long nardy: the loser of the last game starts, or the first move alternates."""
    if state.rules.series_start == "loser" and winner is not None:
        return 1 - winner
    return 1 - state.game_starter


_HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
    OpeningRoll: _opening_roll,
    Roll: _roll,
    Move: _move,
    CannotMove: _cannot_move,
    Double: _double,
    Take: _take,
    Drop: _drop,
    Beaver: _beaver,
    Resign: _resign,
    AcceptResignation: _accept_resignation,
    RejectResignation: _reject_resignation,
    ClaimWin: _claim_win,
    TimeOut: _time_out,
}
