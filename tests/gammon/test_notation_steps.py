"""Plays written one die's step at a time, in any order the steps can be played, as gnubg's
``.mat`` files write them (``25/22``, ``6/0``), and gnubg's two steps of a checker borne off.

The positions and every legal result are GNU Backgammon's (``tests/data/gnubg-plays-2000.jsonl``).
The steps are drawn by this file's own rules of a single step, and only sequences whose result
gnubg lists as a legal play are kept.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gammon import IllegalPlayError, Position, parse_play
from tests.oracle import OracleCase, oracle_cases

Step = tuple[int, int, int, bool]  # start, end, die, whether it hit

_PLAYABLE = [case for case in oracle_cases() if case.result_ids]
_BEAR_OFFS = [case for case in _PLAYABLE if case.kind.startswith("bearoff")]
_CASES = st.sampled_from(_BEAR_OFFS) | st.sampled_from(_PLAYABLE)


def _single_steps(mover: list[int], other: list[int], die: int) -> list[tuple[int, int]]:
    """Where one checker may step with ``die``: enter first; not onto two or more opposing
    checkers; off only with all fifteen home, by the exact number or from the highest point."""
    starts = [25] if mover[25] else [point for point in range(24, 0, -1) if mover[point]]
    found = []
    for start in starts:
        end = start - die
        if end > 0:
            if other[25 - end] < 2:
                found.append((start, end))
        elif not any(mover[7:]) and (end == 0 or not any(mover[start + 1 : 7])):
            found.append((start, 0))
    return found


def _draw_steps(data: st.DataObject, case: OracleCase) -> tuple[list[Step], str]:
    """Steps drawn one at a time until no die can move, and the resulting Position ID."""
    position = Position.from_id(case.position_id)
    mover, other = list(position.player), list(position.opponent)
    high, low = case.dice
    dice = [high] * 4 if high == low else [high, low]
    steps: list[Step] = []
    while options := sorted(
        (die, start, end) for die in set(dice) for start, end in _single_steps(mover, other, die)
    ):
        die, start, end = data.draw(st.sampled_from(options))
        hit = end > 0 and other[25 - end] == 1
        mover[start] -= 1
        mover[end] += 1
        if hit:
            other[25 - end] -= 1
            other[25] += 1
        dice.remove(die)
        steps.append((start, end, die, hit))
    return steps, Position(tuple(other), tuple(mover)).id()


def _written(steps: list[Step], data: st.DataObject) -> str:
    bar, off = data.draw(st.sampled_from([("bar", "off"), ("25", "0")]))
    names = {25: bar, 0: off}
    return " ".join(
        f"{names.get(start, start)}/{names.get(end, end)}{'*' if hit else ''}"
        for start, end, _die, hit in steps
    )


@given(_CASES, st.data())
def test_every_step_by_step_writing_of_a_legal_play_reads_as_it(
    case: OracleCase, data: st.DataObject
) -> None:
    steps, result = _draw_steps(data, case)
    assume(result in case.result_ids)  # stopping early, or on the smaller die, is no play
    text = _written(steps, data)
    assert parse_play(text, Position.from_id(case.position_id), case.dice).result.id() == result


def _borne_off_with_both_dice(case: OracleCase) -> list[tuple[int, str]]:
    """Each checker a legal play of the case bears off with both dice (its point) and that
    play's result: with the dice in one order each step is legal."""
    position = Position.from_id(case.position_id)
    mover, other = list(position.player), list(position.opponent)
    high, low = case.dice
    found = set()
    for die, rest in ((high, low), (low, high)):
        for start, end in _single_steps(mover, other, die):
            after = list(mover)
            after[start] -= 1
            after[end] += 1
            if end > 0 and not other[25 - end] and (end, 0) in _single_steps(after, other, rest):
                after[end] -= 1
                after[0] += 1
                found.add((start, Position(tuple(other), tuple(after)).id()))
    return sorted(found)


def test_a_checker_borne_off_in_two_steps_reads_with_either_die_first() -> None:
    """gnubg splits ``6/off`` with 5-2 into two steps by the die it tries first, legal or not
    (``6/1 1/0`` while a checker stands on 4); through a point no opposing checker holds,
    either order means the play that bears that checker off. Every such checker of the
    oracle's positions, both ways."""
    written = not_step_by_step = 0
    for case in _PLAYABLE:
        high, low = case.dice
        if high == low:
            continue
        position = Position.from_id(case.position_id)
        for start, result in _borne_off_with_both_dice(case):
            assert result in case.result_ids
            for first, second in ((high, low), (low, high)):
                via = start - first
                if via <= 0 or position.opponent[25 - via]:
                    continue
                text = f"{start}/{via} {via}/0"
                assert parse_play(text, position, case.dice).result.id() == result, text
                written += 1
                after = list(position.player)
                after[start] -= 1
                after[via] += 1
                not_step_by_step += (via, 0) not in _single_steps(
                    after, list(position.opponent), second
                )
    assert written > 50
    assert not_step_by_step >= 1  # a writing that only the whole checker's way makes legal


@st.composite
def _chain_positions(draw: st.DrawFn) -> tuple[Position, tuple[int, int], int]:
    """All White's checkers home, one on ``start`` that neither die alone bears off but both
    together do, other checkers around it, and Black's checkers (blots, points) on the rest
    of White's home board."""
    high = draw(st.integers(2, 5))
    low = draw(st.integers(1, high - 1))
    start = draw(st.integers(high + 1, min(6, high + low)))
    white = {start: 1}
    for point in range(1, 7):
        extra = draw(st.integers(0, min(3, 15 - sum(white.values()))))
        if extra:
            white[point] = white.get(point, 0) + extra
    black = {}
    for point in set(range(1, 7)) - set(white):
        count = draw(st.sampled_from([0, 0, 1, 2]))
        if count:
            black[25 - point] = count
    return Position.from_points(white, black), (high, low), start


@given(_chain_positions())
def test_a_generated_checker_borne_off_in_two_steps_reads_with_either_die_first(
    drawn: tuple[Position, tuple[int, int], int],
) -> None:
    position, (high, low), start = drawn
    mover, other = list(position.player), list(position.opponent)

    def legal_in_order(first: int, second: int) -> bool:
        via = start - first
        if (start, via) not in _single_steps(mover, other, first) or other[25 - via]:
            return False
        after = list(mover)
        after[start] -= 1
        after[via] += 1
        return (via, 0) in _single_steps(after, other, second)

    assume(legal_in_order(high, low) or legal_in_order(low, high))
    expected = list(mover)
    expected[start] -= 1
    expected[0] += 1
    for first in (high, low):
        via = start - first
        if other[25 - via]:
            continue
        play = parse_play(f"{start}/{via} {via}/0", position, (high, low))
        assert (play.result.opponent, play.result.player) == (tuple(expected), position.opponent)


# White: 3 on the ace, 2 on the deuce, 9 on the four point, 1 on the six; 5-2 to play. GNU
# Backgammon wrote 6/off as "6/1 1/0": the 1/off with the 2 is no legal step while the 4 and
# 2 points are held, but the checker's way with the 2 first (6/4, then 4/off) is.
SIX_OFF = Position.from_id("CIxy+Ak3/wkAAA")
SIX_OFF_AFTER = {1: 3, 2: 2, 4: 9}  # White's checkers after 6/off, 1 borne off


def _points(side: tuple[int, ...]) -> dict[int, int]:
    return {point: count for point, count in enumerate(side) if count and point}


def test_gnubgs_six_one_one_off_with_five_two_is_six_off() -> None:
    assert _points(SIX_OFF.player) == {1: 3, 2: 2, 4: 9, 6: 1}
    for text in ("6/1 1/0", "6/1 1/off", "1/0 6/1", "6/4 4/0", "6/off"):
        play = parse_play(text, SIX_OFF, (5, 2))
        assert str(play) == "6/off"
        assert _points(play.result.opponent) == SIX_OFF_AFTER
        assert play.result.opponent[0] == 1


def test_two_steps_that_leave_a_checker_behind_stay_illegal() -> None:
    """Only a way through an empty point that a legal play takes is read: 6/1 1/0 with two
    checkers on the six leaves one there, which no legal play does."""
    two_on_six = Position.from_points({6: 2, 1: 13}, {20: 2})
    with pytest.raises(IllegalPlayError) as error:
        parse_play("6/1 1/0", two_on_six, (5, 2))
    assert error.value.reason == "higher_checker"
