"""Swiss: pairings by points then seed, top-down, byes, backtracking around rematches and
the Buchholz table, every expected value worked out by hand."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gammon.tournament import (
    Bracket,
    Lengths,
    Pairing,
    Result,
    Standing,
    Swiss,
    TournamentError,
    walkovers,
)


def round_of(pairings: Sequence[Pairing], number: int) -> list[tuple[str, tuple[int | None, ...]]]:
    return [(p.slot.key, p.players) for p in pairings if p.slot.round == number]


def byes(pairings: Sequence[Pairing]) -> list[str]:
    return [p.slot.key for p in pairings if p.bye]


def test_five_players_byes_and_a_backtrack_around_a_rematch() -> None:
    tournament = Swiss(3)
    players = [1, 2, 3, 4, 5]
    view = tournament.view(players, {})
    assert round_of(view.pairings, 1) == [
        ("swiss-1-1", (1, 2)),
        ("swiss-1-2", (3, 4)),
        ("swiss-1-3", (5, None)),
    ]
    assert byes(view.pairings) == ["swiss-1-3"]
    assert [p.slot.key for p in view.ready] == ["swiss-1-1", "swiss-1-2"]
    assert view.pairings[0].slot.bracket is Bracket.SWISS
    results = {"swiss-1-1": Result(1, 2, 5, 3)}
    assert len(tournament.view(players, results).pairings) == 3  # round 2 waits
    results["swiss-1-2"] = Result(3, 4, 5, 1)
    # 1, 3 and 5 (bye) have a point: ranked 1 3 5 2 4; 4 is the lowest without a bye.
    assert round_of(tournament.view(players, results).pairings, 2) == [
        ("swiss-2-1", (1, 3)),
        ("swiss-2-2", (5, 2)),
        ("swiss-2-3", (4, None)),
    ]
    results["swiss-2-1"] = Result(1, 3, 5, 0)
    results["swiss-2-2"] = Result(5, 2, 5, 2)
    # Ranked 1 5 3 4 2, bye to 2. 1-5 would leave 3-4, who met in round 1: back up, 1-4, 5-3.
    assert round_of(tournament.view(players, results).pairings, 3) == [
        ("swiss-3-1", (1, 4)),
        ("swiss-3-2", (5, 3)),
        ("swiss-3-3", (2, None)),
    ]
    results["swiss-3-1"] = Result(1, 4, 5, 2)
    results["swiss-3-2"] = Result(3, 5, 5, 4)
    view = tournament.view(players, results)
    # Points 1:3, 3:2, 5:2, 2:1, 4:1; Buchholz 3:6 > 5:3; 2 and 4 both 5, then -5 > -7.
    assert view.standings == (
        Standing(1, 1, played=3, won=3, points=3, points_difference=10, buchholz=4),
        Standing(3, 2, played=3, won=2, lost=1, points=2, points_difference=0, buchholz=6),
        Standing(5, 3, played=2, won=1, lost=1, points=2, points_difference=2, buchholz=3),
        Standing(2, 4, played=2, lost=2, points=1, points_difference=-5, buchholz=5),
        Standing(4, 5, played=2, lost=2, points=1, points_difference=-7, buchholz=5),
    )
    assert view.winner == 1
    assert view.rounds_total == 3
    assert view.ready == ()


def test_eight_players_skip_a_rematch_and_rank_by_buchholz() -> None:
    tournament = Swiss(3)
    players = list(range(1, 9))
    results = {
        "swiss-1-1": Result(2, 1, 5, 1),
        "swiss-1-2": Result(3, 4, 5, 1),
        "swiss-1-3": Result(6, 5, 5, 1),
        "swiss-1-4": Result(7, 8, 5, 1),
    }
    assert round_of(tournament.view(players, results).pairings, 2) == [
        ("swiss-2-1", (2, 3)),
        ("swiss-2-2", (6, 7)),
        ("swiss-2-3", (1, 4)),
        ("swiss-2-4", (5, 8)),
    ]
    results["swiss-2-1"] = Result(3, 2, 5, 1)
    results["swiss-2-2"] = Result(6, 7, 5, 1)
    results["swiss-2-3"] = Result(1, 4, 5, 1)
    results["swiss-2-4"] = Result(8, 5, 5, 1)
    # Ranked 3 6 | 1 2 7 8 | 4 5: 1 has met 2, so 1-7 and 2-8.
    assert round_of(tournament.view(players, results).pairings, 3) == [
        ("swiss-3-1", (3, 6)),
        ("swiss-3-2", (1, 7)),
        ("swiss-3-3", (2, 8)),
        ("swiss-3-4", (4, 5)),
    ]
    results["swiss-3-1"] = Result(3, 6, 5, 1)
    results["swiss-3-2"] = Result(1, 7, 5, 1)
    results["swiss-3-3"] = Result(8, 2, 5, 1)
    results["swiss-3-4"] = Result(5, 4, 5, 1)
    view = tournament.view(players, results)
    assert [(s.player, s.points, s.buchholz) for s in view.standings] == [
        (3, 3, 3),
        (6, 2, 5),
        (8, 2, 3),
        (1, 2, 2),
        (2, 1, 7),
        (7, 1, 6),
        (5, 1, 4),
        (4, 0, 6),
    ]
    assert view.winner == 3


def test_thirty_three_players_the_bye_goes_to_the_lowest_without_one() -> None:
    tournament = Swiss(2)
    players = list(range(1, 34))
    view = tournament.view(players, {})
    first_round = [(f"swiss-1-{i}", (2 * i - 1, 2 * i)) for i in range(1, 17)]
    assert round_of(view.pairings, 1) == [*first_round, ("swiss-1-17", (33, None))]
    results = {key: Result(first, second, 5, 0) for key, (first, second) in first_round}
    # 1 3 ... 31 and 33 (bye) have a point; 2 4 ... 32 none. 32 gets the bye.
    assert round_of(tournament.view(players, results).pairings, 2) == [
        ("swiss-2-1", (1, 3)),
        ("swiss-2-2", (5, 7)),
        ("swiss-2-3", (9, 11)),
        ("swiss-2-4", (13, 15)),
        ("swiss-2-5", (17, 19)),
        ("swiss-2-6", (21, 23)),
        ("swiss-2-7", (25, 27)),
        ("swiss-2-8", (29, 31)),
        ("swiss-2-9", (33, 2)),
        ("swiss-2-10", (4, 6)),
        ("swiss-2-11", (8, 10)),
        ("swiss-2-12", (12, 14)),
        ("swiss-2-13", (16, 18)),
        ("swiss-2-14", (20, 22)),
        ("swiss-2-15", (24, 26)),
        ("swiss-2-16", (28, 30)),
        ("swiss-2-17", (32, None)),
    ]


def test_a_withdrawn_player_is_walked_over_once_then_left_out() -> None:
    tournament = Swiss(3)
    players = [1, 2, 3, 4]
    results = {"swiss-1-1": Result(1, 2, 5, 0), "swiss-1-2": Result(3, 4, 5, 0)}
    gone = frozenset({4})
    # Round 2 is paired with 4 (ranked 1 3 2 4), and 4's match is walked over.
    assert round_of(tournament.view(players, results, gone).pairings, 2) == [
        ("swiss-2-1", (1, 3)),
        ("swiss-2-2", (2, 4)),
    ]
    added = walkovers(tournament, players, results, gone, Lengths(5))
    assert added == {"swiss-2-2": Result(2, 4, 5, 0, walkover=True)}
    results.update(added)
    results["swiss-2-1"] = Result(1, 3, 5, 0)
    # Round 3 without 4: ranked 1 2 3. A bye to 3 leaves 1-2, to 2 leaves 1-3: rematches
    # both, so the bye goes up to 1 and 2 plays 3.
    view = tournament.view(players, results, gone)
    assert round_of(view.pairings, 3) == [("swiss-3-1", (2, 3)), ("swiss-3-2", (1, None))]
    assert [s.player for s in view.standings if s.out] == [4]


def test_when_every_pairing_has_rematches_the_fewest_are_taken() -> None:
    tournament = Swiss(4)
    players = [1, 2, 3, 4]
    results = {
        "swiss-1-1": Result(1, 2, 5, 0),
        "swiss-1-2": Result(3, 4, 5, 0),
        "swiss-2-1": Result(1, 3, 5, 0),
        "swiss-2-2": Result(2, 4, 5, 0),
    }
    # Round 3: ranked 1 2 3 4 (points 2 1 1 0); 1 has met 2 and 3.
    assert round_of(tournament.view(players, results).pairings, 3) == [
        ("swiss-3-1", (1, 4)),
        ("swiss-3-2", (2, 3)),
    ]
    results["swiss-3-1"] = Result(1, 4, 5, 0)
    results["swiss-3-2"] = Result(2, 3, 5, 0)
    # Round 4: everyone has met everyone; every pairing has two rematches, the first is taken.
    assert round_of(tournament.view(players, results).pairings, 4) == [
        ("swiss-4-1", (1, 2)),
        ("swiss-4-2", (3, 4)),
    ]


def test_results_that_do_not_fit_the_rounds_are_refused() -> None:
    tournament = Swiss(2)
    with pytest.raises(TournamentError, match="no match 'swiss-2-1'"):
        tournament.view([1, 2, 3, 4], {"swiss-2-1": Result(1, 3)})
    with pytest.raises(TournamentError, match="between 3 and 4"):
        tournament.view([1, 2, 3, 4], {"swiss-1-2": Result(3, 1)})
    with pytest.raises(TournamentError, match="no two players"):
        tournament.view([1, 2, 3], {"swiss-1-2": Result(3, 1)})  # the bye
    with pytest.raises(TournamentError, match="at least 1 round"):
        Swiss(0)


def test_the_same_inputs_give_equal_views() -> None:
    results = {"swiss-1-1": Result(2, 1, 5, 1), "swiss-1-2": Result(3, 4, 5, 1)}
    backwards = dict(reversed(list(results.items())))
    players = [1, 2, 3, 4, 5, 6, 7]
    assert Swiss(3).view(players, results, frozenset({7})) == Swiss(3).view(
        players, backwards, frozenset({7})
    )
