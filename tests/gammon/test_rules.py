"""The rules of checker play, position by position, as the rule texts state them.

Diagrams use the side on roll's numbering; ``player`` is the side on roll. Where the rule text
gives a worked example, the position and the expected board are copied from it.
"""

from __future__ import annotations

import pytest

from gammon import IllegalPlayError, Position, legal_plays, parse_play


def results(position: Position, dice: tuple[int, int]) -> set[str]:
    return {str(play) for play in legal_plays(position, dice)}


def test_opening_three_one_makes_the_five_point() -> None:
    # Rule text: White rolls 3-1 from the start and plays 8/5 6/5; pips 167 -> 163.
    play = parse_play("8/5 6/5", Position.start(), (3, 1))
    white_after = play.result.opponent
    assert (white_after[8], white_after[6], white_after[5]) == (2, 4, 2)
    assert play.result.pip_counts() == (167, 163)


def test_black_runs_a_back_checker_with_six_five() -> None:
    # Rule text: after White's 8/5 6/5, Black rolls 6-5 and plays 24/13; Black's pips 167 -> 156.
    after_white = parse_play("8/5 6/5", Position.start(), (3, 1)).result
    play = parse_play("24/13", after_white, (6, 5))
    assert play.result.opponent[24] == 1
    assert play.result.opponent[13] == 6
    assert play.result.pip_counts() == (163, 156)


def hitting_example() -> Position:
    # Rule text, White's numbering: White 5:1 6:4 8:3 13:5 24:2; Black 1:2 10:1 12:5 17:3 19:4.
    white = {5: 1, 6: 4, 8: 3, 13: 5, 24: 2}
    black_in_white_numbers = {1: 2, 10: 1, 12: 5, 17: 3, 19: 4}
    black = {25 - point: count for point, count in black_in_white_numbers.items()}
    return Position.from_points(player=white, opponent=black)


def test_hitting_a_blot_sends_it_to_the_bar() -> None:
    position = hitting_example()
    assert position.pip_counts() == (166, 176)
    play = parse_play("13/10* 6/5", position, (3, 1))
    assert str(play) == "13/10* 6/5"
    assert play.hits() == 1
    assert play.result.on_bar() == (1, 0)
    assert play.result.pip_counts() == (186, 162)


def test_entering_from_the_bar_then_moving_on() -> None:
    # Rule text: Black, on the bar, rolls 6-2 and plays bar/23 13/7; Black's pips 186 -> 178.
    after_hit = parse_play("13/10* 6/5", hitting_example(), (3, 1)).result
    play = parse_play("bar/23 13/7", after_hit, (6, 2))
    assert play.result.pip_counts() == (162, 178)
    black = play.result.opponent
    assert (black[23], black[13], black[7], black[25]) == (1, 4, 1, 0)


def test_a_checker_on_the_bar_must_enter_before_anything_else_moves() -> None:
    position = Position.from_points({25: 1, 13: 14}, {6: 5, 8: 3, 13: 5, 24: 2})
    for play in legal_plays(position, (4, 3)):
        assert play.steps[0].start == 25
    refused = _refusal("13/9 13/10", position, (4, 3))
    assert refused.reason == "bar_first"


def test_only_the_checkers_that_can_enter_do_and_the_rest_of_the_roll_is_lost() -> None:
    # Two on the bar; the opponent holds their 1..5 points, only the 6 (my 19) is open: 6-5 enters
    # one checker with the 6 and the 5 is lost.
    opponent = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}
    position = Position.from_points({25: 2, 13: 13}, opponent)
    assert results(position, (6, 5)) == {"bar/19"}
    assert results(position, (5, 4)) == set()


def test_a_point_with_two_opposing_checkers_is_closed() -> None:
    # Two opposing checkers on their 15 point stand on my 10.
    position = Position.from_points({13: 15}, {15: 2, 19: 13})
    assert "13/10" not in results(position, (3, 1))
    assert _refusal("13/10 13/12", position, (3, 1)).reason == "point_closed"


def test_hit_and_run_with_one_checker() -> None:
    # An opposing blot on my 7 point: 6-2 may hit with the 6 and continue to 5.
    position = Position.from_points({13: 2, 6: 13}, {18: 1, 1: 14})
    assert "13/7*/5" in results(position, (6, 2))
    play = parse_play("13/7*/5", position, (6, 2))
    assert play.result.on_bar() == (1, 0)
    assert (play.result.opponent[13], play.result.opponent[5]) == (1, 1)


def test_both_dice_must_be_played_when_possible() -> None:
    position = Position.start()
    for play in legal_plays(position, (6, 5)):
        assert len(play.steps) == 2
    # My 13 (their 12) and my 4 (their 21) are closed: after 24/19 the 6 cannot be played, but
    # 24/18 10/5 uses both dice, so 24/19 alone is refused.
    position = Position.from_points({24: 1, 10: 1, 1: 13}, {12: 2, 21: 2, 2: 11})
    assert results(position, (6, 5)) == {"24/18 10/5"}
    assert _refusal("24/19", position, (6, 5)).reason == "must_use_both"


def test_if_only_one_die_can_be_played_it_must_be_the_larger() -> None:
    # One checker on my 20, the rest on my ace point; the opponent holds my 9 (their 16).
    # 20/14 then 14/9 and 20/15 then 15/9 are both blocked, so only one die plays: the 6.
    position = Position.from_points({20: 1, 1: 14}, {16: 2, 1: 13})
    assert results(position, (6, 5)) == {"20/14"}
    assert _refusal("20/15", position, (6, 5)).reason == "must_play_larger"


def test_the_smaller_die_is_played_when_the_larger_cannot_be() -> None:
    # As above, but my 14 is closed too (their 11): only the 5 can be played.
    position = Position.from_points({20: 1, 1: 14}, {16: 2, 11: 2, 1: 11})
    assert results(position, (6, 5)) == {"20/15"}


def test_a_double_is_played_four_times_or_as_often_as_possible() -> None:
    assert all(len(play.steps) == 4 for play in legal_plays(Position.start(), (3, 3)))
    # One checker on my 24, the rest on my ace point, my 12 closed (their 13): 6-6 plays once.
    blocked = Position.from_points({24: 1, 1: 14}, {13: 2, 2: 13})
    assert results(blocked, (6, 6)) == {"24/18"}
    assert _refusal("24/18/12", blocked, (6, 6)).reason == "point_closed"


def test_no_legal_play_means_the_roll_is_lost() -> None:
    closed_board = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}
    position = Position.from_points({25: 1, 13: 14}, closed_board)
    assert legal_plays(position, (6, 6)) == ()
    assert _refusal("bar/19", position, (6, 6)).reason == "no_play"


def bear_off_example() -> Position:
    # Rule text: White 1:1 2:1 3:1 4:2 5:2 6:2 with six borne off; Black 19:3 20:3 21:3 22:2 23:2
    # 24:2 in White's numbers.
    white = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}
    black_white_numbers = {19: 3, 20: 3, 21: 3, 22: 2, 23: 2, 24: 2}
    black = {25 - point: count for point, count in black_white_numbers.items()}
    return Position.from_points(player=white, opponent=black)


def test_bearing_off_by_the_exact_number() -> None:
    position = bear_off_example()
    assert position.borne_off() == (6, 0)
    assert position.pip_counts() == (36, 57)
    play = parse_play("6/off 5/off", position, (6, 5))
    assert play.result.borne_off() == (0, 8)
    assert play.result.pip_counts() == (57, 25)


def test_a_number_above_the_highest_point_bears_off_from_the_highest() -> None:
    position = Position.from_points({4: 3, 2: 2}, {24: 15})
    assert results(position, (6, 5)) == {"4/off(2)"}
    assert _refusal("2/off 4/off", position, (6, 5)).reason == "higher_checker"


def test_moving_inside_the_home_board_is_allowed_instead_of_bearing_off() -> None:
    position = Position.from_points({6: 2, 5: 2}, {1: 15})
    # 6/off then 6/1 (or 6/1 then 6/off) moves inside instead of bearing off a second checker.
    assert results(position, (6, 5)) == {"6/off 5/off", "6/1 6/off"}


def test_bearing_off_only_with_every_checker_home() -> None:
    position = Position.from_points({9: 1, 6: 14}, {1: 15})
    assert _refusal("9/7 6/off", position, (6, 2)).reason == "not_all_home"
    # Bringing the last checker home first makes bearing off legal in the same turn.
    assert "9/3 6/4" in results(position, (6, 2))
    position = Position.from_points({8: 1, 6: 14}, {1: 15})
    assert "8/3 6/off" in results(position, (6, 5))


def test_a_checker_hit_while_bearing_off_must_come_back_around() -> None:
    # My blot on 3 is hit: with a checker on the bar I cannot bear off.
    position = Position.from_points({25: 1, 6: 10}, {24: 15})
    assert all(play.steps[0].start == 25 for play in legal_plays(position, (6, 5)))
    assert not any("off" in str(play) for play in legal_plays(position, (6, 5)))


def _refusal(text: str, position: Position, dice: tuple[int, int]) -> IllegalPlayError:
    with pytest.raises(IllegalPlayError) as refused:
        parse_play(text, position, dice)
    assert position.id() in str(refused.value)
    return refused.value
