"""What a chouette board's caption says was done last, action by action, worded by hand."""

from __future__ import annotations

from dataclasses import replace

from bot.core.chouette.narration import caption
from bot.core.text.i18n import speech
from gammon import Position
from gammon.actions import Move, OpeningRoll, Roll
from gammon.chouette import (
    Answer,
    BoardAction,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    ChouetteGame,
    MemberAnswers,
    MemberDoubles,
    advance,
    new_game,
    new_table,
)
from gammon.flow import Phase

NAMES = {"ann": "Ann", "bob": "Bob", "cy": "Cy"}
EN = speech("en")


def run(*actions: ChouetteAction, game: ChouetteGame | None = None) -> ChouetteGame:
    game = game or new_game(new_table(["ann", "bob", "cy"]))  # Ann the box, Bob the captain
    for action in actions:
        game, _recorded = advance(game, action)
    return game


OPENED = (BoardAction("ann", OpeningRoll((2, 5))),)  # Bob (captain) starts with 5-2
TEAM_PLAYED = (*OPENED, BoardAction("bob", Move(1, "13/11 13/8")))


def test_nothing_is_said_before_the_first_action() -> None:
    assert caption(EN, run(), NAMES) is None


def test_each_board_action_is_told_with_its_dice_and_the_player_s_role() -> None:
    assert caption(EN, run(*OPENED), NAMES) == "Bob (captain) starts with 5-2."
    assert (
        caption(EN, run(*TEAM_PLAYED), NAMES) == "Bob (captain) rolled 5-2 and played 13/11 13/8."
    )
    rolled = run(*TEAM_PLAYED, BoardAction("ann", Roll(0, (6, 6))))
    assert caption(EN, rolled, NAMES) == "Ann (box) rolled 6-6."
    played = run(
        *TEAM_PLAYED,
        BoardAction("ann", Roll(0, (6, 6))),
        BoardAction("ann", Move(0, "24/18(2) 13/7(2)")),
    )
    assert caption(EN, played, NAMES) == "Ann (box) rolled 6-6 and played 24/18(2) 13/7(2)."


def test_a_roll_that_cannot_be_played() -> None:
    """The team on the bar against the box's closed home board (the box's points 1 to 6 are
    the team's 24 to 19) rolls 6-4: the roll and that it cannot move, in one line."""
    game = run(*TEAM_PLAYED)
    board = replace(
        game.board,
        phase=Phase.ROLLING,
        player_on_roll=1,
        dice=None,
        position=Position.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}),
    )
    blocked = run(BoardAction("bob", Roll(1, (6, 4))), game=replace(game, board=board))
    assert caption(EN, blocked, NAMES) == "Bob rolled 6-4 and cannot move."


def test_cube_actions_are_told_with_the_cube_s_value() -> None:
    box_to_roll = (
        *TEAM_PLAYED,
        BoardAction("ann", Roll(0, (3, 1))),
        BoardAction("ann", Move(0, "8/5 6/5")),
    )
    box_to_roll += (BoardAction("bob", Roll(1, (4, 2))), BoardAction("bob", Move(1, "8/4 6/4")))
    doubled = run(*box_to_roll, BoxDoubles("ann", ("bob", "cy")))
    assert caption(EN, doubled, NAMES) == "Ann (box) doubles Bob, Cy to 2."
    taken = run(*box_to_roll, BoxDoubles("ann", ("bob", "cy")), MemberAnswers("bob", Answer.TAKE))
    assert caption(EN, taken, NAMES) == "Bob takes the box's double: their cube is at 2."
    dropped = run(
        *box_to_roll,
        BoxDoubles("ann", ("bob", "cy")),
        MemberAnswers("bob", Answer.TAKE),
        MemberAnswers("cy", Answer.DROP),
    )
    assert caption(EN, dropped, NAMES) == "Cy drops the box's double and pays 1."
    # Bob's cube is at 2 now, Cy's out; the box doubles Bob again next turn: to 4.
    redoubled = run(
        *box_to_roll,
        BoxDoubles("ann", ("bob", "cy")),
        MemberAnswers("bob", Answer.TAKE),
        MemberAnswers("cy", Answer.TAKE),
        BoardAction("ann", Roll(0, (5, 3))),
        BoardAction("ann", Move(0, "8/3 6/3")),
        MemberDoubles("cy"),
    )
    assert caption(EN, redoubled, NAMES) == "Cy doubles the box to 4."
    answered = run(BoxAnswers("ann", "cy", Answer.TAKE), game=redoubled)
    assert caption(EN, answered, NAMES) == "Ann (box) takes Cy's double: that cube is at 4."


def test_doubles_to_different_values_are_told_without_one() -> None:
    box_to_roll = (
        *TEAM_PLAYED,
        BoardAction("ann", Roll(0, (3, 1))),
        BoardAction("ann", Move(0, "8/5 6/5")),
    )
    box_to_roll += (BoardAction("bob", Roll(1, (4, 2))), BoardAction("bob", Move(1, "8/4 6/4")))
    first = run(*box_to_roll, BoxDoubles("ann", ("bob",)), MemberAnswers("bob", Answer.TAKE))
    next_turn = (
        BoardAction("ann", Roll(0, (5, 3))),
        BoardAction("ann", Move(0, "8/3 6/3")),
        BoardAction("bob", Roll(1, (2, 1))),
        BoardAction("bob", Move(1, "13/11 6/5")),
    )
    game = run(*next_turn, game=first)
    assert game.cube("bob").owner.value == "member"  # the box cannot double Bob now
    both = run(BoxDoubles("ann", ("cy",)), game=game)
    assert caption(EN, both, NAMES) == "Ann (box) doubles Cy to 2."


def test_a_caption_in_german() -> None:
    assert caption(speech("de"), run(*TEAM_PLAYED), NAMES) == (
        "Bob (Kapitän) hat 5-2 gewürfelt und 13/11 13/8 gezogen."
    )
    assert caption(speech("de"), run(*OPENED), NAMES) == "Bob (Kapitän) beginnt mit 5-2."
