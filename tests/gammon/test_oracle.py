"""The move generator against GNU Backgammon on every position we have."""

from __future__ import annotations

from gammon import Position, format_play, legal_plays, parse_play
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
