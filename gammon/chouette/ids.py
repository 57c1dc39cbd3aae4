"""GNU Backgammon's IDs of a chouette game, so its position can be pasted into gnubg.

The board is an ordinary money game between the box (board player 0) and whoever moves the
team's checkers (board player 1): the Position ID is the board's own. The Match ID describes
the box's game against that player: money play (length 0, no score), the cube of the member
who moves the team's checkers (the captain's while the captain is in the game, then the
acting captain's), with its owner (the box is player 0, the member player 1) and a double
waiting on it, the player on roll and the dice. The other members' cubes have no place in a
gnubg Match ID; the chouette's own messages show them.

>>> from gammon.actions import OpeningRoll
>>> from gammon.chouette import BoardAction, apply, new_game, new_table
>>> game = apply(new_game(new_table(["ann", "bob", "cy"])), BoardAction("ann", OpeningRoll((6, 4))))
>>> position_id(game), match_id(game)
('4HPwATDgc/ABMA', 'MAETAAAAAAAA')
"""

from __future__ import annotations

from gammon.chouette.state import ChouetteGame, CubeOwner, MemberCube
from gammon.chouette.table import Side
from gammon.flow import Phase
from gammon.match import GameState, Match

_OWNERS = {CubeOwner.CENTRE: None, CubeOwner.BOX: 0, CubeOwner.MEMBER: 1}


def position_id(game: ChouetteGame) -> str:
    """The board's GNU Backgammon Position ID."""
    return game.board.position.id()


def match_id(game: ChouetteGame) -> str:
    """The GNU Backgammon Match ID of the box's money game against the member who moves the
    team's checkers (see the module's docstring)."""
    board = game.board
    cube = _team_cube(game)
    offered = cube.offered_by is not None and cube.live
    turn = board.turn if board.turn is not None else board.player_on_roll
    if offered:
        turn = Side.TEAM.board_player if cube.offered_by is Side.BOX else Side.BOX.board_player
    return Match(
        length=0,
        cube_value=min(cube.value, 1 << 15),
        cube_owner=_OWNERS[cube.owner],
        player_on_roll=board.player_on_roll,
        turn=turn,
        game_state=_game_state(game, cube),
        double_offered=offered,
        dice=board.dice if board.phase is Phase.MOVING else None,
    ).id()


def _team_cube(game: ChouetteGame) -> MemberCube:
    """The cube of the member moving the team's checkers; the captain's once nobody is left."""
    acting = game.acting_captain
    return game.cube(acting) if acting is not None else game.cubes[0]


def _game_state(game: ChouetteGame, cube: MemberCube) -> GameState:
    if game.result is not None:
        return GameState.OVER
    if not cube.live:
        return GameState.DROPPED
    if game.board.phase is Phase.OPENING:
        return GameState.NO_GAME
    return GameState.PLAYING
