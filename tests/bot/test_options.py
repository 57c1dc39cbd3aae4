"""Reading the options of /challenge: only ASCII digits are numbers, and nothing else escapes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.match.options import ChallengeOptions, OptionError, parse_challenge_options
from gammon.clock import ClockSetting


@pytest.mark.parametrize(
    "word",
    [
        "²",  # superscript two
        "٣",  # Arabic-Indic three
        "５",  # fullwidth five
        "1e3",
        "-3",
        "0",
        "26",
        "3²",
        "9" * 5000,  # more digits than int() reads
    ],
)
def test_a_length_that_is_not_1_to_25_in_ascii_digits_is_refused(word: str) -> None:
    with pytest.raises(OptionError) as error:
        parse_challenge_options(f"nardy {word}")
    assert error.value.word == word


@pytest.mark.parametrize(("word", "length"), [("3", 3), ("1", 1), ("25", 25), ("07", 7)])
def test_ascii_lengths_are_read(word: str, length: int) -> None:
    assert parse_challenge_options(word).rules.length == length


@pytest.mark.parametrize("word", ["time=²h", "time=٣d", "limit=５m", "time=1e3", "time=-3h"])
def test_a_time_limit_in_other_digits_is_refused(word: str) -> None:
    with pytest.raises(OptionError) as error:
        parse_challenge_options(word)
    assert error.value.word == word


@pytest.mark.parametrize(
    ("word", "seconds"),
    [
        ("time=1m", 60),
        ("time=90m", 5400),
        ("time=4h", 14400),
        ("time=4", 14400),
        ("limit=30d", 2592000),
        ("time=off", None),
    ],
)
def test_time_limits_in_ascii_digits_are_read(word: str, seconds: int | None) -> None:
    assert parse_challenge_options(word).move_time_limit == seconds


WORDS = [
    "3",
    "25",
    "money",
    "nardy",
    "nocube",
    "cube",
    "jacoby",
    "beaver",
    "auto",
    "time=24h",
    "time=1m",
    "limit=off",
    "clock=fast",
    "clock=normal",
    "clock=10s+1m",
    "clock=",
    "clock=0s+0s",
    "²",
    "٣",
    "５",
    "0",
    "26",
    "time=²h",
    "İ",
    "ß",
    "\u0130",
]


def outcome(text: str) -> ChallengeOptions | OptionError:
    try:
        return parse_challenge_options(text)
    except OptionError as error:
        return error


@given(st.text())
def test_any_text_gives_options_or_an_option_error(text: str) -> None:
    assert isinstance(outcome(text), ChallengeOptions | OptionError)


@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=6))
def test_any_mix_of_option_words_gives_options_or_an_option_error(words: list[str]) -> None:
    assert isinstance(outcome(" ".join(words)), ChallengeOptions | OptionError)


def test_a_clock_is_read_into_the_rules_and_replaces_the_move_time_limit() -> None:
    options = parse_challenge_options("5 clock=fast")
    assert options.rules.clock == ClockSetting(8, 20, per_point=True)
    assert options.rules.clock.reserve_for(5) == 100
    assert options.move_time_limit is None  # the default 72 h is the clock's business now
    both = parse_challenge_options("7 clock=10s+1m time=24h")
    assert both.rules.clock == ClockSetting(10, 60)
    assert both.move_time_limit == 24 * 3600
    assert parse_challenge_options("3 clock=normal").rules.clock == ClockSetting(10, 60, True)


@pytest.mark.parametrize("text", ["3 clock=", "3 clock=slow", "3 clock=10s", "3 clock=5s+0m"])
def test_a_clock_that_cannot_be_read_is_named(text: str) -> None:
    with pytest.raises(OptionError) as refused:
        parse_challenge_options(text)
    assert refused.value.word == text.split()[1]


def test_a_clock_needs_a_backgammon_match() -> None:
    for text in ("money clock=fast", "5 nardy clock=fast"):
        with pytest.raises(OptionError, match="clocks are for backgammon matches"):
            parse_challenge_options(text)
