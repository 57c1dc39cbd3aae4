"""The rows of a ``.mat`` game, character for character as GNU Backgammon 1.07 writes them.

The expected lines follow gnubg's ``ExportGameJF`` formats: a row is ``"%3d) %-27s "`` and
then the right-hand cell, bare dice ``"%3d) %-3s"``; a drop writes ``" Drops"`` and its "Wins"
23 spaces on (left-hand player) or on a line of its own 6 spaces in (right-hand player); after
the last checker the "Wins" is 6 spaces in below a left-hand play, 34 after a right-hand one;
a beaver is ``" Beavers => 4"`` with no "Takes" after it. Where a resignation follows dice
gnubg's reader would miss the "Wins" in gnubg's own layout, and the rows below say where ours
puts it instead.
"""

from __future__ import annotations

import pytest

from gammon.mat_layout import Drop, Offer, Play, Record, Resigned, Result, Rolled, Take, lay_out

LEFT = "  1) 31: 8/5 6/5" + " " * 17  # Anna's opening, padded to the right-hand column
ROW_2 = "  2) 62: 24/18 13/11" + " " * 13  # ... and her second play


def lines(records: list[Record]) -> list[str]:
    return lay_out(records).split("\n")


def test_the_right_hand_player_opens_after_an_empty_left_cell() -> None:
    assert lines([Play(1, (6, 4), "24/14"), Play(0, (6, 2), "24/18 13/11")]) == [
        "  1)" + " " * 29 + "64: 24/14",
        ROW_2,
        "",
    ]


def test_a_drop_by_the_left_hand_player_has_its_wins_on_the_row() -> None:
    records: list[Record] = [Play(0, (3, 1), "8/5 6/5"), Offer(1, 2), Drop(0, 1)]
    assert lines(records) == [
        LEFT + " Doubles => 2",
        "  2)  Drops" + " " * 23 + "Wins 1 point ",
        "",
        "",
    ]


def test_a_drop_by_the_right_hand_player_has_its_wins_below() -> None:
    records: list[Record] = [
        Play(0, (3, 1), "8/5 6/5"),
        Play(1, (6, 4), "24/14"),
        Offer(0, 2),
        Drop(1, 1),
    ]
    assert lines(records) == [
        LEFT + "64: 24/14",
        "  2)  Doubles => 2" + " " * 16 + "Drops",
        "      Wins 1 point",
        "",
        "",
    ]


def test_a_beaver_turns_the_cube_and_its_take_is_not_written() -> None:
    records: list[Record] = [Play(0, (3, 1), "8/5 6/5"), Offer(1, 2), Offer(0, 4, beaver=True)]
    records += [Play(1, (6, 4), "24/14")]
    assert lines(records) == [
        LEFT + " Doubles => 2",
        "  2)  Beavers => 4" + " " * 15 + "64: 24/14",
        "",
    ]


def test_a_take_answers_on_the_other_side() -> None:
    records: list[Record] = [Play(0, (3, 1), "8/5 6/5"), Offer(1, 2), Take(0)]
    assert lines(records) == [LEFT + " Doubles => 2", "  2)  Takes" + " " * 22, ""]


@pytest.mark.parametrize(
    ("last", "expected"),
    [
        (
            Play(0, (2, 1), "2/off 1/off"),
            ["  2) 21: 2/off 1/off" + " " * 13, "      Wins 2 points"],
        ),
        (Play(1, (2, 1), "2/off 1/off"), [LEFT + "21: 2/off 1/off", " " * 34 + "Wins 2 points"]),
    ],
)
def test_the_last_checker_borne_off_wins_on_the_movers_side(
    last: Play, expected: list[str]
) -> None:
    records: list[Record] = [Play(0, (3, 1), "8/5 6/5"), last, Result(last.player, 2)]
    if last.player == 0:
        records.insert(1, Play(1, (6, 4), "24/14"))
        expected = [LEFT + "64: 24/14", *expected]
    assert lines(records) == [*expected, "", ""]


def test_a_draw_is_written_where_the_game_ended() -> None:
    records: list[Record] = [
        Play(0, (3, 1), "8/5 6/5"),
        Play(1, (2, 1), "2/off 1/off"),
        Result(None, 0),
    ]
    assert lines(records) == [LEFT + "21: 2/off 1/off", "      Draw", "", ""]


OPENED = [Play(0, (3, 1), "8/5 6/5"), Play(1, (6, 4), "24/14")]
AFTER_OPENING = LEFT + "64: 24/14"


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        # Before a roll, on a new row: gnubg's own layout.
        (
            [*OPENED, Resigned(1, 1)],
            [AFTER_OPENING, "      Wins 1 point"],
        ),
        (
            [*OPENED, Resigned(0, 1)],
            [AFTER_OPENING, " " * 34 + "Wins 1 point"],
        ),
        # Before the right-hand player's roll, after a left-hand play: gnubg's own layout.
        (
            [Play(0, (3, 1), "8/5 6/5"), Resigned(1, 2)],
            [LEFT, "      Wins 2 points"],
        ),
        (
            [Play(0, (3, 1), "8/5 6/5"), Resigned(0, 2)],
            [LEFT + " Wins 2 points"],
        ),
        # After the left-hand player rolled: gnubg's layout when the left one resigns; when
        # the right one does, the row is padded and the "Wins" gets a line (gnubg writes
        # "  2) 62:       Wins 1 point", which its reader takes for a roll).
        (
            [*OPENED, Rolled(0, (6, 2)), Resigned(0, 3)],
            [AFTER_OPENING, "  2) 62: " + " " * 24 + "Wins 3 points"],
        ),
        (
            [*OPENED, Rolled(0, (6, 2)), Resigned(1, 3)],
            [AFTER_OPENING, "  2) 62: " + " " * 24, "      Wins 3 points"],
        ),
        # After the right-hand player rolled: gnubg's layout when the right one resigns; when
        # the left one does, the "Wins" gets a line on the right (gnubg writes "64:  Wins").
        (
            [Play(0, (3, 1), "8/5 6/5"), Rolled(1, (6, 4)), Resigned(1, 1)],
            [LEFT + "64: ", "      Wins 1 point"],
        ),
        (
            [Play(0, (3, 1), "8/5 6/5"), Rolled(1, (6, 4)), Resigned(0, 1)],
            [LEFT + "64: ", " " * 34 + "Wins 1 point"],
        ),
    ],
)
def test_a_resignation_wins_on_the_winners_side(records: list[Record], expected: list[str]) -> None:
    assert lines(records) == [*expected, "", ""]


def test_a_record_that_stops_after_dice_ends_its_line() -> None:
    assert lay_out([Play(0, (3, 1), "8/5 6/5"), Rolled(1, (6, 6))]) == LEFT + "66: \n"
