"""The first line of a board: what was just played, told from the steps an answer recorded or,
for a board after a roll alone (or /board), from the end of the match's log. The expected
sentences are written out by hand from the rules."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.match.narration import log_sentences, step_sentences, told_from
from bot.core.text.i18n import speech
from gammon import Position, Variant
from gammon.actions import (
    AcceptResignation,
    Action,
    CannotMove,
    Double,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.flow import MatchState, Phase, Step, new_match, plan, replay
from gammon.match_rules import MatchRules

NAMES = ["Anna", "Bob"]
PEOPLE = (False, False)
_ = speech("en")
THREE = MatchRules(length=3)


def _step(state: MatchState, action: Action) -> Step:
    [step] = plan(state, action, None, lambda nonce: (1, 1))
    return step


def _after(rules: MatchRules, actions: Sequence[Action]) -> MatchState:
    return replay(rules, actions)


def test_a_play_is_told_with_its_roll() -> None:
    opened = _after(THREE, [OpeningRoll((5, 3))])  # Anna's 5 beats Bob's 3: she plays 5-3
    step = _step(opened, Move(0, "8/3 6/3"))
    told = step_sentences(_, step, NAMES, automatic=False, bots=PEOPLE, last=True)
    assert told == ["Anna rolled 5-3 and played 8/3 6/3."]


def test_a_play_made_for_a_person_says_it_was_the_only_one_but_the_bots_does_not() -> None:
    opened = _after(THREE, [OpeningRoll((5, 3))])
    step = _step(opened, Move(0, "8/3 6/3"))
    forced = step_sentences(_, step, NAMES, automatic=True, bots=PEOPLE, last=True)
    assert forced == ["Anna rolled 5-3 and played 8/3 6/3 (the only legal play)."]
    bots = step_sentences(_, step, NAMES, automatic=True, bots=(True, False), last=True)
    assert bots == ["Anna rolled 5-3 and played 8/3 6/3."]


def test_an_opening_tie_and_the_crawford_game_are_told() -> None:
    tie = _step(new_match(THREE), OpeningRoll((4, 4)))
    told = step_sentences(_, tie, NAMES, automatic=True, bots=PEOPLE, last=True)
    assert told == ["Opening roll: Anna 4, Bob 4. A tie: rolling again."]
    crawford = MatchState(rules=THREE, position=Position.start(), score=(2, 0), crawford_game=True)
    opening = _step(crawford, OpeningRoll((2, 6)))
    assert step_sentences(_, opening, NAMES, automatic=True, bots=PEOPLE, last=True) == [
        "Opening roll: Anna 2, Bob 6. Bob starts with 6-2.",
        "This is the Crawford game: nobody may double.",
    ]


def test_a_roll_that_cannot_be_played_is_told_with_its_dice() -> None:
    # Anna (on roll) has a checker on the bar; Bob holds his whole home board, which is where
    # she enters: points 19 to 24 in her numbering, 6 to 1 in his.
    closed = Position.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    state = MatchState(rules=THREE, phase=Phase.ROLLING, position=closed)
    step = _step(state, Roll(0, (6, 4)))
    assert step.recorded == (Roll(0, (6, 4)), CannotMove(0))
    told = step_sentences(_, step, NAMES, automatic=False, bots=PEOPLE, last=True)
    assert told == ["Anna rolled 6-4 and cannot move."]


def test_the_cube_is_told_with_its_value() -> None:
    rolling = _after(THREE, [OpeningRoll((5, 3)), Move(0, "8/3 6/3")])  # Bob is on roll
    doubled = _step(rolling, Double(1))
    told = step_sentences(_, doubled, NAMES, automatic=False, bots=PEOPLE, last=True)
    assert told == ["Bob doubles to 2."]
    taken = _step(doubled.after, Take(0))
    told = step_sentences(_, taken, NAMES, automatic=False, bots=PEOPLE, last=True)
    assert told == ["Anna takes. The cube is at 2."]


def test_an_offer_to_resign_is_left_to_the_headline_while_it_waits() -> None:
    rolling = _after(THREE, [OpeningRoll((5, 3)), Move(0, "8/3 6/3")])
    offered = _step(rolling, Resign(1, WinKind.SINGLE))
    assert step_sentences(_, offered, NAMES, automatic=False, bots=PEOPLE, last=True) == []
    told = step_sentences(_, offered, NAMES, automatic=False, bots=PEOPLE, last=False)
    assert told == ["Bob offers to resign a single game."]
    rejected = _step(offered.after, RejectResignation(0))
    told = step_sentences(_, rejected, NAMES, automatic=False, bots=PEOPLE, last=True)
    assert told == ["Anna rejects the resignation. Play on!"]


def test_an_accepted_resignation_is_told_by_the_games_result() -> None:
    rolling = _after(THREE, [OpeningRoll((5, 3)), Move(0, "8/3 6/3")])
    offered = _step(rolling, Resign(1, WinKind.GAMMON))
    accepted = _step(offered.after, AcceptResignation(0))
    told = step_sentences(_, accepted, NAMES, automatic=False, bots=PEOPLE, last=True)
    assert told == ["Game 1: Anna wins 2 points (resignation, cube 1)."]


# --- from the log: what the board a player's own write replaces said --------------------


def _told(rules: MatchRules, logged: Sequence[tuple[Action, int | None]]) -> list[str] | None:
    """What a board after ``logged`` (each action with the seat whose write it began) says,
    told from the log alone; None when the log holds no write the player to act did not make."""
    actions = [action for action, _maker in logged]
    state = replay(rules, actions)
    actor = state.turn if state.turn is not None else state.player_on_roll
    start = told_from([maker for _action, maker in logged], actor)
    if start is None:
        return None
    before = actions[start - 1] if start else None
    dice = before.dice if isinstance(before, Roll | OpeningRoll) else None
    automatic = [maker is None for _action, maker in logged[start:]]
    return log_sentences(_, state, actions[start:], automatic, dice, NAMES, PEOPLE)


def test_after_a_roll_the_opponents_last_play_is_told_again() -> None:
    told = _told(
        THREE, [(OpeningRoll((5, 3)), None), (Move(0, "8/3 6/3"), 0), (Roll(1, (6, 4)), 1)]
    )
    # Bob's own roll is on the board (its dice); the opening roll was the board before.
    assert told == ["Anna rolled 5-3 and played 8/3 6/3."]


def test_a_stretch_of_the_players_own_writes_is_told_whole() -> None:
    # Bob played; Anna's roll followed by itself, she played and hit, Bob could not enter
    # and her next roll followed: her board took the place of the one that called her after
    # Bob's play, so it says that too.
    logged: list[tuple[Action, int | None]] = [
        (OpeningRoll((5, 3)), None),
        (Move(0, "8/3 6/3"), 0),
        (Roll(1, (6, 4)), 1),
        (Move(1, "24/14"), 1),
        (Roll(0, (2, 1)), None),
        (Move(0, "13/11* 6/5"), 0),
        (Roll(1, (6, 6)), None),
        (CannotMove(1), None),
        (Roll(0, (4, 3)), None),
    ]
    assert _told(THREE, logged) == [
        "Bob rolled 6-4 and played 24/14.",
        "Anna rolled 2-1 and played 13/11* 6/5.",
        "Bob rolled 6-6 and cannot move.",
    ]


def test_a_play_that_followed_by_itself_is_told_as_the_only_one() -> None:
    actions: list[Action] = [OpeningRoll((5, 3)), Move(0, "8/3 6/3"), Roll(1, (6, 4))]
    actions.append(Move(1, "24/14"))
    state = replay(THREE, actions)
    told = log_sentences(_, state, actions[3:], [True], (6, 4), NAMES, PEOPLE)
    assert told == ["Bob rolled 6-4 and played 24/14 (the only legal play)."]
    bot = log_sentences(_, state, actions[3:], [True], (6, 4), NAMES, (False, True))
    assert bot == ["Bob rolled 6-4 and played 24/14."]  # the bot's plays are its own


def test_a_log_without_a_write_by_the_other_player_tells_nothing_by_itself() -> None:
    assert told_from([None, None, 0, None], 0) is None
    assert told_from([None, 1, 0, None], 0) == 1


def test_after_a_take_the_doubler_reads_it_again_on_the_board_of_the_roll() -> None:
    logged: list[tuple[Action, int | None]] = [
        (OpeningRoll((5, 3)), None),
        (Move(0, "8/3 6/3"), 0),
        (Roll(1, (6, 4)), 1),
        (Move(1, "24/14"), 1),
        (Double(0), 0),
        (Take(1), 1),
        (Roll(0, (2, 1)), 0),
    ]
    assert _told(THREE, logged) == ["Bob takes. The cube is at 2."]
    # While the double waits, the doubled player's board says it.
    assert _told(THREE, logged[:5]) == ["Anna doubles to 2."]


def test_the_lot_of_long_nardy_is_told_until_white_has_played() -> None:
    rules = MatchRules(variant=Variant.LONG_NARDY, length=3)
    actions: list[Action] = [OpeningRoll((2, 2)), OpeningRoll((6, 2))]
    state = replay(rules, actions)
    assert state.phase is Phase.ROLLING  # White (Anna) rolls for her first turn
    assert told_from([None, None], 0) is None  # nobody has written: the whole log is told
    told = log_sentences(_, state, actions, [True, True], None, NAMES, PEOPLE)
    assert told == [
        "Opening roll: Anna 2, Bob 2. A tie: rolling again.",
        "The lot: Anna 6, Bob 2. Anna takes White and starts.",
    ]


def test_a_game_that_ended_on_the_way_is_told_with_its_result() -> None:
    logged: list[tuple[Action, int | None]] = [
        (OpeningRoll((5, 3)), None),
        (Move(0, "8/3 6/3"), 0),
        (Resign(1, WinKind.SINGLE), 1),
        (AcceptResignation(0), 0),
        (OpeningRoll((1, 4)), None),  # Bob starts the second game with 4-1
    ]
    assert _told(THREE, logged) == [
        "Game 1: Anna wins 1 point (resignation, cube 1).",
        "Opening roll: Anna 1, Bob 4. Bob starts with 4-1.",
    ]
