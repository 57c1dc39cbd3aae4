"""Reading and writing plays in standard notation."""

from __future__ import annotations

from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gammon import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidNotationError,
    PlayError,
    Position,
    format_play,
    legal_plays,
    parse_play,
    play_parser,
)
from gammon.notation import MAX_INPUT_LENGTH
from tests.oracle import oracle_cases

START = Position.start()
# Black's blot on White's 10 point (the rule text's hitting example), White on roll.
HIT_EXAMPLE = Position.from_points(
    {5: 1, 6: 4, 8: 3, 13: 5, 24: 2}, {24: 2, 15: 1, 13: 5, 8: 3, 6: 4}
)
# After White hit, Black is on the bar (White's 10-point checker stands on Black's 15).
ON_BAR = parse_play("13/10 6/5", HIT_EXAMPLE, (3, 1)).result
# White: everything home, ready to bear off.
BEAR_OFF = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {1: 15})


@pytest.mark.parametrize(
    ("text", "position", "dice", "canonical"),
    [
        ("8/5 6/5", START, (3, 1), "8/5 6/5"),
        ("13/10* 6/5", HIT_EXAMPLE, (3, 1), "13/10* 6/5"),
        ("13/10 6/5", HIT_EXAMPLE, (3, 1), "13/10* 6/5"),
        ("bar/22 24/23", ON_BAR, (3, 1), "bar/22 24/23"),
        ("b/22 24/23", ON_BAR, (3, 1), "bar/22 24/23"),
        ("25/22 24/23", ON_BAR, (3, 1), "bar/22 24/23"),
        ("BAR/22 24/23", ON_BAR, (3, 1), "bar/22 24/23"),
        ("6/off 1/off", BEAR_OFF, (6, 1), "6/off 1/off"),
        ("6/o 1/o", BEAR_OFF, (6, 1), "6/off 1/off"),
        ("6/0 1/0", BEAR_OFF, (6, 1), "6/off 1/off"),
        ("6/OFF(3), 5/off", BEAR_OFF, (6, 6), "6/off(3) 5/off"),
        ("8/5(2) 6/3(2)", START, (3, 3), "8/5(2) 6/3(2)"),
        ("24/18/13", START, (6, 5), "24/13"),
        ("24/13", START, (6, 5), "24/13"),
        ("13-10 6-5", HIT_EXAMPLE, (3, 1), "13/10* 6/5"),
        ("13 10 6 5", HIT_EXAMPLE, (3, 1), "13/10* 6/5"),
        ("8 5 6 5", START, (3, 1), "8/5 6/5"),
        ("8/5, 6/5", START, (3, 1), "8/5 6/5"),
        ("8/5,6/5", START, (3, 1), "8/5 6/5"),
        ("  8/5     6/5  ", START, (3, 1), "8/5 6/5"),
        ("6/5 8/5", START, (3, 1), "8/5 6/5"),
        ("31: 8/5 6/5", START, (3, 1), "8/5 6/5"),
        ("13: 8/5 6/5", START, (3, 1), "8/5 6/5"),
        ("8/5* 6/5*", START, (3, 1), "8/5 6/5"),
        ("13 / 10 * , 6 / 5", HIT_EXAMPLE, (3, 1), "13/10* 6/5"),
    ],
)
def test_accepted_spellings(
    text: str, position: Position, dice: tuple[int, int], canonical: str | None
) -> None:
    play = parse_play(text, position, dice)
    assert play in legal_plays(position, dice)
    if canonical is not None:
        assert format_play(play) == canonical == str(play)


def test_hits_are_worked_out_not_trusted() -> None:
    with_star = parse_play("13/10* 6/5", HIT_EXAMPLE, (3, 1))
    without = parse_play("13/10 6/5", HIT_EXAMPLE, (3, 1))
    assert with_star == without
    assert with_star.result.on_bar() == (1, 0)


def test_hit_and_continue_is_written_with_the_hit_point() -> None:
    # An opposing blot on my 7: 13/7*/5 hits on the way, 13/11/5 does not.
    position = Position.from_points({13: 2, 6: 13}, {18: 1, 1: 14})
    texts = {str(play) for play in legal_plays(position, (6, 2))}
    assert "13/7*/5" in texts
    assert "13/11/5" in texts  # the quiet route names its landing point to tell the two apart
    assert parse_play("13/7/5", position, (6, 2)).hits() == 1
    with pytest.raises(AmbiguousPlayError) as error:
        parse_play("13/5", position, (6, 2))
    assert {str(play) for play in error.value.candidates} == {"13/7*/5", "13/11/5"}


def test_a_partial_play_with_a_single_completion_is_accepted() -> None:
    # With a checker on the bar and 6-6 against a board holding everything but my 18 point
    # exit, only the entering checker's moves matter; here simply: one checker left to bear off.
    position = Position.from_points({3: 1, 1: 1}, {1: 15})
    assert str(parse_play("3/off", position, (5, 4))) == "3/off 1/off"


def test_a_partial_play_with_several_completions_is_ambiguous() -> None:
    with pytest.raises(AmbiguousPlayError) as error:
        parse_play("13/7", START, (6, 5))
    names = {str(play) for play in error.value.candidates}
    assert {"13/8 13/7", "13/7 8/3", "13/2"} <= names
    assert START.id() in str(error.value)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("13/11", "wrong_distance"),
        ("24/16", "wrong_distance"),
        ("12/9 6/5", "no_checker"),
        ("6/off", "not_all_home"),
        ("8/5 6/5 13/10", "too_many_moves"),
        ("8/11", "backwards"),
        ("42: 8/5 6/5", "dice_mismatch"),
    ],
)
def test_illegal_plays_say_why_and_offer_the_closest(text: str, reason: str) -> None:
    with pytest.raises(IllegalPlayError) as error:
        parse_play(text, START, (3, 1))
    assert error.value.reason == reason
    assert 1 <= len(error.value.alternatives) <= 3
    assert all(play in legal_plays(START, (3, 1)) for play in error.value.alternatives)
    assert START.id() in str(error.value)
    assert "Closest legal plays" in str(error.value)


def test_the_closest_alternatives_share_the_intended_move() -> None:
    with pytest.raises(IllegalPlayError) as error:
        parse_play("8/5 6/2", START, (3, 1))
    assert "8/5 6/5" in {str(play) for play in error.value.alternatives}


def test_entering_first_is_named_when_a_checker_waits_on_the_bar() -> None:
    with pytest.raises(IllegalPlayError) as error:
        parse_play("13/10 13/10", ON_BAR, (3, 3))
    assert error.value.reason == "bar_first"


def test_a_closed_point_is_named_not_a_bear_off_rule() -> None:
    # 6/1 lands on the opponent's 24 point (two checkers); the 6/4 route would overshoot.
    with pytest.raises(IllegalPlayError) as error:
        parse_play("13/11 6/1", START, (5, 2))
    assert error.value.reason == "point_closed"


def test_a_closed_point_is_named() -> None:
    # White's 13/8 lands on 8 (own checkers) but 24/19 is Black's 6-point, held by four.
    with pytest.raises(IllegalPlayError) as error:
        parse_play("24/19 13/7", HIT_EXAMPLE, (6, 5))
    assert error.value.reason == "point_closed"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "xyz",
        "8/",
        "/5",
        "8/5/",
        "8//5",
        "8/5(0)",
        "8/5(9)",
        "26/20",
        "off/5",
        "8/bar",
        "6/off/3",
        "8 5 6",
        "8/5 x",
        "(2)",
        "8/5)(",
    ],
)
def test_unreadable_text_is_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotationError) as error:
        parse_play(text, START, (3, 1))
    assert START.id() in str(error.value)


def test_overlong_input_is_refused_without_reading_it() -> None:
    # A legal play padded with blanks: read, it would be accepted; the length alone refuses it.
    text = "8/5 6/5" + " " * (MAX_INPUT_LENGTH + 1)
    with pytest.raises(InvalidNotationError, match=str(MAX_INPUT_LENGTH)):
        parse_play(text, START, (3, 1))
    assert parse_play("8/5 6/5" + " " * 10, START, (3, 1))


def test_every_error_is_a_value_error() -> None:
    for error_type in (InvalidNotationError, IllegalPlayError, AmbiguousPlayError):
        assert issubclass(error_type, PlayError)
        assert issubclass(error_type, ValueError)


notation_text = st.text(alphabet="0123456789/-*() ,;:bBaArRoOfF\t", max_size=40)
cases = st.sampled_from(oracle_cases()[::10])


@given(cases, st.text(max_size=60) | notation_text)
def test_any_text_gives_a_play_or_one_of_the_three_errors(case: object, text: str) -> None:
    position = Position.from_id(case.position_id)  # type: ignore[attr-defined]
    dice = case.dice  # type: ignore[attr-defined]
    try:
        play = parse_play(text, position, dice)
    except (InvalidNotationError, IllegalPlayError, AmbiguousPlayError):
        return
    assert play in legal_plays(position, dice)
    assert sum(play.result.player) == sum(play.result.opponent) == 15


@pytest.mark.parametrize("text", ["9/8 11/8", "11/8 9/8", "9/8* 11/8", "11/8* 9/8"])
def test_two_checkers_landing_on_a_blot_are_written_with_the_listed_hitter(text: str) -> None:
    """Two checkers land on the blot on 8: the text names the hitter as the listed play
    does, however the moves were typed (the whole-play reading once wrote 11/8 9/8*)."""
    position = Position.from_id("PkoA1QY3IIXEJg")
    assert str(parse_play(text, position, (3, 1))) == "11/8* 9/8"


def _outcome(text: str, position: Position, dice: tuple[int, int]) -> tuple[object, ...]:
    try:
        play = parse_play(text, position, dice)
    except (InvalidNotationError, IllegalPlayError, AmbiguousPlayError) as error:
        return (type(error).__name__, str(error))
    return ("play", play, play.result, str(play), play.hits())


@given(st.data())
def test_reading_a_whole_play_agrees_with_the_search(data: st.DataObject) -> None:
    """Whatever is typed, reading a play that moves every die without listing the legal
    plays gives what matching against them gives: the same play, text and hits, or the same
    error and message. Texts are legal plays' moves reordered, cut short, with hits dropped
    or added, or anything at all."""
    case = data.draw(cases)
    position = Position.from_id(case.position_id)
    plays = legal_plays(position, case.dice)
    moves = data.draw(st.sampled_from([format_play(play) for play in plays] or ["24/18"])).split()
    typed = data.draw(st.permutations(moves))
    typed = typed[: data.draw(st.integers(1, len(typed)))]
    if data.draw(st.booleans()):
        typed = [move.replace("*", "") for move in typed]
    text = " ".join(typed) + data.draw(st.sampled_from(["", "*"]))
    text = data.draw(st.sampled_from([text, text.replace("/", " / ")]) | notation_text)
    fast = _outcome(text, position, case.dice)
    with mock.patch.object(play_parser, "_whole_play", return_value=None):
        searched = _outcome(text, position, case.dice)
    assert fast == searched


def test_a_long_ambiguity_names_five_and_counts_the_rest() -> None:
    with pytest.raises(AmbiguousPlayError) as error:
        parse_play("24/18", START, (6, 6))
    assert len(error.value.candidates) == 7
    assert "or 2 more" in str(error.value)
    assert all(str(play).startswith("24/18") for play in error.value.candidates)


def test_a_play_survives_pickling_with_its_steps() -> None:
    """Plays travel to worker processes (replay frames to draw): pickled and back, a play is
    the same play, steps and notation alike."""
    import pickle

    position = Position.from_id("4HPwATDgc/ABMA")  # the start, after 3-1 to play
    play = parse_play("24/21 6/5", position, (3, 1))
    copy = pickle.loads(pickle.dumps(play))
    assert copy == play
    assert copy.steps == play.steps
    assert str(copy) == "24/21 6/5"
    assert copy.hits() == play.hits() == 0
