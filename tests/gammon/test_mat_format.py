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


def test_the_export_looks_like_gnubgs() -> None:
    text = export_mat(scripted_match(), ["Alice", "Bob"], event_date="2026.11.29")
    lines = text.splitlines()
    assert '; [Player 1 "Alice"]' in lines
    assert '; [Player 2 "Bob"]' in lines
    assert '; [Variation "Backgammon"]' in lines
    assert '; [Crawford "On"]' in lines
    assert " 3 point match" in lines
    assert " Game 1" in lines
    assert lines[lines.index(" Game 1") + 1].split() == ["Alice", ":", "0", "Bob", ":", "0"]
    # gnubg's layout: "%3d) %-28s" for player 1, then player 2's cell.
    assert "  1) 31: 8/5 6/5                 64: 24/14" in lines
    assert "  2)  Doubles => 2                Takes" in lines
    assert "  3) 62: 24/18 13/11              Doubles => 4" in lines
    assert "  4)  Drops" in lines
    assert any(line.strip() == "Wins 2 points" and line.startswith(" " * 30) for line in lines)
    game2 = lines.index(" Game 2")
    assert lines[game2 + 1].split() == ["Alice", ":", "0", "Bob", ":", "2"]
    assert lines[game2 + 2].startswith("  1)" + " " * 20)  # player 2 opened: left cell empty
    assert lines[game2 + 2].strip().endswith("25: 13/11 13/8")
    assert lines[game2 + 3] == "  2) 66:"  # rolled, not yet played


def test_a_dance_is_the_dice_alone_and_a_match_win_says_so() -> None:
    state = new_match(MatchRules(length=1))
    state = apply(state, OpeningRoll((6, 1)))
    state = apply(state, Move(0, "13/7 8/7"))
    state = apply(state, Resign(1, WinKind.SINGLE))
    state = apply(state, AcceptResignation(0))
    text = export_mat(state, ["A", "B"])
    assert "      Wins 1 point and the match" in text.splitlines()


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


def test_money_sessions_are_not_exported() -> None:
    with pytest.raises(ValueError, match="money"):
        export_mat(new_match(MatchRules(length=0)), ["A", "B"])


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
