"""Reading the options of /challenge: only ASCII digits are numbers, and nothing else escapes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.match.options import ChallengeOptions, OptionError, parse_challenge_options


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
