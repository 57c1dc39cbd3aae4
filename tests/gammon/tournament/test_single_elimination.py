"""Single elimination, pairings worked out by hand from the seeding rule (1 v 8, 4 v 5, 2 v 7,
3 v 6 for eight; the missing seeds' opponents have byes) and the consolation's rules."""

from __future__ import annotations

import pytest

from gammon.tournament import Bracket, Result, SingleElimination, Stage, TournamentError
from gammon.tournament.bracket import seed_order
from tests.gammon.tournament.elimination_helpers import places, play, ready, rows

PLAIN = SingleElimination()
CONSOLATION = SingleElimination(consolation=True)
BOTH = SingleElimination(consolation=True, last_chance=True)


def test_seed_order_keeps_the_two_best_apart_until_the_final() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_two_players_play_the_final_at_once() -> None:
    view = PLAIN.view([7, 3], {})
    assert rows(view) == [("main-1-1", 7, 3)]
    assert view.pairings[0].slot.stage is Stage.FINAL
    view = play(PLAIN, [7, 3], {}, {"main-1-1": (3, 7)})
    assert view.winner == 3
    assert places(view) == [(3, 1), (7, 2)]


def test_three_players_the_top_seed_has_a_bye() -> None:
    entrants = [50, 40, 30]
    view = PLAIN.view(entrants, {})
    assert rows(view) == [("main-1-1", 50, "bye"), ("main-1-2", 40, 30), ("main-2-1", 50, None)]
    assert [pairing.slot.stage for pairing in view.pairings] == [
        Stage.SEMIFINAL,
        Stage.SEMIFINAL,
        Stage.FINAL,
    ]
    assert ready(view) == [("main-1-2", 40, 30)]
    assert view.rounds_total == 2
    results: dict[str, Result] = {}
    view = play(PLAIN, entrants, results, {"main-1-2": (30, 40)})
    assert ready(view) == [("main-2-1", 50, 30)]
    assert places(view) == [(50, 1), (30, 1), (40, 3)]
    assert view.winner is None
    view = play(PLAIN, entrants, results, {"main-2-1": (30, 50)})
    assert view.winner == 30
    assert view.complete
    assert places(view) == [(30, 1), (50, 2), (40, 3)]
    assert [line.out for line in view.standings] == [False, True, True]
    assert (view.standings[0].played, view.standings[0].won, view.standings[1].played) == (2, 2, 1)


def test_five_players_three_byes_and_two_matches_ready_at_once() -> None:
    view = PLAIN.view([1, 2, 3, 4, 5], {})
    assert rows(view) == [
        ("main-1-1", 1, "bye"),
        ("main-1-2", 4, 5),
        ("main-1-3", 2, "bye"),
        ("main-1-4", 3, "bye"),
        ("main-2-1", 1, None),
        ("main-2-2", 2, 3),
        ("main-3-1", None, None),
    ]
    assert ready(view) == [("main-1-2", 4, 5), ("main-2-2", 2, 3)]


def test_eight_players_no_byes() -> None:
    entrants = list(range(1, 9))
    view = PLAIN.view(entrants, {})
    assert rows(view)[:4] == [
        ("main-1-1", 1, 8),
        ("main-1-2", 4, 5),
        ("main-1-3", 2, 7),
        ("main-1-4", 3, 6),
    ]
    assert [pairing.slot.stage for pairing in view.pairings] == [Stage.QUARTERFINAL] * 4 + [
        Stage.SEMIFINAL
    ] * 2 + [Stage.FINAL]
    results: dict[str, Result] = {}
    view = play(PLAIN, entrants, results, {"main-1-1": (1, 8), "main-1-2": (5, 4)})
    assert ready(view) == [("main-1-3", 2, 7), ("main-1-4", 3, 6), ("main-2-1", 1, 5)]
    play(PLAIN, entrants, results, {"main-1-3": (2, 7), "main-1-4": (6, 3)})
    view = play(PLAIN, entrants, results, {"main-2-1": (1, 5), "main-2-2": (2, 6)})
    view = play(PLAIN, entrants, results, {"main-3-1": (2, 1)})
    assert view.winner == 2
    assert places(view) == [(2, 1), (1, 2), (5, 3), (6, 3), (3, 5), (4, 5), (7, 5), (8, 5)]


def test_twelve_players_the_top_four_have_byes() -> None:
    view = PLAIN.view(list(range(1, 13)), {})
    assert rows(view) == [
        ("main-1-1", 1, "bye"),
        ("main-1-2", 8, 9),
        ("main-1-3", 4, "bye"),
        ("main-1-4", 5, 12),
        ("main-1-5", 2, "bye"),
        ("main-1-6", 7, 10),
        ("main-1-7", 3, "bye"),
        ("main-1-8", 6, 11),
        ("main-2-1", 1, None),
        ("main-2-2", 4, None),
        ("main-2-3", 2, None),
        ("main-2-4", 3, None),
        ("main-3-1", None, None),
        ("main-3-2", None, None),
        ("main-4-1", None, None),
    ]
    assert [key for key, *_ in ready(view)] == ["main-1-2", "main-1-4", "main-1-6", "main-1-8"]


def test_thirty_three_players_one_first_round_match() -> None:
    view = PLAIN.view(list(range(1, 34)), {})
    first = rows(view)[:32]
    byes = [1, 16, 17, 8, 25, 9, 24, 4, 29, 13, 20, 5, 28, 12, 21, 2, 31, 15, 18, 7, 26, 10]
    byes += [23, 3, 30, 14, 19, 6, 27, 11, 22]
    assert first[1] == ("main-1-2", 32, 33)
    assert [row for at, row in enumerate(first) if at != 1] == [
        (f"main-1-{index}", seed, "bye")
        for index, seed in zip([1, *range(3, 33)], byes, strict=True)
    ]
    assert rows(view)[32:48] == [
        ("main-2-1", 1, None),
        ("main-2-2", 16, 17),
        ("main-2-3", 8, 25),
        ("main-2-4", 9, 24),
        ("main-2-5", 4, 29),
        ("main-2-6", 13, 20),
        ("main-2-7", 5, 28),
        ("main-2-8", 12, 21),
        ("main-2-9", 2, 31),
        ("main-2-10", 15, 18),
        ("main-2-11", 7, 26),
        ("main-2-12", 10, 23),
        ("main-2-13", 3, 30),
        ("main-2-14", 14, 19),
        ("main-2-15", 6, 27),
        ("main-2-16", 11, 22),
    ]
    assert len(view.pairings) == 63
    assert view.rounds_total == 6
    assert len(view.ready) == 16


def test_seven_players_have_no_consolation() -> None:
    view = BOTH.view(list(range(1, 8)), {})
    assert {pairing.slot.bracket for pairing in view.pairings} == {Bracket.MAIN}


def test_consolation_and_last_chance_for_eight() -> None:
    entrants = list(range(1, 9))
    results: dict[str, Result] = {}
    first_round = {"main-1-1": (1, 8), "main-1-2": (5, 4), "main-1-3": (2, 7), "main-1-4": (3, 6)}
    view = play(BOTH, entrants, results, first_round)
    assert rows(view)[4:] == [
        ("main-2-1", 1, 5),
        ("main-2-2", 2, 3),
        ("consolation-1-1", 8, 4),
        ("consolation-1-2", 7, 6),
        ("main-3-1", None, None),
        ("consolation-2-1", None, None),
        ("last_chance-1-1", None, None),
    ]
    assert [key for key, *_ in ready(view)] == [
        "main-2-1",
        "main-2-2",
        "consolation-1-1",
        "consolation-1-2",
    ]
    second = {
        "main-2-1": (1, 5),
        "main-2-2": (3, 2),
        "consolation-1-1": (4, 8),
        "consolation-1-2": (6, 7),
    }
    view = play(BOTH, entrants, results, second)
    assert ready(view) == [
        ("main-3-1", 1, 3),
        ("consolation-2-1", 4, 6),
        ("last_chance-1-1", 8, 7),
    ]
    view = play(BOTH, entrants, results, {"main-3-1": (3, 1)})
    assert view.winner == 3
    assert view.side_brackets_open
    assert not view.complete
    assert places(view) == [(3, 1), (1, 2), (2, 3), (5, 3), (4, 5), (6, 5), (7, 5), (8, 5)]
    view = play(BOTH, entrants, results, {"consolation-2-1": (4, 6), "last_chance-1-1": (7, 8)})
    assert view.complete
    assert view.bracket_winners == (
        (Bracket.MAIN, 3),
        (Bracket.CONSOLATION, 4),
        (Bracket.LAST_CHANCE, 7),
    )
    assert view.standings[4].player == 4
    assert (view.standings[4].played, view.standings[4].won) == (3, 2)


def test_consolation_and_last_chance_for_sixteen() -> None:
    entrants = list(range(1, 17))
    results: dict[str, Result] = {}
    first_round = {
        "main-1-1": (1, 16),
        "main-1-2": (9, 8),
        "main-1-3": (4, 13),
        "main-1-4": (5, 12),
        "main-1-5": (2, 15),
        "main-1-6": (10, 7),
        "main-1-7": (3, 14),
        "main-1-8": (6, 11),
    }
    view = play(BOTH, entrants, results, first_round)
    assert rows(view)[8:16] == [
        ("main-2-1", 1, 9),
        ("main-2-2", 4, 5),
        ("main-2-3", 2, 10),
        ("main-2-4", 3, 6),
        ("consolation-1-1", 16, 8),
        ("consolation-1-2", 13, 12),
        ("consolation-1-3", 15, 7),
        ("consolation-1-4", 14, 11),
    ]
    second = {"main-2-1": (1, 9), "main-2-2": (5, 4), "main-2-3": (2, 10), "main-2-4": (3, 6)}
    play(BOTH, entrants, results, second)
    consolation_first = {
        "consolation-1-1": (8, 16),
        "consolation-1-2": (12, 13),
        "consolation-1-3": (7, 15),
        "consolation-1-4": (14, 11),
    }
    view = play(BOTH, entrants, results, consolation_first)
    assert ready(view) == [
        ("main-3-1", 1, 5),
        ("main-3-2", 2, 3),
        ("consolation-2-1", 8, 10),
        ("consolation-2-2", 12, 6),
        ("consolation-2-3", 7, 9),
        ("consolation-2-4", 14, 4),
        ("last_chance-1-1", 16, 13),
        ("last_chance-1-2", 15, 11),
    ]
    consolation_second = {
        "consolation-2-1": (8, 10),
        "consolation-2-2": (6, 12),
        "consolation-2-3": (9, 7),
        "consolation-2-4": (4, 14),
    }
    view = play(BOTH, entrants, results, consolation_second)
    assert [row for row in rows(view) if row[0].startswith("consolation-3")] == [
        ("consolation-3-1", 8, 6),
        ("consolation-3-2", 9, 4),
    ]
    assert [row for row in rows(view) if row[0].startswith("last_chance")] == [
        ("last_chance-1-1", 16, 13),
        ("last_chance-1-2", 15, 11),
        ("last_chance-1-3", 10, 12),
        ("last_chance-1-4", 7, 14),
        ("last_chance-2-1", None, None),
        ("last_chance-2-2", None, None),
        ("last_chance-3-1", None, None),
    ]
    consolation_only = play(CONSOLATION, entrants, dict(results), {})
    assert not any(p.slot.bracket is Bracket.LAST_CHANCE for p in consolation_only.pairings)


def test_twelve_players_consolation_byes_and_a_last_chance_of_round_two_losers() -> None:
    entrants = list(range(1, 13))
    results: dict[str, Result] = {}
    first_round = {
        "main-1-2": (8, 9),
        "main-1-4": (5, 12),
        "main-1-6": (7, 10),
        "main-1-8": (6, 11),
    }
    view = play(BOTH, entrants, results, first_round)
    side = [row for row in rows(view) if not row[0].startswith("main")]
    assert side == [
        ("consolation-1-1", 9, "bye"),
        ("consolation-1-2", 12, "bye"),
        ("consolation-1-3", 10, "bye"),
        ("consolation-1-4", 11, "bye"),
        ("consolation-2-1", 9, None),
        ("consolation-2-2", 12, None),
        ("consolation-2-3", 10, None),
        ("consolation-2-4", 11, None),
        ("consolation-3-1", None, None),
        ("consolation-3-2", None, None),
        ("last_chance-1-1", None, None),
        ("last_chance-1-2", None, None),
        ("consolation-4-1", None, None),
        ("last_chance-2-1", None, None),
    ]
    second = {"main-2-1": (1, 8), "main-2-2": (4, 5), "main-2-3": (2, 7), "main-2-4": (3, 6)}
    view = play(BOTH, entrants, results, second)
    assert [row for row in ready(view) if row[0].startswith("consolation")] == [
        ("consolation-2-1", 9, 7),
        ("consolation-2-2", 12, 6),
        ("consolation-2-3", 10, 8),
        ("consolation-2-4", 11, 5),
    ]


def test_nine_players_no_last_chance_with_a_single_loser_for_it() -> None:
    view = BOTH.view(list(range(1, 10)), {})
    side = [row for row in rows(view) if not row[0].startswith("main")]
    assert side == [
        ("consolation-1-1", None, "bye"),
        ("consolation-2-1", None, None),
        ("consolation-2-2", None, "bye"),
        ("consolation-2-3", None, "bye"),
        ("consolation-2-4", None, "bye"),
        ("consolation-3-1", None, None),
        ("consolation-3-2", None, None),
        ("consolation-4-1", None, None),
    ]


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ({"main-3-1": Result(1, 2)}, "does not have"),
        ({"main-1-1": Result(2, 1)}, "its players are 1 and 4"),
        ({"main-1-1": Result(1, 1)}, "its players are 1 and 4"),
        ({"main-2-1": Result(1, 2)}, "not both known"),
    ],
)
def test_results_that_do_not_fit_are_refused(results: dict[str, Result], message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        PLAIN.view([1, 2, 3, 4], results)


def test_a_bye_has_no_result_and_the_entrants_must_be_a_field() -> None:
    with pytest.raises(TournamentError, match="not both known"):
        PLAIN.view([1, 2, 3], {"main-1-1": Result(1, 2)})
    with pytest.raises(TournamentError, match="at least 2"):
        PLAIN.view([1], {})
    with pytest.raises(TournamentError, match="twice"):
        PLAIN.view([1, 2, 1], {})
    with pytest.raises(TournamentError, match="consolation"):
        SingleElimination(last_chance=True)


def test_the_same_inputs_give_the_same_view() -> None:
    entrants = list(range(1, 17))
    results = {"main-1-8": Result(11, 6, 5, 4), "main-1-1": Result(1, 16, 5, 0)}
    view = BOTH.view(entrants, results, frozenset({3}))
    again = SingleElimination(consolation=True, last_chance=True).view(
        list(entrants), dict(reversed(results.items())), frozenset({3})
    )
    assert view == again
