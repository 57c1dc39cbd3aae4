"""Export to the Jellyfish .mat format, and reading our export back."""

from __future__ import annotations

import random

import pytest

from gammon.actions import (
    AcceptResignation,
    Double,
    Drop,
    Move,
    OpeningRoll,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.flow import MatchState, Phase, apply, new_match, replay, replay_states
from gammon.mat_format import MatFormatError, export_mat, import_mat
from gammon.match_rules import MatchRules
from tests.gammon.selfplay import play_random_match


def essentials(state: MatchState) -> tuple[object, ...]:
    """What a .mat file must preserve: board, turn, dice, cube, score and every game result."""
    return (
        state.position,
        state.player_on_roll,
        state.phase,
        state.dice,
        state.score,
        state.cube_value,
        state.cube_owner,
        state.crawford_game,
        [(game.winner, game.points, game.kind, game.reason) for game in state.games],
    )


def scripted_match() -> MatchState:
    state = new_match(MatchRules(length=3))
    for action in (
        OpeningRoll((3, 1)),
        Move(0, "8/5 6/5"),
        Roll(1, (6, 4)),
        Move(1, "24/14"),
        Double(0),
        Take(1),
        Roll(0, (6, 2)),
        Move(0, "24/18 13/11"),
        Double(1),
        Drop(0),
        OpeningRoll((2, 5)),
        Move(1, "13/11 13/8"),
        Roll(0, (6, 6)),
    ):
        state = apply(state, action)
    return state


def test_the_export_is_laid_out_as_gnubg_lays_it_out() -> None:
    """gnubg 1.07's ``ExportGameJF``: the score line ``" %-31s%s : %d"``, rows
    ``"%3d) %-27s "`` and the right cell, the left-hand player's drop with its "Wins" on the
    row, an empty left cell when the right-hand player opens, bare dice ``"%3d) %-3s"``."""
    text = export_mat(scripted_match(), ["Alice", "Bob"], event_date="2026.11.29")
    header, games = text.split(" Game 1\n")
    assert header.splitlines() == [
        '; [Site "gammonbot"]',
        '; [Player 1 "Alice"]',
        '; [Player 2 "Bob"]',
        '; [EventDate "2026.11.29"]',
        '; [Variation "Backgammon"]',
        '; [Crawford "On"]',
        "",
        " 3 point match",
        "",
    ]
    assert games.split("\n") == [
        " Alice : 0" + " " * 22 + "Bob : 0",
        "  1) 31: 8/5 6/5" + " " * 17 + "64: 24/14",
        "  2)  Doubles => 2" + " " * 16 + "Takes",
        "  3) 62: 24/18 13/11" + " " * 14 + "Doubles => 4",
        "  4)  Drops" + " " * 23 + "Wins 2 points ",
        "",
        " Game 2",
        " Alice : 0" + " " * 22 + "Bob : 2",
        "  1)" + " " * 29 + "25: 13/11 13/8",
        "  2) 66: ",  # rolled, not yet played
        "",
    ]


def test_a_resignation_after_the_winners_play_says_so_on_the_winners_side() -> None:
    state = new_match(MatchRules(length=1))
    state = apply(state, OpeningRoll((6, 1)))
    state = apply(state, Move(0, "13/7 8/7"))
    state = apply(state, Resign(1, WinKind.SINGLE))
    state = apply(state, AcceptResignation(0))
    text = export_mat(state, ["A", "B"])
    assert text.split(" Game 1\n")[1].split("\n") == [
        " A : 0" + " " * 26 + "B : 0",
        "  1) 61: 13/7 8/7" + " " * 16,
        "      Wins 1 point",
        "",
        "",
    ]


def test_the_dice_of_a_forced_roll_before_a_resignation_are_left_out() -> None:
    """Anna has two checkers on the bar and rolls 3-4: Bob's 3 point is closed, so one checker
    enters with the 4 and the other stays out, her only play. She resigns instead. gnubg would
    play bare "34:" itself (here harmless, but it could bear off a resigner's last checker),
    so the resignation follows Bob's row."""
    state = new_match(MatchRules(length=1))
    for action in (
        OpeningRoll((1, 5)),
        Move(1, "24/23 8/3"),
        Roll(0, (6, 1)),
        Move(0, "13/7 8/7"),
        Roll(1, (6, 5)),
        Move(1, "8/3 8/2"),
        Roll(0, (4, 6)),
        Move(0, "7/1* 6/2*"),
        Roll(1, (1, 2)),
        Move(1, "bar/24* bar/23*"),
        Roll(0, (3, 4)),
    ):
        state = apply(state, action)
    assert (state.position.player[25], state.position.opponent[3]) == (2, 2)
    state = apply(state, Resign(0, WinKind.BACKGAMMON))
    state = apply(state, AcceptResignation(1))
    assert export_mat(state, ["Anna", "Bob"]).split("\n")[-4:] == [
        "  3) 46: 7/1* 6/2*               12: bar/24* bar/23*",
        " " * 34 + "Wins 3 points",
        "",
        "",
    ]


def test_the_scripted_export_reads_back_to_the_same_state() -> None:
    state = scripted_match()
    rules, actions = import_mat(export_mat(state, ["Alice", "Bob"]))
    assert rules == state.rules
    assert essentials(replay(rules, actions)) == essentials(state)


def test_random_matches_survive_export_and_import() -> None:
    rng = random.Random(4242)
    for _ in range(30):
        state = play_random_match(rng, length=rng.choice([1, 3, 5, 7]))
        text = export_mat(state, ["Ölaf Straße", "Борис"])
        rules, actions = import_mat(text)
        assert essentials(replay(rules, actions)) == essentials(state)


def test_states_replayed_by_the_caller_give_the_same_export() -> None:
    rng = random.Random(7)
    state = play_random_match(rng, length=5)
    states = replay_states(state.rules, state.actions)
    assert states[-1] == state
    assert export_mat(state, ["A", "B"], states=states) == export_mat(state, ["A", "B"])


def test_a_running_match_is_exported_too() -> None:
    rng = random.Random(99)
    state = play_random_match(rng, length=7)
    partial = replay(state.rules, state.actions[: len(state.actions) // 2])
    assert partial.phase is not Phase.FINISHED
    rules, actions = import_mat(export_mat(partial, ["A", "B"]))
    assert essentials(replay(rules, actions)) == essentials(partial)


def test_a_money_session_is_exported_with_its_rules_and_reads_back() -> None:
    rules = MatchRules(length=0, jacoby=True, beavers=True)
    state = play_random_match(random.Random(5), length=0, rules=rules, max_games=6)
    text = export_mat(state, ["A", "B"])
    assert " 0 point match" in text.splitlines()
    assert '; [Jacoby "On"]' in text.splitlines()
    assert '; [Beaver "On"]' in text.splitlines()
    read_rules, actions = import_mat(text)
    assert read_rules == rules
    assert essentials(replay(read_rules, actions)) == essentials(state)


def test_automatic_doubles_have_no_place_in_the_format() -> None:
    rules = MatchRules(length=0, automatic_doubles=1)
    with pytest.raises(ValueError, match="automatic doubles"):
        export_mat(new_match(rules), ["A", "B"])


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        " 3 point match\n  1) 31: 8/5 6/5\n",
        " 3 point match\n Game 1\n A : 0    B : 0\n  1) 31: 8/4 6/5\n",
        " 30 point match\n",
        " 3 point match\n Game 1\n  1) 31: 8/5 6/5     xx\n",
    ],
)
def test_unreadable_mat_text_is_refused(text: str) -> None:
    with pytest.raises(MatFormatError):
        import_mat(text)
