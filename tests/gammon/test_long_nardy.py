"""Long nardy checker play, from the rule text; every expected play derived by hand.

Diagrams are in the numbering of the side on roll: own head 24, own home 1..6; the opponent's
head is then the player's 12 point and their point q is the player's q + 12 or q - 12.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidNotationError,
    Position,
    Variant,
    legal_plays,
    parse_play,
)
from tests.gammon.nardy_reference import has_forbidden_block, reference_results, their_point

START = Position.start(Variant.LONG_NARDY)


def plays(position: Position, dice: tuple[int, int]) -> set[str]:
    return {str(play) for play in legal_plays(position, dice)}


def nardy(player: dict[int, int], opponent: dict[int, int]) -> Position:
    return Position.from_points(player, opponent, Variant.LONG_NARDY)


def refusal(text: str, position: Position, dice: tuple[int, int]) -> str:
    with pytest.raises(IllegalPlayError) as error:
        parse_play(text, position, dice)
    assert position.id() in str(error.value)
    return error.value.reason


def test_the_start_has_all_fifteen_on_each_head() -> None:
    assert START.player[24] == START.opponent[24] == 15
    assert START.pip_counts() == (360, 360)
    assert START.opponent_on_point(12) == 15  # their head is my 12 point
    assert Position.from_id(START.id(), "long_nardy") == START
    assert Position.from_id(START.id()) != START  # the same ID read as backgammon


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((6, 6), {"24/18(2)"}),  # 18/12 is Black's head: the other two sixes are lost
        ((4, 4), {"24/16(2)"}),  # 16/12 is closed, so one checker could play only two fours
        ((3, 3), {"24/18(2)", "24/21 24/15"}),  # 24/12 with one checker is closed
        ((5, 5), {"24/4"}),  # one checker, all four fives: 19, 14, 9, 4
        ((6, 5), {"24/13"}),  # only one checker may leave the head
        ((2, 1), {"24/21"}),
    ],
)
def test_whites_opening_plays(dice: tuple[int, int], expected: set[str]) -> None:
    assert plays(START, dice) == expected


def test_black_answers_an_opening_five_five_with_four_four_from_one_checker() -> None:
    after_fives = parse_play("24/4", START, (5, 5)).result
    # White's checker on its 4 point is Black's 16: Black's 24/20/16 is closed after one four,
    # and Black may take only one checker off the head, so only 24/20 is played.
    assert plays(after_fives, (4, 4)) == {"24/20"}
    assert refusal("24/20(2)", after_fives, (4, 4)) == "head_rule"


def test_black_first_turn_six_six_still_takes_two_from_the_head() -> None:
    after_white = parse_play("24/13", START, (6, 5)).result
    assert plays(after_white, (6, 6)) == {"24/18(2)"}


def test_a_later_six_six_takes_only_one_checker_from_the_head() -> None:
    # White: 13 on the head, one on 13, one on 10; Black all on its head (my 12).
    # 24/18 (18/12 is closed), 13/7/1 and 10/4 use all four sixes with one head checker.
    position = nardy({24: 13, 13: 1, 10: 1}, {24: 15})
    assert plays(position, (6, 6)) == {"24/18 13/1 10/4"}
    assert refusal("24/18(2) 13/1", position, (6, 6)) == "head_rule"


def test_a_single_opposing_checker_closes_its_point_and_is_never_hit() -> None:
    # Black's lone checker on its 19 stands on my 7.
    position = nardy({24: 14, 13: 1}, {24: 14, 19: 1})
    assert "13/7" not in plays(position, (6, 1))
    assert not any("*" in text for text in plays(position, (6, 1)))
    assert refusal("13/7 24/23", position, (6, 1)) == "point_closed"


def test_six_points_in_a_row_need_an_opposing_checker_past_them() -> None:
    # White holds 10, 9, 8, 7, 6; 13/11 would close 11..6 (Black's 23..18). With every Black
    # checker on its head (its 24) nobody is past the block, so the step is refused.
    white = {24: 9, 13: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}
    trapped = nardy(white, {24: 15})
    assert refusal("13/11 24/23", trapped, (2, 1)) == "six_block"
    # 13/11 is possible only together with a step that first leaves one of 10..6.
    for play in legal_plays(trapped, (2, 1)):
        held = play.result.opponent
        assert not all(held[point] for point in range(6, 12))
    assert "13/11 10/9" in plays(trapped, (2, 1))
    # A Black checker on its 17 (my 5) is past the block: now it is allowed.
    passed = nardy(white, {24: 14, 17: 1})
    assert parse_play("13/11 24/23", passed, (2, 1)).result.opponent[11] == 1


def test_a_block_across_the_corner_from_one_to_twenty_four_counts_too() -> None:
    # White holds 24, 23, 22, 2, 1; 4/3 makes 3-2-1-24-23-22 (Black's 15..10 in a row).
    white = {24: 10, 23: 1, 22: 1, 4: 1, 2: 1, 1: 1}
    trapped = nardy(white, {24: 15})
    assert refusal("4/3 24/22", trapped, (2, 1)) == "six_block"
    # With a Black checker on its 9 (my 21), past the block, the same play is legal.
    passed = nardy(white, {24: 14, 9: 1})
    assert str(parse_play("4/3 24/22", passed, (2, 1))) == "24/22 4/3"


def test_a_block_checked_after_every_single_step() -> None:
    # 13/11 then 11/8 would never leave six in a row at the end (8 is already held), but the
    # block exists after the first step, so that route is refused; 13/10/8 is fine.
    white = {24: 9, 13: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}
    trapped = nardy(white, {24: 15})
    assert "13/8" in plays(trapped, (3, 2))
    play = parse_play("13/8", trapped, (3, 2))
    assert [step.end for step in play.steps] == [10, 8]


def test_bearing_off_exactly_or_moving_inside_the_home() -> None:
    # Checkers on 5 and 3 with 6-1: 5/off with the six (nothing on 6) and 3/2, or 5/4 and then
    # 4/off with the six: two different results.
    position = nardy({5: 1, 3: 1}, {24: 15})
    first = parse_play("5/off 3/2", position, (6, 1))
    second = parse_play("5/4 4/off", position, (6, 1))
    assert first.result.opponent[2] == 1
    assert second.result.opponent[3] == 1
    assert len(legal_plays(position, (6, 1))) == 2
    assert refusal("3/off 5/4", position, (6, 1)) == "higher_checker"


def test_no_bearing_off_while_a_checker_is_outside_the_home() -> None:
    position = nardy({7: 1, 5: 1, 3: 1}, {24: 15})
    assert refusal("5/off 7/6", position, (6, 1)) == "not_all_home"
    # 7/1 first brings everyone home, then the one: 5/4, 3/2 or 1/off; or 7/6 and 6/off.
    assert plays(position, (6, 1)) == {"7/1 5/4", "7/1 3/2", "7/off"}


def test_the_head_has_a_name_on_input() -> None:
    assert str(parse_play("h/13", START, (6, 5))) == "24/13"
    assert str(parse_play("HEAD/18(2)", START, (6, 6))) == "24/18(2)"
    with pytest.raises(InvalidNotationError):
        parse_play("24/18 6/bar", START, (6, 6))


def test_nardy_positions_round_trip_their_ids() -> None:
    position = nardy({24: 10, 23: 1, 22: 1, 4: 1, 2: 1, 1: 1}, {24: 14, 9: 1})
    assert Position.from_id(position.id(), "long_nardy") == position
    assert eval(repr(position), {"Position": Position}) == position
    with pytest.raises(ValueError, match="no bar"):
        nardy({25: 1, 24: 14}, {24: 15})
    with pytest.raises(ValueError, match="both sides"):
        nardy({12: 1, 24: 14}, {24: 15})


def self_play(seed: int, plies: int) -> list[tuple[Position, tuple[int, int]]]:
    rng = random.Random(seed)
    seen = []
    position = START
    for _ in range(plies):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        seen.append((position, dice))
        options = legal_plays(position, dice)
        if not options:
            position = position.swapped()
        elif (chosen := rng.choice(options)).result.opponent[0] == 15:
            position = START
        else:
            position = chosen.result
    return seen


def test_the_generator_agrees_with_a_plain_reference_on_self_play_positions() -> None:
    for position, dice in self_play(11, 3000):
        ours = {play.result.opponent for play in legal_plays(position, dice)}
        assert ours == reference_results(position.player, position.opponent, dice), (
            position,
            dice,
        )


@given(st.integers(0, 10_000), st.text(alphabet="0123456789/-*() ,hHoOfFead", max_size=30))
def test_any_text_gives_a_play_or_one_of_the_three_errors(seed: int, text: str) -> None:
    rng = random.Random(seed)
    position, dice = rng.choice(self_play(seed % 7, 60))
    try:
        play = parse_play(text, position, dice)
    except (InvalidNotationError, IllegalPlayError, AmbiguousPlayError):
        return
    assert play in legal_plays(position, dice)
    assert play.result.variant is Variant.LONG_NARDY


def test_every_step_of_every_play_respects_the_head_and_block_rules() -> None:
    for position, dice in self_play(5, 800):
        first_turn_double = (
            position.player[24] == 15 and dice[0] == dice[1] and dice[0] in (3, 4, 6)
        )
        for play in legal_plays(position, dice):
            board = list(position.player)
            from_head = 0
            for step in play.steps:
                assert not step.hit
                from_head += step.start == 24
                board[step.start] -= 1
                board[step.end] += 1
                if step.end:
                    assert not position.opponent[their_point(step.end)]
                assert not has_forbidden_block(board, list(position.opponent))
            assert from_head <= (2 if first_turn_double else 1)
            assert sum(play.result.player) == sum(play.result.opponent) == 15
