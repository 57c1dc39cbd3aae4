"""Double elimination, pairings worked out by hand from the module's rules: the losers' bracket
takes the winners' round-1 losers in pairs, then each later winners' round's losers from the
other half; the grand final is replayed once when the losers' bracket winner wins it."""

from __future__ import annotations

import pytest

from gammon.tournament import DoubleElimination, Result, Stage, TournamentError
from tests.gammon.tournament.elimination_helpers import places, play, ready, rows

DOUBLE = DoubleElimination()


def test_two_players_meet_again_in_the_grand_final() -> None:
    results: dict[str, Result] = {}
    view = play(DOUBLE, [1, 2], results, {"winners-1-1": (2, 1)})
    assert rows(view) == [("winners-1-1", 1, 2), ("grand_final-1-1", 2, 1)]
    view = play(DOUBLE, [1, 2], results, {"grand_final-1-1": (1, 2)})
    assert ready(view) == [("grand_final-2-1", 2, 1)]
    view = play(DOUBLE, [1, 2], results, {"grand_final-2-1": (1, 2)})
    assert view.winner == 1
    assert places(view) == [(1, 1), (2, 2)]


def test_four_players_with_a_bracket_reset() -> None:
    entrants = [1, 2, 3, 4]
    results: dict[str, Result] = {}
    view = DOUBLE.view(entrants, results)
    assert rows(view) == [
        ("winners-1-1", 1, 4),
        ("winners-1-2", 2, 3),
        ("winners-2-1", None, None),
        ("losers-1-1", None, None),
        ("losers-2-1", None, None),
        ("grand_final-1-1", None, None),
    ]
    assert [pairing.slot.stage for pairing in view.pairings] == [
        Stage.SEMIFINAL,
        Stage.SEMIFINAL,
        Stage.FINAL,
        Stage.SEMIFINAL,
        Stage.FINAL,
        Stage.FINAL,
    ]
    view = play(DOUBLE, entrants, results, {"winners-1-1": (1, 4), "winners-1-2": (3, 2)})
    assert ready(view) == [("winners-2-1", 1, 3), ("losers-1-1", 4, 2)]
    view = play(DOUBLE, entrants, results, {"losers-1-1": (2, 4), "winners-2-1": (1, 3)})
    assert ready(view) == [("losers-2-1", 2, 3)]
    assert places(view) == [(1, 1), (2, 1), (3, 1), (4, 4)]
    view = play(DOUBLE, entrants, results, {"losers-2-1": (3, 2)})
    assert ready(view) == [("grand_final-1-1", 1, 3)]
    view = play(DOUBLE, entrants, results, {"grand_final-1-1": (3, 1)})
    assert view.winner is None
    assert ready(view) == [("grand_final-2-1", 1, 3)]
    assert view.pairings[-1].slot.stage is Stage.FINAL
    view = play(DOUBLE, entrants, results, {"grand_final-2-1": (1, 3)})
    assert view.winner == 1
    assert view.complete
    assert places(view) == [(1, 1), (3, 2), (2, 3), (4, 4)]
    champion = view.standings[0]
    assert (champion.played, champion.won, champion.lost) == (4, 3, 1)
    assert champion.points_difference == 3 + 3 - 3 + 3


def test_no_reset_when_the_winners_bracket_winner_takes_the_grand_final() -> None:
    results = {
        "winners-1-1": Result(1, 4),
        "winners-1-2": Result(2, 3),
        "losers-1-1": Result(3, 4),
        "winners-2-1": Result(1, 2),
        "losers-2-1": Result(2, 3),
        "grand_final-1-1": Result(1, 2),
    }
    view = DOUBLE.view([1, 2, 3, 4], results)
    assert view.winner == 1
    assert rows(view)[-1] == ("grand_final-1-1", 1, 2)
    with pytest.raises(TournamentError, match="only when"):
        DOUBLE.view([1, 2, 3, 4], {**results, "grand_final-2-1": Result(1, 2)})


def test_six_players_byes_in_both_brackets() -> None:
    entrants = [1, 2, 3, 4, 5, 6]
    results: dict[str, Result] = {}
    view = DOUBLE.view(entrants, results)
    assert rows(view) == [
        ("winners-1-1", 1, "bye"),
        ("winners-1-2", 4, 5),
        ("winners-1-3", 2, "bye"),
        ("winners-1-4", 3, 6),
        ("winners-2-1", 1, None),
        ("winners-2-2", 2, None),
        ("losers-1-1", None, "bye"),
        ("losers-1-2", None, "bye"),
        ("winners-3-1", None, None),
        ("losers-2-1", None, None),
        ("losers-2-2", None, None),
        ("losers-3-1", None, None),
        ("losers-4-1", None, None),
        ("grand_final-1-1", None, None),
    ]
    view = play(DOUBLE, entrants, results, {"winners-1-2": (5, 4), "winners-1-4": (3, 6)})
    assert ready(view) == [("winners-2-1", 1, 5), ("winners-2-2", 2, 3)]
    assert rows(view)[6:8] == [("losers-1-1", 4, "bye"), ("losers-1-2", 6, "bye")]
    view = play(DOUBLE, entrants, results, {"winners-2-1": (1, 5), "winners-2-2": (3, 2)})
    assert ready(view) == [("winners-3-1", 1, 3), ("losers-2-1", 4, 2), ("losers-2-2", 6, 5)]
    more = {"losers-2-1": (2, 4), "losers-2-2": (5, 6), "winners-3-1": (1, 3)}
    view = play(DOUBLE, entrants, results, more)
    assert ready(view) == [("losers-3-1", 2, 5)]
    assert rows(view)[-2] == ("losers-4-1", None, 3)
    view = play(DOUBLE, entrants, results, {"losers-3-1": (2, 5)})
    view = play(DOUBLE, entrants, results, {"losers-4-1": (3, 2)})
    assert ready(view) == [("grand_final-1-1", 1, 3)]
    view = play(DOUBLE, entrants, results, {"grand_final-1-1": (1, 3)})
    assert view.winner == 1
    assert places(view) == [(1, 1), (3, 2), (2, 3), (5, 4), (4, 5), (6, 5)]


def test_eight_players_the_losers_bracket_winner_wins_twice() -> None:
    entrants = list(range(1, 9))
    results: dict[str, Result] = {}
    first = {"winners-1-1": (1, 8), "winners-1-2": (4, 5), "winners-1-3": (2, 7)}
    view = play(DOUBLE, entrants, results, {**first, "winners-1-4": (3, 6)})
    assert ready(view) == [
        ("winners-2-1", 1, 4),
        ("winners-2-2", 2, 3),
        ("losers-1-1", 8, 5),
        ("losers-1-2", 7, 6),
    ]
    more = {"winners-2-1": (4, 1), "winners-2-2": (2, 3), "losers-1-1": (5, 8)}
    view = play(DOUBLE, entrants, results, {**more, "losers-1-2": (6, 7)})
    assert ready(view) == [("winners-3-1", 4, 2), ("losers-2-1", 5, 3), ("losers-2-2", 6, 1)]
    view = play(DOUBLE, entrants, results, {"losers-2-1": (3, 5), "losers-2-2": (1, 6)})
    assert ready(view) == [("winners-3-1", 4, 2), ("losers-3-1", 3, 1)]
    view = play(DOUBLE, entrants, results, {"losers-3-1": (1, 3), "winners-3-1": (2, 4)})
    assert ready(view) == [("losers-4-1", 1, 4)]
    view = play(DOUBLE, entrants, results, {"losers-4-1": (1, 4)})
    view = play(DOUBLE, entrants, results, {"grand_final-1-1": (1, 2)})
    assert ready(view) == [("grand_final-2-1", 2, 1)]
    view = play(DOUBLE, entrants, results, {"grand_final-2-1": (1, 2)})
    assert view.winner == 1
    assert places(view) == [(1, 1), (2, 2), (4, 3), (3, 4), (5, 5), (6, 5), (7, 7), (8, 7)]
    champion, runner_up = view.standings[:2]
    assert (champion.played, champion.won, champion.lost) == (7, 6, 1)
    assert (runner_up.played, runner_up.won, runner_up.lost) == (5, 3, 2)
    assert view.rounds_total == 3


def test_results_that_do_not_fit_are_refused() -> None:
    with pytest.raises(TournamentError, match="does not have"):
        DOUBLE.view([1, 2, 3, 4], {"losers-3-1": Result(1, 2)})
    with pytest.raises(TournamentError, match="its players are 1 and 4"):
        DOUBLE.view([1, 2, 3, 4], {"winners-1-1": Result(4, 2)})
    with pytest.raises(TournamentError, match="not both known"):
        DOUBLE.view([1, 2, 3, 4], {"losers-1-1": Result(4, 2)})


def test_the_same_inputs_give_the_same_view() -> None:
    results = {"winners-1-2": Result(5, 4, 5, 1), "winners-1-4": Result(3, 6, 5, 3)}
    view = DOUBLE.view([1, 2, 3, 4, 5, 6], results, frozenset({6}))
    again = DoubleElimination().view(
        (1, 2, 3, 4, 5, 6), dict(reversed(results.items())), frozenset({6})
    )
    assert view == again
