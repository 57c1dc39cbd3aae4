"""The move generator against GNU Backgammon on every position we have."""

from __future__ import annotations

from typing import NoReturn

import pytest

from gammon import Position, format_play, legal_plays, parse_play, play_parser
from tests.oracle import oracle_cases


def test_the_oracle_file_is_complete() -> None:
    cases = oracle_cases()
    assert len(cases) == 2000
    assert {case.kind for case in cases} >= {"contact", "race", "crashed", "bearoff_1sided"}
    assert any(case.dice[0] == case.dice[1] for case in cases)
    assert any(not case.result_ids for case in cases)


def test_every_result_set_equals_gnubg() -> None:
    mismatches = []
    for case in oracle_cases():
        position = Position.from_id(case.position_id)
        plays = legal_plays(position, case.dice)
        ours = [play.result.id() for play in plays]
        if len(ours) != len(set(ours)) or set(ours) != case.result_ids:
            mismatches.append((case.index, case.position_id, case.dice))
    assert mismatches == []


def test_every_legal_play_survives_format_then_parse() -> None:
    failures = []
    count = 0
    for case in oracle_cases():
        position = Position.from_id(case.position_id)
        for play in legal_plays(position, case.dice):
            count += 1
            text = format_play(play)
            try:
                parsed = parse_play(text, position, case.dice)
            except ValueError as error:
                failures.append((case.position_id, case.dice, text, str(error)))
                continue
            if parsed != play or parsed.result != play.result:
                failures.append((case.position_id, case.dice, text, str(parsed)))
    assert count == sum(len(case.result_ids) for case in oracle_cases())
    assert failures == []


def test_every_result_keeps_fifteen_checkers_a_side() -> None:
    for case in oracle_cases()[::7]:
        position = Position.from_id(case.position_id)
        for play in legal_plays(position, case.dice):
            assert sum(play.result.player) == 15
            assert sum(play.result.opponent) == 15
            assert all(count >= 0 for count in play.result.player + play.result.opponent)


def test_a_play_of_every_die_is_read_without_listing_the_legal_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole-play reading (``play_parser._whole_play``) must find, for the text of every
    legal play that moves every die (but for two checkers landing on a blot), GNU
    Backgammon's result and the same text, with no list of legal plays to match against
    (listing them here fails the test)."""
    listed = {
        case: legal_plays(Position.from_id(case.position_id), case.dice) for case in oracle_cases()
    }

    def no_listing(position: Position, roll: tuple[int, int]) -> NoReturn:
        raise AssertionError("the legal plays were listed")

    monkeypatch.setattr(play_parser, "_results_of", no_listing)
    read = 0
    for case, plays in listed.items():
        dice = 4 if case.dice[0] == case.dice[1] else 2
        for play in plays:
            ends = [step.end for step in play.steps]
            if len(play.steps) < dice or any(
                step.hit and ends.count(step.end) > 1 for step in play.steps
            ):
                continue  # the search reads it (which of two checkers hit is its to say)
            text = format_play(play)
            parsed = parse_play(text, play.start, case.dice)
            assert parsed.result.id() in case.result_ids
            assert (parsed, parsed.result, str(parsed)) == (play, play.result, text)
            assert parsed.hits() == play.hits()
            read += 1
    assert read > 33_000  # of the 35,221 legal plays gnubg lists
