"""Chouette seating: the starting order from the dice, joining and leaving, and the rotation,
with every expected order written out by hand from the rules."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from gammon.chouette import (
    MAX_PLAYERS,
    ChouetteError,
    ChouetteTable,
    Side,
    join,
    leave,
    new_table,
    rotate,
    seat_order,
)

BOX, TEAM = Side.BOX, Side.TEAM


def refused(call: Callable[..., object], *args: object) -> str:
    with pytest.raises(ChouetteError) as error:
        call(*args)
    assert str(error.value)
    return error.value.reason


def test_highest_die_is_box_then_captain_then_the_line() -> None:
    order = seat_order({"ann": [2], "bob": [5], "cy": [6], "dee": [3]})
    assert order == ("cy", "bob", "dee", "ann")
    table = new_table(order)
    assert (table.box, table.captain, table.line) == ("cy", "bob", ("dee", "ann"))
    assert table.team == ("bob", "dee", "ann")


def test_only_tied_players_roll_again_to_split_their_tie() -> None:
    # ann and cy tie on 5 and roll again (ann 1, cy 4); bob's 6 and dee's 2 stand.
    order = seat_order({"ann": [5, 1], "bob": [6], "cy": [5, 4], "dee": [2]})
    assert order == ("bob", "cy", "ann", "dee")
    # A second tie among the tied players needs a third roll.
    order = seat_order({"ann": [5, 3, 6], "bob": [6], "cy": [5, 3, 2]})
    assert order == ("bob", "ann", "cy")


def test_an_unsplit_tie_or_a_bad_die_is_refused() -> None:
    assert refused(seat_order, {"ann": [5], "bob": [5], "cy": [1]}) == "tie_unresolved"
    assert refused(seat_order, {"ann": [5], "bob": [5, 2], "cy": [1]}) == "tie_unresolved"
    assert refused(seat_order, {"ann": [7], "bob": [5], "cy": [1]}) == "invalid_dice"
    assert refused(seat_order, {"ann": [], "bob": [5], "cy": [1]}) == "invalid_dice"
    assert refused(seat_order, {"ann": [True], "bob": [5], "cy": [1]}) == "invalid_dice"


def test_three_to_eight_distinct_players() -> None:
    assert refused(new_table, ["a", "b"]) == "too_few_players"
    assert refused(new_table, [f"p{i}" for i in range(MAX_PLAYERS + 1)]) == "table_full"
    assert refused(new_table, ["a", "b", "a"]) == "already_seated"
    assert refused(new_table, ["a", "b", ""]) == "invalid_player"
    assert len(new_table([f"p{i}" for i in range(MAX_PLAYERS)]).order) == MAX_PLAYERS


def test_join_at_the_end_of_the_line_and_leave_moves_everyone_up() -> None:
    table = new_table(["ann", "bob", "cy"])
    table = join(table, "dee")
    assert table.order == ("ann", "bob", "cy", "dee")
    assert refused(join, table, "bob") == "already_seated"
    # Joining before the rotation puts the newcomer ahead of the loser, after it behind.
    assert rotate(join(table, "eve"), BOX).order == ("ann", "cy", "dee", "eve", "bob")
    assert join(rotate(table, BOX), "eve").order == ("ann", "cy", "dee", "bob", "eve")
    # The box leaves: the captain takes the box, the next in line is captain.
    assert leave(table, "ann").order == ("bob", "cy", "dee")
    assert leave(table, "cy").order == ("ann", "bob", "dee")
    assert refused(leave, table, "zed") == "not_seated"
    assert refused(leave, new_table(["ann", "bob", "cy"]), "cy") == "too_few_players"
    full = new_table([f"p{i}" for i in range(MAX_PLAYERS)])
    assert refused(join, full, "late") == "table_full"


def test_rotation_with_three_players() -> None:
    table = new_table(["A", "B", "C"])
    expected = [
        (BOX, ("A", "C", "B")),  # A beats B: A stays, B to the end, C captain
        (TEAM, ("C", "B", "A")),  # C beats A: C takes the box, A to the end
        (TEAM, ("B", "A", "C")),  # B beats C
        (BOX, ("B", "C", "A")),  # B beats A
        (BOX, ("B", "A", "C")),  # B beats C
    ]
    for winner, order in expected:
        table = rotate(table, winner)
        assert table.order == order


def test_rotation_with_four_players() -> None:
    table = new_table(["A", "B", "C", "D"])
    expected = [
        (BOX, ("A", "C", "D", "B")),
        (TEAM, ("C", "D", "B", "A")),
        (TEAM, ("D", "B", "A", "C")),
        (BOX, ("D", "A", "C", "B")),
        (BOX, ("D", "C", "B", "A")),
    ]
    for winner, order in expected:
        table = rotate(table, winner)
        assert table.order == order


def test_rotation_with_six_players() -> None:
    table = new_table(["A", "B", "C", "D", "E", "F"])
    expected = [
        (TEAM, ("B", "C", "D", "E", "F", "A")),
        (BOX, ("B", "D", "E", "F", "A", "C")),
        (BOX, ("B", "E", "F", "A", "C", "D")),
        (TEAM, ("E", "F", "A", "C", "D", "B")),
        (TEAM, ("F", "A", "C", "D", "B", "E")),
        (BOX, ("F", "C", "D", "B", "E", "A")),
    ]
    for winner, order in expected:
        table = rotate(table, winner)
        assert table.order == order


def test_table_membership() -> None:
    table = ChouetteTable(("A", "B", "C"))
    assert "B" in table
    assert "Z" not in table
