"""The plain net's list of checker plays, computed without bgsage's per-call thread pool,
against bgsage's own ``checker_play`` at ``"1ply"``: the same plays, equities, chances and
order, for money and match play, every cube state and every kind of position."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engine import backgammon
from engine.api import CubeOwner, Level, Situation
from engine.backgammon import (
    EngineMove,
    library_plays,
    plain_net_plays,
    rank_plays,
    rank_plays_at_depth,
    roll_luck,
    to_board,
)
from gammon import Position
from tests.engine.test_backgammon import random_position

CUBE_STATES: list[dict[str, Any]] = [
    {},  # money, centred cube, no Jacoby
    {"jacoby": True, "beavers": True},
    {"cube_value": 2, "cube_owner": CubeOwner.DECIDER, "jacoby": True, "beavers": True},
    {"cube_value": 4, "cube_owner": CubeOwner.OPPONENT, "jacoby": True},
    {"cube_value": 2, "cube_owner": CubeOwner.OPPONENT},
    {"away": (5, 3)},
    {"away": (3, 5), "cube_value": 2, "cube_owner": CubeOwner.DECIDER},
    {"away": (7, 4), "cube_value": 2, "cube_owner": CubeOwner.OPPONENT, "jacoby": True},
    {"away": (1, 3), "crawford": True},
    {"away": (4, 1), "crawford": True},
    {"away": (1, 4)},  # post-Crawford, the leader on roll
    {"away": (4, 1), "cube_value": 2, "cube_owner": CubeOwner.OPPONENT},  # post-Crawford
    {"away": (1, 4), "cube_value": 2, "cube_owner": CubeOwner.DECIDER},  # post-Crawford
    {"away": (2, 2), "cube_value": 2, "cube_owner": CubeOwner.OPPONENT},
    {"cube_enabled": False},
    {"cube_enabled": False, "away": (3, 2)},
]

ROLLS = [(6, 6), (3, 1), (5, 2), (1, 1), (6, 4), (2, 2), (4, 3), (6, 5), (5, 5), (2, 1), (4, 4)]

BEAR_OFFS = [
    # Both sides home: positions of bgsage's bear-off database.
    Position.from_points({1: 3, 2: 3, 3: 2, 5: 1, 6: 2}, {1: 2, 2: 3, 5: 3, 6: 1}),
    Position.from_points({6: 5, 5: 4, 4: 3, 3: 3}, {1: 5, 2: 5, 3: 5}),
    Position.from_points({1: 2, 4: 1}, {2: 1, 3: 1, 6: 1}),
    Position.from_points({2: 1}, {1: 1, 6: 3}),  # the last checker comes off
    Position.from_points({6: 2, 5: 3, 1: 1}, {6: 4, 5: 4, 4: 3, 3: 2, 2: 1, 1: 1}),
    # Bearing off against contact: an opponent's checker still back, or on the bar.
    Position.from_points({6: 4, 5: 4, 4: 3, 3: 2, 2: 2}, {24: 1, 6: 4, 5: 4, 4: 3, 3: 3}),
    Position.from_points({6: 3, 5: 3, 4: 3, 2: 3, 1: 1}, {25: 1, 6: 5, 5: 5, 4: 3}),
]

RACES = [
    Position.from_points({13: 2, 10: 3, 8: 4, 6: 3, 4: 3}, {11: 1, 9: 4, 7: 4, 6: 3, 5: 3}),
    Position.from_points({11: 5, 9: 5, 7: 5}, {8: 5, 6: 5, 3: 5}),
    Position.from_points({10: 1, 8: 2, 6: 6, 5: 4, 3: 2}, {9: 1, 6: 6, 5: 5, 2: 3}),
]

ON_THE_BAR = [
    Position.from_points({25: 1, 6: 4, 8: 3, 13: 4, 24: 3}, {2: 2, 4: 2, 6: 4, 8: 3, 13: 4}),
    Position.from_points({25: 2, 6: 5, 8: 3, 13: 5}, {1: 2, 6: 5, 8: 3, 13: 4, 20: 1}),
]


def positions() -> list[Position]:
    """43 positions: the opening, contact positions from random games (early, middle and
    late), races, bear-offs (in the database or against contact) and checkers on the bar."""
    played = [random_position(seed, moves) for seed, moves in enumerate(range(10, 310, 10))]
    return [Position.start(), *played, *RACES, *BEAR_OFFS, *ON_THE_BAR]


def cases() -> list[tuple[Position, dict[str, Any], tuple[int, int]]]:
    """Each position under three cube states, with two rolls each (258 cases): the states
    and rolls take their turns, so every state meets many kinds of position."""
    states = itertools.cycle(CUBE_STATES)
    rolls = itertools.cycle(ROLLS)
    found: list[tuple[Position, dict[str, Any], tuple[int, int]]] = []
    for position in positions():
        for state in itertools.islice(states, 3):
            found.extend((position, state, roll) for roll in itertools.islice(rolls, 2))
    return found


def assert_same_plays(fast: list[EngineMove], slow: list[EngineMove]) -> None:
    assert len(fast) == len(slow)
    by_board = {move.board: move for move in slow}
    assert set(by_board) == {move.board for move in fast}
    for move in fast:
        expected = by_board[move.board]
        assert move.equity == pytest.approx(expected.equity, abs=1e-9)
        assert move.cubeless_equity == pytest.approx(expected.cubeless_equity, abs=1e-9)
        for name in ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"):
            assert getattr(move.probabilities, name) == pytest.approx(
                getattr(expected.probabilities, name), abs=1e-9
            )
    # The same order, except among plays of exactly the same equity: read in the shortcut's
    # order, bgsage's own equities come out exactly as in bgsage's order.
    assert [by_board[move.board].equity for move in fast] == [move.equity for move in slow]


def test_the_cases_cover_what_they_claim() -> None:
    found = positions()
    assert len(found) >= 40
    in_database = [
        position
        for position in BEAR_OFFS
        if backgammon.analyzer("1ply", False).epc(to_board(position)) is not None
    ]
    assert len(in_database) >= 4
    states = [state for _position, state, _roll in cases()]
    assert all(state in states for state in CUBE_STATES)


@pytest.mark.parametrize(("position", "state", "roll"), cases())
def test_the_plain_net_plays_are_bgsages_checker_play(
    position: Position, state: dict[str, Any], roll: tuple[int, int]
) -> None:
    """The shortcut gives what bgsage's ``checker_play`` at ``"1ply"`` gives (which starts a
    thread pool every call): the same plays, equities to 1e-9 and order."""
    situation = Situation(position, **state)
    assert_same_plays(plain_net_plays(situation, roll), library_plays(situation, roll, "1ply"))


def test_a_roll_that_cannot_be_played_lists_the_unchanged_board() -> None:
    """As bgsage does (``possible_moves``): the one "play" of a dance is the board as it was."""
    closed_out = Position.from_points({25: 2, 13: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    situation = Situation(closed_out, jacoby=True)
    fast = plain_net_plays(situation, (6, 6))
    assert [move.board for move in fast] == [tuple(to_board(closed_out))]
    assert fast == library_plays(situation, (6, 6), "1ply")


def library_only(monkeypatch: pytest.MonkeyPatch) -> None:
    def _library(situation: Situation, dice: tuple[int, int], depth: str) -> list[EngineMove]:
        return library_plays(situation, dice, depth)

    monkeypatch.setattr(backgammon, "_checker_play", _library)


@pytest.mark.parametrize("state", [CUBE_STATES[i] for i in (0, 1, 3, 5, 8, 11, 15)])
def test_ranking_and_luck_are_unchanged_by_the_shortcut(
    state: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the bot and the match analysis read — the ranked plays at expert and the luck of
    a roll — is the same through the shortcut as through bgsage's own call."""
    position = random_position(3, 40)
    situation = Situation(position, **state)
    fast_ranked = rank_plays(situation, (5, 3), Level.EXPERT)
    fast_luck = roll_luck(situation, (5, 3), Level.EXPERT)
    library_only(monkeypatch)
    slow_ranked = rank_plays(situation, (5, 3), Level.EXPERT)
    slow_luck = roll_luck(situation, (5, 3), Level.EXPERT)
    assert [play.notation for play in fast_ranked] == [play.notation for play in slow_ranked]
    for fast, slow in zip(fast_ranked, slow_ranked, strict=True):
        assert fast.equity == pytest.approx(slow.equity, abs=1e-9)
        assert fast.loss == pytest.approx(slow.loss, abs=1e-9)
        assert fast.probabilities == slow.probabilities
    assert fast_luck == pytest.approx(slow_luck, abs=1e-9)


def test_deeper_searches_keep_bgsages_own_call(monkeypatch: pytest.MonkeyPatch) -> None:
    def _no_shortcut(situation: Situation, dice: tuple[int, int]) -> list[EngineMove]:
        raise AssertionError("the shortcut is for the plain net only")

    monkeypatch.setattr(backgammon, "plain_net_plays", _no_shortcut)
    ranked = rank_plays_at_depth(Situation(Position.start()), (3, 1), "2ply")
    assert ranked[0].notation == "8/5 6/5"
