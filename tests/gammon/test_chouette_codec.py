"""The chouette codec: every action and table survives a trip through JSON unchanged, a game
replays the same from its stored record, and anything else is refused when read."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

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
    WinKind,
)
from gammon.chouette import (
    Answer,
    BoardAction,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    ChouetteGame,
    ChouetteRules,
    ChouetteTable,
    MemberAnswers,
    MemberDoubles,
    advance,
    chouette_action_from_dict,
    chouette_action_to_dict,
    new_game,
    new_table,
    refusal,
    replay,
    table_from_dict,
    table_to_dict,
)
from tests.gammon.test_chouette_fuzz import cube_move, sensible

players = st.text(min_size=1, max_size=12)
sides = st.integers(0, 1)
dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
answers = st.sampled_from(list(Answer))

gammon_actions: st.SearchStrategy[Action] = st.one_of(
    st.builds(OpeningRoll, dice),
    st.builds(Roll, sides, dice),
    st.builds(Move, sides, st.sampled_from(["8/5 6/5", "24/18 13/11", "bar/22", "6/off(2)"])),
    *(
        st.builds(kind, sides)
        for kind in (
            CannotMove,
            Double,
            Take,
            Drop,
            Beaver,
            AcceptResignation,
            RejectResignation,
            ClaimWin,
        )
    ),
    st.builds(Resign, sides, st.sampled_from(list(WinKind))),
)

chouette_actions: st.SearchStrategy[ChouetteAction] = st.one_of(
    st.builds(BoxDoubles, players, st.lists(players, max_size=7)),
    st.builds(MemberAnswers, players, answers),
    st.builds(MemberDoubles, players),
    st.builds(BoxAnswers, players, players, answers),
    st.builds(BoardAction, players, gammon_actions),
)


def through_json(data: dict[str, Any]) -> dict[str, Any]:
    """What the database hands back: the dict written as JSON text and read again."""
    loaded: dict[str, Any] = json.loads(json.dumps(data))
    return loaded


@given(chouette_actions)
def test_every_action_survives_the_trip_through_json(action: ChouetteAction) -> None:
    assert chouette_action_from_dict(through_json(chouette_action_to_dict(action))) == action


@given(st.lists(players, min_size=1, max_size=8, unique=True))
def test_every_table_survives_the_trip_through_json(order: list[str]) -> None:
    table = ChouetteTable(tuple(order))
    assert table_from_dict(through_json(table_to_dict(table))) == table


def test_a_board_action_keeps_the_gammon_action_as_gammon_writes_it() -> None:
    stored = chouette_action_to_dict(BoardAction("12", Roll(1, (6, 5))))
    assert stored == {
        "type": "board",
        "player": "12",
        "action": {"type": "roll", "player": 1, "dice": [6, 5]},
    }


def test_the_answers_and_members_are_stored_as_plain_text() -> None:
    assert chouette_action_to_dict(BoxAnswers("1", "2", Answer.BEAVER)) == {
        "type": "box_answers",
        "player": "1",
        "member": "2",
        "answer": "beaver",
    }
    assert chouette_action_to_dict(MemberAnswers("2", Answer.DROP)) == {
        "type": "member_answers",
        "player": "2",
        "answer": "drop",
    }


def next_action(game: ChouetteGame, rng: random.Random) -> ChouetteAction:
    """A double now and then when one is allowed, else whatever moves the game on."""
    if rng.random() < 0.15:
        double = cube_move(game, rng)
        if refusal(game, double) is None:
            return double
    return sensible(game, rng)


@pytest.mark.parametrize("seed", range(8))
def test_a_game_replays_the_same_from_its_stored_record(seed: int) -> None:
    """A whole game played with the rules, stored action by action and replayed from what
    was stored: the same game (the state a restart rebuilds)."""
    rng = random.Random(seed)
    table = new_table([f"{100 + index}" for index in range(rng.randint(3, 6))])
    rules = ChouetteRules(beavers=True)
    game = new_game(table, rules)
    while not game.finished and len(game.actions) < 600:
        game, _recorded = advance(game, next_action(game, rng))
    assert {type(action) for action in game.actions} > {BoardAction}
    stored = [through_json(chouette_action_to_dict(action)) for action in game.actions]
    table_stored = through_json(table_to_dict(table))
    replayed = replay(
        table_from_dict(table_stored), rules, [chouette_action_from_dict(data) for data in stored]
    )
    assert replayed == game


REFUSED: list[Any] = [
    None,
    [],
    "board",
    {},
    {"type": "double", "player": 0},  # a gammon action is no chouette action
    {"type": "member_doubles"},  # no player
    {"type": "member_doubles", "player": ""},
    {"type": "member_doubles", "player": 7},  # ids are text
    {"type": "member_doubles", "player": "7", "extra": 1},
    {"type": "box_doubles", "player": "7", "members": "8"},
    {"type": "box_doubles", "player": "7", "members": ["8", 9]},
    {"type": "box_doubles", "player": "7"},
    {"type": "member_answers", "player": "8", "answer": "raccoon"},
    {"type": "member_answers", "player": "8", "answer": 1},
    {"type": "box_answers", "player": "7", "answer": "take"},  # which member?
    {"type": "board", "player": "7"},
    {"type": "board", "player": "7", "action": {"type": "roll", "player": 2, "dice": [1, 2]}},
    {"type": "board", "player": "7", "action": "roll"},
]


@pytest.mark.parametrize("data", REFUSED)
def test_anything_else_is_refused_when_read(data: Any) -> None:
    with pytest.raises(ValueError, match=r"."):
        chouette_action_from_dict(data)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"order": "7,8,9"},
        {"order": ["7", "8", "7"]},
        {"order": ["7", 8, "9"]},
        {"order": ["7", "", "9"]},
        {"order": ["7", "8", "9"], "box": "7"},
    ],
)
def test_a_malformed_table_is_refused_when_read(data: Any) -> None:
    with pytest.raises(ValueError, match=r"."):
        table_from_dict(data)
