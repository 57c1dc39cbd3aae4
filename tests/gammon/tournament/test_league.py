"""League: a round robin per division and promotion and relegation between seasons, worked
out by hand."""

from __future__ import annotations

import pytest

from gammon.tournament import League, Result, Standing, TournamentError, next_divisions


def test_a_three_division_season_and_the_next_seasons_divisions() -> None:
    league = League([[1, 2, 3], [4, 5, 6], [7, 8, 9]], promoted=1, relegated=1)
    players = list(range(1, 10))
    view = league.view(players, {})
    # Three players a division: (b, c), then (a, c), then (a, b); the third rests.
    assert [(p.slot.key, p.players, p.slot.group) for p in view.pairings[:3]] == [
        ("division-1-1-1", (2, 3), 1),
        ("division-2-1-1", (5, 6), 2),
        ("division-3-1-1", (8, 9), 3),
    ]
    assert len(view.pairings) == 9
    results = {
        "division-1-1-1": Result(3, 2, 5, 0),
        "division-1-2-1": Result(3, 1, 5, 0),
        "division-1-3-1": Result(1, 2, 5, 0),
        "division-2-1-1": Result(5, 6, 5, 0),
        "division-2-2-1": Result(4, 6, 5, 0),
        "division-2-3-1": Result(4, 5, 5, 0),
        "division-3-1-1": Result(9, 8, 5, 0),
        "division-3-2-1": Result(9, 7, 5, 0),
        "division-3-3-1": Result(8, 7, 5, 0),
    }
    view = league.view(players, results)
    assert [(s.group, s.player) for s in view.standings] == [
        (1, 3),
        (1, 1),
        (1, 2),
        (2, 4),
        (2, 5),
        (2, 6),
        (3, 9),
        (3, 8),
        (3, 7),
    ]
    assert view.winner == 3
    # 2 goes down, 4 up; 6 down, 9 up; newcomer 10 joins the bottom.
    assert league.next_divisions(view.standings, newcomers=[10]) == (
        (3, 1, 4),
        (2, 5, 9),
        (6, 8, 7, 10),
    )


def table(group: int, *players: int, out: frozenset[int] = frozenset()) -> list[Standing]:
    return [
        Standing(player, rank, group=group, out=player in out)
        for rank, player in enumerate(players, start=1)
    ]


STANDINGS = [
    *table(1, 3, 1, 4, 2),
    *table(2, 6, 5, 8, 7, out=frozenset({8})),
    *table(3, 12, 9, 10, 11),
]


def test_one_up_one_down_with_a_withdrawal_and_newcomers() -> None:
    # Division 2 without 8: 6 5 7, so 6 up and 7 down.
    assert next_divisions(STANDINGS, promoted=1, relegated=1, newcomers=[20, 21]) == (
        (3, 1, 4, 6),
        (2, 5, 12),
        (7, 9, 10, 11, 20, 21),
    )


def test_two_up_two_down_when_a_division_is_short_of_players() -> None:
    # Division 2 keeps three players: 6 and 5 go up, and only 7 is left to go down.
    assert next_divisions(STANDINGS, newcomers=[20, 21]) == (
        (3, 1, 6, 5),
        (4, 2, 12, 9),
        (7, 10, 11, 20, 21),
    )


def test_a_league_refuses_what_it_cannot_play() -> None:
    with pytest.raises(TournamentError, match="at least 2 players"):
        League([[1, 2], [3]])
    with pytest.raises(TournamentError, match="two divisions"):
        League([[1, 2], [2, 3]])
    league = League([[1, 2], [3, 4]])
    with pytest.raises(TournamentError, match="players of its divisions"):
        league.view([1, 2, 3], {})
    with pytest.raises(TournamentError, match="no match 'group-1-1-1'"):
        league.view([1, 2, 3, 4], {"group-1-1-1": Result(1, 2)})
