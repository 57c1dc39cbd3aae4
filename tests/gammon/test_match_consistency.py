"""Match IDs whose fields contradict each other are named as such; every moment a match of
ours reaches is not. The IDs are put together from gnubg's documented bit layout."""

from __future__ import annotations

import random

import pytest

from gammon.flow import replay_states
from gammon.match import Match
from gammon.match_consistency import check_consistent, inconsistency
from gammon.match_rules import MatchRules
from tests.gammon.match_ids_by_hand import CENTRED, gnubg_match_id
from tests.gammon.selfplay import play_random_match

OVER = 2


def test_the_hand_made_ids_are_gnubgs() -> None:
    """The helper writes the manual's layout: two IDs gnubg shows, read field by field."""
    nine_point = gnubg_match_id(
        cube_log=1, cube_owner=0, on_roll=1, turn=1, die1=5, die2=2, length=9, score0=2, score1=4
    )
    assert nine_point == "QYkqASAAIAAA"
    assert gnubg_match_id(on_roll=1, turn=1) == "cAkAAAAAAAAA"


@pytest.mark.parametrize(
    "fields",
    [
        {},  # money, player 0 on roll before the roll
        {"die1": 3, "die2": 1, "length": 7},
        {"length": 5, "score0": 4, "score1": 2, "crawford": 1},  # the Crawford game
        {"length": 5, "score0": 4, "score1": 4},  # double match point, post-Crawford
        {"length": 7, "doubled": 1, "turn": 1},  # player 0 doubled, player 1 answers
        {"length": 7, "cube_log": 1, "cube_owner": 0, "doubled": 1, "turn": 1},  # a redouble
        {"cube_log": 1, "cube_owner": CENTRED},  # money: an automatic double
        {"length": 7, "resigned": 1, "turn": 1},  # player 0 offers to resign a single game
        {"length": 7, "resigned": 2, "turn": 0},  # player 1 resigns while 0 is on roll
        {"length": 5, "score0": 5, "game_state": OVER},  # the match has just ended
        {"length": 5, "score0": 5, "score1": 2, "crawford": 1, "game_state": OVER},
    ],
)
def test_moments_a_match_reaches_are_consistent(fields: dict[str, int]) -> None:
    match = Match.from_id(gnubg_match_id(**fields))
    assert inconsistency(match) is None
    assert check_consistent(match) is match


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"crawford": 1}, ("money", "Crawford")),
        (
            {"length": 5, "score0": 4, "score1": 2, "crawford": 1, "cube_log": 1, "cube_owner": 0},
            ("Crawford", "turned"),
        ),
        (
            {"length": 5, "score0": 4, "score1": 2, "crawford": 1, "doubled": 1, "turn": 1},
            ("Crawford", "double"),
        ),
        ({"length": 5, "score0": 2, "score1": 1, "crawford": 1}, ("Crawford", "2-1")),
        ({"length": 5, "score0": 4, "score1": 4, "crawford": 1}, ("Crawford", "4-4")),
        ({"length": 1, "crawford": 1}, ("Crawford",)),
        ({"length": 7, "turn": 1, "die1": 3, "die2": 1}, ("player 1 is to act", "on roll")),
        ({"length": 7, "on_roll": 1, "turn": 0}, ("player 0 is to act", "player 1 is on roll")),
        ({"length": 7, "doubled": 1, "turn": 1, "die1": 6, "die2": 5}, ("dice", "double")),
        ({"length": 7, "doubled": 1, "turn": 0}, ("player 0 offers a double", "answer")),
        (
            {"length": 7, "cube_log": 1, "cube_owner": 1, "doubled": 1, "turn": 1},
            ("player 0 offers a double", "player 1 owns the cube"),
        ),
        ({"length": 7, "cube_owner": 0}, ("owns the cube at 1",)),
        ({"length": 7, "cube_log": 2, "cube_owner": CENTRED}, ("centred at 4", "automatic")),
        ({"length": 5, "score0": 5, "score1": 2}, ("match is already over",)),
        ({"length": 5, "score0": 5, "score1": 5, "game_state": OVER}, ("both players",)),
    ],
)
def test_contradictions_are_named(fields: dict[str, int], words: tuple[str, ...]) -> None:
    match = Match.from_id(gnubg_match_id(**fields))
    problem = inconsistency(match)
    assert problem is not None
    for word in words:
        assert word in problem
    with pytest.raises(ValueError, match="inconsistent"):
        check_consistent(match)


@pytest.mark.parametrize("seed", range(6))
def test_every_moment_of_a_random_match_is_consistent(seed: int) -> None:
    """Our own Match IDs (in analyses, on boards) must never be refused: random matches and
    money sessions, with doubles, beavers, automatic doubles and resignations."""
    rng = random.Random(seed)
    rules = (
        MatchRules(length=rng.choice([1, 3, 5, 7]))
        if seed % 2
        else MatchRules(length=0, beavers=True, automatic_doubles=2, jacoby=bool(seed % 4))
    )
    final = play_random_match(rng, length=rules.length, rules=rules, max_games=6)
    for state in replay_states(rules, final.actions):
        match_id = state.match_id()
        assert inconsistency(Match.from_id(match_id)) is None, (match_id, state.phase)
