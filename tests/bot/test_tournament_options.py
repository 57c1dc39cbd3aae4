"""``/tournament new``'s options from any text: read, or refused naming the word it cannot
read; never another error, whatever is typed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.match.options import OptionError
from bot.core.tournament.options import NAME_LENGTH, parse_tournament_options
from bot.core.tournament.settings import Kind
from gammon.clock import ClockSetting
from gammon.match_rules import MatchRules
from gammon.tournament import Bracket, Stage

WORDS = st.sampled_from(
    [
        "single", "double", "roundrobin", "swiss", "league", "consolation", "lastchance",
        "playoff", "random", "nardy", "nocube", "unrated", "hints", "money", "7", "0", "99",
        "rounds=5", "rounds=0", "group=6", "group=2", "days=3", "days=0", "final=9",
        "semifinal=25", "consolation=5", "lastchance=3", "losers=3", "closes=48h", "closes=0m",
        "time=24h", "up=2", "down=1", "clock=fast", "clock=9s+3m", "clock=x", '"', "“Cup”",
        "@bob", "level=expert", "ⅶ", "٣", "threads=off", "threads=on", "threads=maybe",
    ]
)  # fmt: skip


@settings(max_examples=300)
@given(st.lists(WORDS | st.text(max_size=12), max_size=12))
def test_any_words_are_read_or_refused_by_name(words: list[str]) -> None:
    text = " ".join(words)
    refused = ""
    try:
        options = parse_tournament_options(text)
    except OptionError as error:
        refused = error.word or "(nothing named)"
        options = None
    if options is None:
        assert refused != "(nothing named)"  # a refusal names the word it cannot read
        return
    settings_ = options.settings
    assert len(options.name) <= NAME_LENGTH
    assert 1 <= settings_.lengths.default <= 25
    assert not settings_.last_chance or settings_.consolation
    assert settings_.kind is Kind.SWISS or settings_.rounds == 0 or "rounds=" in text
    for length in (*settings_.lengths.by_bracket.values(), *settings_.lengths.by_stage.values()):
        assert 1 <= length <= 25
    # Threads are on unless the last threads= word says off.
    switches = [word for word in text.lower().split() if word in ("threads=on", "threads=off")]
    assert settings_.threads is (switches[-1:] != ["threads=off"])


def test_the_lengths_of_brackets_and_stages_are_read() -> None:
    options = parse_tournament_options(
        'double 5 losers=3 final=7 semifinal=7 days=4 closes=2d random "5/3/3 DE"'
    )
    assert options.settings.kind is Kind.DOUBLE
    assert options.settings.lengths.default == 5
    assert options.settings.lengths.by_bracket == {Bracket.LOSERS: 3}
    assert options.settings.lengths.by_stage == {Stage.FINAL: 7, Stage.SEMIFINAL: 7}
    assert options.settings.match_days == 4
    assert options.registration_seconds == 2 * 86400
    assert options.random_seeding
    assert options.name == "5/3/3 DE"
    assert options.settings.threads  # by default, where the platform has them


def test_threads_are_switched_off_and_kept_so() -> None:
    settings_ = parse_tournament_options("roundrobin threads=off").settings
    assert not settings_.threads
    assert settings_.stored_format() == {
        "kind": "round_robin",
        "group_size": 8,
        "playoff": False,
        "threads": False,
    }


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("single lastchance", "lastchance"),
        ("swiss", "rounds=0"),
        ("swiss rounds=99", "rounds=99"),
        ("double consolation", "consolation"),
        ("single money", "money"),
        ("single 7 expert", "expert"),
        ("single closes=0m", "closes=0m"),
        ("single days=99", "days=99"),
        ("single final=0", "final=0"),
        ("single threads=maybe", "threads=maybe"),
    ],
)
def test_what_cannot_be_read_is_named(text: str, word: str) -> None:
    with pytest.raises(OptionError) as refused:
        parse_tournament_options(text)
    assert refused.value.word == word


def test_a_clock_for_every_match_of_a_tournament() -> None:
    """Per point: each match's reserve follows its own length (5 and 9 points here)."""
    options = parse_tournament_options("single 5 final=9 clock=normal")
    clock = options.rules.clock
    assert clock == ClockSetting(10, 60, per_point=True)
    assert options.move_time_limit is None
    five = MatchRules.from_dict({**options.rules.to_dict(), "length": 5})
    nine = MatchRules.from_dict({**options.rules.to_dict(), "length": 9})
    assert five.clock is not None
    assert nine.clock is not None
    assert (five.clock.reserve_for(5), nine.clock.reserve_for(9)) == (300, 540)
