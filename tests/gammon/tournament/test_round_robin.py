"""Round robin: groups, schedules, start rule, tables and the playoff, every expected value
worked out by hand (circle method: the first seat stays, the others turn one seat clockwise
a round, seat i plays seat n-1-i, an empty seat in odd groups)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gammon.tournament import (
    Bracket,
    Lengths,
    Pairing,
    Result,
    RoundRobin,
    Stage,
    Standing,
    TournamentError,
    walkovers,
)


def schedule(pairings: Sequence[Pairing]) -> list[tuple[str, tuple[int | None, int | None]]]:
    return [(p.slot.key, p.players) for p in pairings]


def keys(pairings: Sequence[Pairing]) -> list[str]:
    return [p.slot.key for p in pairings]


def test_three_players_rest_in_turn_and_wait_for_each_other() -> None:
    tournament = RoundRobin()
    view = tournament.view([10, 20, 30], {})
    assert schedule(view.pairings) == [
        ("group-1-1-1", (20, 30)),  # 10 rests
        ("group-1-2-1", (10, 30)),  # 20 rests
        ("group-1-3-1", (10, 20)),  # 30 rests
    ]
    assert view.pairings[0].slot.bracket is Bracket.GROUP
    assert view.pairings[0].slot.group == 1
    assert view.rounds_total == 3
    assert keys(view.ready) == ["group-1-1-1"]  # 10 waits for 30
    results = {"group-1-1-1": Result(30, 20, 7, 3)}
    assert keys(tournament.view([10, 20, 30], results).ready) == ["group-1-2-1"]
    results["group-1-2-1"] = Result(10, 30, 7, 5)
    assert keys(tournament.view([10, 20, 30], results).ready) == ["group-1-3-1"]
    results["group-1-3-1"] = Result(20, 10, 7, 6)
    view = tournament.view([10, 20, 30], results)
    # One win each, so points difference: 30 +2 (12-10), 10 +1 (13-12), 20 -3 (10-13).
    assert view.standings == (
        Standing(30, 1, played=2, won=1, lost=1, points=1, points_difference=2, group=1),
        Standing(10, 2, played=2, won=1, lost=1, points=1, points_difference=1, group=1),
        Standing(20, 3, played=2, won=1, lost=1, points=1, points_difference=-3, group=1),
    )
    assert view.winner == 30
    assert view.ready == ()


def test_four_players_head_to_head_breaks_a_tie_of_points_and_differences() -> None:
    tournament = RoundRobin()
    view = tournament.view([1, 2, 3, 4], {})
    assert schedule(view.pairings) == [
        ("group-1-1-1", (1, 4)),
        ("group-1-1-2", (2, 3)),
        ("group-1-2-1", (1, 3)),
        ("group-1-2-2", (2, 4)),
        ("group-1-3-1", (1, 2)),
        ("group-1-3-2", (3, 4)),
    ]
    results = {
        "group-1-1-1": Result(1, 4, 5, 1),
        "group-1-1-2": Result(3, 2, 5, 1),
        "group-1-2-1": Result(1, 3, 5, 1),
        "group-1-2-2": Result(2, 4, 5, 1),
        "group-1-3-1": Result(2, 1, 5, 1),
        "group-1-3-2": Result(4, 3, 5, 1),
    }
    view = tournament.view([1, 2, 3, 4], results)
    # 1 and 2: two wins, +4 each, 2 beat 1; 3 and 4: one win, -4 each, 4 beat 3.
    assert view.standings == (
        Standing(2, 1, played=3, won=2, lost=1, points=2, points_difference=4, group=1),
        Standing(1, 2, played=3, won=2, lost=1, points=2, points_difference=4, group=1),
        Standing(4, 3, played=3, won=1, lost=2, points=1, points_difference=-4, group=1),
        Standing(3, 4, played=3, won=1, lost=2, points=1, points_difference=-4, group=1),
    )
    assert view.winner == 2


SIX = [
    ("group-1-1-1", (1, 6)),
    ("group-1-1-2", (2, 5)),
    ("group-1-1-3", (3, 4)),
    ("group-1-2-1", (1, 5)),
    ("group-1-2-2", (4, 6)),
    ("group-1-2-3", (2, 3)),
    ("group-1-3-1", (1, 4)),
    ("group-1-3-2", (3, 5)),
    ("group-1-3-3", (2, 6)),
    ("group-1-4-1", (1, 3)),
    ("group-1-4-2", (2, 4)),
    ("group-1-4-3", (5, 6)),
    ("group-1-5-1", (1, 2)),
    ("group-1-5-2", (3, 6)),
    ("group-1-5-3", (4, 5)),
]


def test_six_players_start_their_next_match_without_waiting_for_the_round() -> None:
    tournament = RoundRobin()
    players = [1, 2, 3, 4, 5, 6]
    assert schedule(tournament.view(players, {}).pairings) == SIX
    results = {"group-1-1-1": Result(1, 6, 5, 0), "group-1-1-2": Result(5, 2, 5, 4)}
    view = tournament.view(players, results)
    assert keys(view.ready) == ["group-1-1-3", "group-1-2-1"]  # 1 and 5 are both free


def test_a_withdrawal_walks_over_the_withdrawn_players_matches_as_they_come() -> None:
    tournament = RoundRobin()
    players = [1, 2, 3, 4, 5, 6]
    results = {"group-1-1-1": Result(1, 6, 5, 0), "group-1-1-2": Result(5, 2, 5, 4)}
    added = walkovers(tournament, players, results, frozenset({4}), Lengths(5))
    # 3-4 (under way) goes to 3; then 4-6 of round 2 is ready and goes to 6; 1-4 of round 3
    # waits for 1's round-2 match.
    assert added == {
        "group-1-1-3": Result(3, 4, 5, 0, walkover=True),
        "group-1-2-2": Result(6, 4, 5, 0, walkover=True),
    }
    view = tournament.view(players, {**results, **added}, frozenset({4}))
    assert [s.player for s in view.standings if s.out] == [4]
    assert keys(view.ready) == ["group-1-2-1", "group-1-2-3"]


GROUP_ONE_OF_NINE = [
    ("group-1-1-1", (14, 19)),
    ("group-1-1-2", (15, 18)),
    ("group-1-2-1", (11, 19)),
    ("group-1-2-2", (14, 15)),
    ("group-1-3-1", (11, 18)),
    ("group-1-3-2", (15, 19)),
    ("group-1-4-1", (11, 15)),
    ("group-1-4-2", (14, 18)),
    ("group-1-5-1", (11, 14)),
    ("group-1-5-2", (18, 19)),
]
GROUP_TWO_OF_NINE = [
    ("group-2-1-1", (12, 17)),
    ("group-2-1-2", (13, 16)),
    ("group-2-2-1", (12, 16)),
    ("group-2-2-2", (13, 17)),
    ("group-2-3-1", (12, 13)),
    ("group-2-3-2", (16, 17)),
]
NINE = list(range(11, 20))  # seed k is player 10 + k


def test_nine_players_make_two_snake_seeded_groups_played_round_by_round() -> None:
    tournament = RoundRobin(group_size=8)
    assert tournament.groups(NINE) == [[11, 14, 15, 18, 19], [12, 13, 16, 17]]
    view = tournament.view(NINE, {})
    assert schedule(view.pairings) == [
        *GROUP_ONE_OF_NINE[0:2],
        *GROUP_TWO_OF_NINE[0:2],
        *GROUP_ONE_OF_NINE[2:4],
        *GROUP_TWO_OF_NINE[2:4],
        *GROUP_ONE_OF_NINE[4:6],
        *GROUP_TWO_OF_NINE[4:6],
        *GROUP_ONE_OF_NINE[6:10],
    ]
    assert len(view.pairings) == 16
    assert [p.slot.group for p in view.pairings[:4]] == [1, 1, 2, 2]
    assert view.rounds_total == 5


def better_seed_wins(pairs: list[tuple[str, tuple[int | None, int | None]]]) -> dict[str, Result]:
    """Every match of ``pairs`` (written best seed first) won 5-2 by its first player."""
    results = {}
    for key, (first, second) in pairs:
        assert first is not None
        assert second is not None
        results[key] = Result(first, second, 5, 2)
    return results


def test_nine_players_without_playoff_the_best_group_winner_wins() -> None:
    results = better_seed_wins(GROUP_ONE_OF_NINE + GROUP_TWO_OF_NINE)
    view = RoundRobin().view(NINE, results)
    assert [(s.player, s.group, s.rank, s.points) for s in view.standings] == [
        (11, 1, 1, 4),
        (14, 1, 2, 3),
        (15, 1, 3, 2),
        (18, 1, 4, 1),
        (19, 1, 5, 0),
        (12, 2, 1, 3),
        (13, 2, 2, 2),
        (16, 2, 3, 1),
        (17, 2, 4, 0),
    ]
    assert view.winner == 11  # four wins against three


def test_nine_players_with_playoff_the_group_winners_play_a_final() -> None:
    tournament = RoundRobin(playoff=True)
    results = better_seed_wins(GROUP_TWO_OF_NINE)
    view = tournament.view(NINE, results)
    final = view.pairings[-1]
    assert (final.slot.key, final.players, final.slot.stage) == (
        "playoff-1-1",
        (None, 12),
        Stage.FINAL,
    )
    assert final.slot.bracket is Bracket.PLAYOFF
    assert view.rounds_total == 6
    results.update(better_seed_wins(GROUP_ONE_OF_NINE))
    view = tournament.view(NINE, results)
    assert keys(view.ready) == ["playoff-1-1"]
    assert view.ready[0].players == (11, 12)
    assert view.winner is None
    results["playoff-1-1"] = Result(12, 11, 9, 8)
    assert tournament.view(NINE, results).winner == 12


def test_seventeen_players_make_three_groups_of_five_six_and_six() -> None:
    tournament = RoundRobin(playoff=True)
    players = list(range(1, 18))
    assert tournament.groups(players) == [
        [1, 6, 7, 12, 13],
        [2, 5, 8, 11, 14, 17],
        [3, 4, 9, 10, 15, 16],
    ]
    view = tournament.view(players, {})
    assert schedule(view.ready) == [
        ("group-1-1-1", (6, 13)),  # 1 rests
        ("group-1-1-2", (7, 12)),
        ("group-2-1-1", (2, 17)),
        ("group-2-1-2", (5, 14)),
        ("group-2-1-3", (8, 11)),
        ("group-3-1-1", (3, 16)),
        ("group-3-1-2", (4, 15)),
        ("group-3-1-3", (9, 10)),
    ]
    group_matches = [p for p in view.pairings if p.slot.bracket is Bracket.GROUP]
    assert len(group_matches) == 10 + 15 + 15
    playoff = [(p.slot.key, p.players, p.bye, p.slot.stage) for p in view.pairings[40:]]
    assert playoff == [
        ("playoff-1-1", (None, None), True, Stage.SEMIFINAL),  # group 1's winner: a bye
        ("playoff-1-2", (None, None), False, Stage.SEMIFINAL),
        ("playoff-2-1", (None, None), False, Stage.FINAL),
    ]
    assert view.rounds_total == 5 + 2


def test_results_that_do_not_fit_the_schedule_are_refused() -> None:
    tournament = RoundRobin(playoff=True)
    with pytest.raises(TournamentError, match="no match 'group-1-4-1'"):
        tournament.view([1, 2, 3, 4], {"group-1-4-1": Result(1, 2)})
    with pytest.raises(TournamentError, match="between 1 and 4"):
        tournament.view([1, 2, 3, 4], {"group-1-1-1": Result(1, 2)})
    with pytest.raises(TournamentError, match="no two players"):
        tournament.view(NINE, {"playoff-1-1": Result(11, 12)})
    with pytest.raises(TournamentError, match="at least 2 entrants"):
        tournament.view([1], {})
    with pytest.raises(TournamentError, match="at least 3"):
        RoundRobin(group_size=2)


def test_the_same_inputs_give_equal_views() -> None:
    results = better_seed_wins(GROUP_ONE_OF_NINE[:5] + GROUP_TWO_OF_NINE[:3])
    backwards = dict(reversed(list(results.items())))
    tournament = RoundRobin(playoff=True)
    assert tournament.view(NINE, results, frozenset({19})) == tournament.view(
        NINE, backwards, frozenset({19})
    )
