"""gnubg's IDs of a chouette game: the board's Position ID, and a Match ID for the box's money
game against whoever moves the team's checkers (that member's cube, the player on roll, a
double waiting on that cube, the dice); and which side the game waits for."""

from __future__ import annotations

from gammon.actions import Move, OpeningRoll, Roll
from gammon.chouette import (
    Answer,
    BoardAction,
    BoxDoubles,
    ChouetteAction,
    ChouetteGame,
    MemberAnswers,
    MemberDoubles,
    Side,
    apply,
    match_id,
    new_game,
    new_table,
    position_id,
)
from gammon.match import GameState, Match

START = "4HPwATDgc/ABMA"  # gnubg's Position ID of the starting position


def run(*actions: ChouetteAction) -> ChouetteGame:
    game = new_game(new_table(["ann", "bob", "cy"]))  # ann the box, bob the captain, then cy
    for action in actions:
        game = apply(game, action)
    return game


OPENED = (BoardAction("ann", OpeningRoll((6, 4))),)  # the box starts with 6-4
# The box plays, the captain rolls 3-1 and plays: the box is at the start of its turn.
BOX_TO_ROLL = (
    *OPENED,
    BoardAction("ann", Move(0, "8/2 6/2")),
    BoardAction("bob", Roll(1, (3, 1))),
    BoardAction("bob", Move(1, "8/5 6/5")),
)


def test_after_the_opening_roll_the_ids_are_gnubg_s() -> None:
    game = run(*OPENED)
    assert position_id(game) == START
    # By hand, gnubg's bit layout (bit 0 the lowest of byte 0): cube log 0 (bits 0-3), cube
    # centred = 3 (bits 4-5), player on roll 0, Crawford 0, game state 1 = playing (bits
    # 8-10), turn 0, no double, no resignation, die 1 = 6 (bits 15-17), die 2 = 4 (bits
    # 18-20), length 0, scores 0: bytes 30 01 13 00 00 00 00 00 00, in base64 "MAET" + "A"s.
    assert match_id(game) == "MAETAAAAAAAA"


def test_before_the_opening_roll_no_game_is_being_played() -> None:
    match = Match.from_id(match_id(run()))
    assert match.game_state is GameState.NO_GAME
    assert run().side_to_act is None


def test_a_double_of_the_box_on_the_captain_s_cube_is_offered_to_the_team() -> None:
    game = run(*BOX_TO_ROLL)
    assert game.side_to_act is Side.BOX
    before = Match.from_id(match_id(game))
    assert (before.player_on_roll, before.turn, before.dice, before.double_offered) == (
        0,
        0,
        None,
        False,
    )
    doubled = apply(game, BoxDoubles("ann", ("bob", "cy")))
    assert doubled.side_to_act is Side.TEAM  # the team must answer before anyone rolls
    match = Match.from_id(match_id(doubled))
    assert (match.player_on_roll, match.turn, match.double_offered) == (0, 1, True)
    assert (match.cube_value, match.cube_owner, match.length) == (1, None, 0)


def test_the_captain_s_cube_after_a_take_and_the_acting_captain_s_after_a_drop() -> None:
    doubled = (*BOX_TO_ROLL, BoxDoubles("ann", ("bob", "cy")))
    taken = run(*doubled, MemberAnswers("bob", Answer.TAKE), MemberAnswers("cy", Answer.DROP))
    match = Match.from_id(match_id(taken))
    assert (match.cube_value, match.cube_owner, match.double_offered, match.turn) == (
        2,
        1,
        False,
        0,
    )
    # The captain drops, cy takes: cy moves the team's checkers, and cy's cube is the one.
    dropped = run(*doubled, MemberAnswers("bob", Answer.DROP), MemberAnswers("cy", Answer.TAKE))
    assert dropped.acting_captain == "cy"
    match = Match.from_id(match_id(dropped))
    assert (match.cube_value, match.cube_owner, match.game_state) == (2, 1, GameState.PLAYING)
    # Both drop: the game is over by drops.
    over = run(*doubled, MemberAnswers("bob", Answer.DROP), MemberAnswers("cy", Answer.DROP))
    assert over.finished
    assert over.side_to_act is None
    assert Match.from_id(match_id(over)).game_state is GameState.DROPPED


def test_a_member_s_double_waits_for_the_box() -> None:
    # The team at the start of its turn: after the box's opening play.
    team_to_roll = (*OPENED, BoardAction("ann", Move(0, "8/2 6/2")))
    assert run(*team_to_roll).side_to_act is Side.TEAM
    by_cy = run(*team_to_roll, MemberDoubles("cy"))
    assert by_cy.side_to_act is Side.BOX
    match = Match.from_id(match_id(by_cy))  # not the captain's cube: no double in this game
    assert (match.player_on_roll, match.turn, match.double_offered) == (1, 1, False)
    by_bob = run(*team_to_roll, MemberDoubles("bob"))
    match = Match.from_id(match_id(by_bob))
    assert (match.player_on_roll, match.turn, match.double_offered) == (1, 0, True)
