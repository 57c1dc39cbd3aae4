"""Chouette actions applied to a game: who may double, answer, roll and play, and when.

:func:`apply` takes a :class:`~gammon.chouette.state.ChouetteGame` and one action and returns
the next game, or raises :class:`~gammon.chouette.errors.ChouetteError` saying why not.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Final

from gammon import flow
from gammon.actions import Action, CannotMove, Move, OpeningRoll, Roll
from gammon.chouette.actions import (
    Answer,
    BoardAction,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    MemberAnswers,
    MemberDoubles,
)
from gammon.chouette.errors import ChouetteError, board_refusal
from gammon.chouette.state import (
    BoardResult,
    ChouetteGame,
    ChouetteRules,
    CubeOwner,
    MemberCube,
    new_game,
)
from gammon.chouette.table import ChouetteTable, Side
from gammon.flow import ActionError, Phase


def apply(game: ChouetteGame, action: ChouetteAction) -> ChouetteGame:
    """The game after ``action``; raises :class:`ChouetteError` if it is not allowed now."""
    return _step(game, action, canonical=False)[0]


def advance(
    game: ChouetteGame, action: ChouetteAction
) -> tuple[ChouetteGame, list[ChouetteAction]]:
    """Like :func:`apply`, but a play is recorded in canonical notation and a roll that cannot
    be played records its :class:`~gammon.actions.CannotMove` at once (as
    :func:`gammon.flow.advance` does); returns the game and the actions recorded."""
    return _step(game, action, canonical=True)


def replay(
    table: ChouetteTable, rules: ChouetteRules, actions: Iterable[ChouetteAction]
) -> ChouetteGame:
    """Rebuild a game from its record."""
    game = new_game(table, rules)
    for action in actions:
        game = apply(game, action)
    return game


def refusal(game: ChouetteGame, action: ChouetteAction) -> ChouetteError | None:
    """Why ``action`` is not allowed now, or ``None`` when it is."""
    try:
        apply(game, action)
    except ChouetteError as error:
        return error
    return None


# --- the handlers ----------------------------------------------------------------------------


def _step(
    game: ChouetteGame, action: ChouetteAction, canonical: bool
) -> tuple[ChouetteGame, list[ChouetteAction]]:
    if game.finished:
        raise ChouetteError("game_over", "this chouette game is over")
    if isinstance(action, BoardAction):
        after, recorded = _board(game, action, canonical)
    else:
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise ChouetteError("unsupported_action", f"not a chouette action: {action!r}")
        after, recorded = handler(game, action), [action]
    return replace(after, actions=(*game.actions, *recorded)), recorded


def _box_doubles(game: ChouetteGame, action: BoxDoubles) -> ChouetteGame:
    _need_box(game, action.player)
    _need_own_turn_before_rolling(game, Side.BOX)
    if game.box_doubled_at == game.board.dice_events:
        raise ChouetteError("already_doubled", "the box has already doubled this turn")
    members = action.members
    if not members or len(set(members)) != len(members):
        raise ChouetteError("invalid_members", "name each member to double once")
    for member in members:
        cube = game.cube(member)
        _need_live(cube)
        if cube.owner is CubeOwner.MEMBER:
            raise ChouetteError("not_cube_owner", f"{member} owns their cube")
    cubes = tuple(
        replace(cube, offered_by=Side.BOX) if cube.member in members else cube
        for cube in game.cubes
    )
    return replace(game, cubes=cubes, box_doubled_at=game.board.dice_events)


def _member_doubles(game: ChouetteGame, action: MemberDoubles) -> ChouetteGame:
    cube = _member_cube(game, action.player)
    _need_own_turn_before_rolling(game, Side.TEAM)
    if cube.offered_by is not None:
        raise ChouetteError("double_pending", "your double waits for the box's answer")
    if cube.owner is CubeOwner.BOX:
        raise ChouetteError("not_cube_owner", "the box owns your cube")
    return _with_cube(game, replace(cube, offered_by=Side.TEAM))


def _member_answers(game: ChouetteGame, action: MemberAnswers) -> ChouetteGame:
    cube = _member_cube(game, action.player)
    if cube.offered_by is not Side.BOX:
        raise ChouetteError("no_double_pending", "the box has not doubled you")
    return _with_cube(game, _answered(game, cube, action.answer, Side.TEAM))


def _box_answers(game: ChouetteGame, action: BoxAnswers) -> ChouetteGame:
    _need_box(game, action.player)
    cube = game.cube(action.member)
    _need_live(cube)
    if cube.offered_by is not Side.TEAM:
        raise ChouetteError("no_double_pending", f"{action.member} has not doubled you")
    return _with_cube(game, _answered(game, cube, action.answer, Side.BOX))


def _answered(game: ChouetteGame, cube: MemberCube, answer: Answer, by: Side) -> MemberCube:
    """``by`` answers the double waiting on ``cube``."""
    if answer is Answer.DROP:
        return replace(cube, offered_by=None, dropped_by=by)
    if answer is Answer.BEAVER and not game.rules.beavers:
        raise ChouetteError("beaver_disabled", "beavers are not played at this chouette")
    factor = 4 if answer is Answer.BEAVER else 2
    owner = CubeOwner.BOX if by is Side.BOX else CubeOwner.MEMBER
    return replace(cube, value=cube.value * factor, owner=owner, turned=True, offered_by=None)


_BOARD_ACTIONS: Final = (OpeningRoll, Roll, Move, CannotMove)


def _board(
    game: ChouetteGame, action: BoardAction, canonical: bool
) -> tuple[ChouetteGame, list[ChouetteAction]]:
    inner = action.action
    if not isinstance(inner, _BOARD_ACTIONS):
        raise ChouetteError(
            "unsupported_action",
            "on the board a chouette only rolls and plays; the cubes are the chouette's",
        )
    side = _board_side(game, action.player)
    if not isinstance(inner, OpeningRoll) and inner.player != side.board_player:
        raise ChouetteError("out_of_role", f"the {side} is board player {side.board_player}")
    board = game.board
    if isinstance(inner, Roll) and game.pending and board.turn == side.board_player:
        raise ChouetteError("double_pending", "every double must be answered before the roll")
    try:
        if canonical:
            after, made = flow.advance(board, inner)
        else:
            after, made = flow.apply(board, inner), [inner]
    except ActionError as error:
        raise board_refusal(error) from None
    result = game.result
    if len(after.games) > len(board.games):
        last = after.games[-1]
        assert last.kind is not None
        result = BoardResult(Side.BOX if last.winner == 0 else Side.TEAM, last.kind)
    recorded: list[ChouetteAction] = [
        BoardAction(_actor(game, made_action, action.player), made_action) for made_action in made
    ]
    return replace(game, board=after, result=result), recorded


def _actor(game: ChouetteGame, made: Action, default: str) -> str:
    if isinstance(made, OpeningRoll):
        return default
    if made.player == 0:
        return game.table.box
    return game.acting_captain or default


def _board_side(game: ChouetteGame, player: str) -> Side:
    if player == game.table.box:
        return Side.BOX
    if player == game.acting_captain:
        return Side.TEAM
    _need_live(game.cube(player))  # a stranger is not in the team
    raise ChouetteError("out_of_role", "only the captain plays the team's checkers")


def _need_box(game: ChouetteGame, player: str) -> None:
    if player != game.table.box:
        raise ChouetteError("out_of_role", "only the box does that")


def _member_cube(game: ChouetteGame, player: str) -> MemberCube:
    if player == game.table.box:
        raise ChouetteError("out_of_role", "the box has no cube of its own: it holds the team's")
    cube = game.cube(player)
    _need_live(cube)
    return cube


def _need_live(cube: MemberCube) -> None:
    if not cube.live:
        raise ChouetteError("already_dropped", f"{cube.member}'s cube is out of this game")


def _need_own_turn_before_rolling(game: ChouetteGame, side: Side) -> None:
    """Doubling: at the start of the side's own turn, before its roll."""
    board = game.board
    if board.phase is Phase.OPENING:
        raise ChouetteError("opening_roll_first", "the game starts with the opening roll")
    if board.player_on_roll != side.board_player:
        raise ChouetteError("not_your_turn", "you can double only at the start of your turn")
    if board.phase is not Phase.ROLLING:
        raise ChouetteError("already_rolled", "the dice are rolled: doubling waits a turn")


def _with_cube(game: ChouetteGame, changed: MemberCube) -> ChouetteGame:
    cubes = tuple(changed if cube.member == changed.member else cube for cube in game.cubes)
    return replace(game, cubes=cubes)


_HANDLERS: dict[type, Callable[[ChouetteGame, Any], ChouetteGame]] = {
    BoxDoubles: _box_doubles,
    MemberDoubles: _member_doubles,
    MemberAnswers: _member_answers,
    BoxAnswers: _box_answers,
}
