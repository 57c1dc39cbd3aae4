"""Our cube actions against GNU Backgammon's 2-ply cube analysis: on a fixed part of the
cached reference (``tests/data/gnubg-cube-reference.jsonl``, gnubg's output), and on a few
positions with gnubg itself when it is installed (``GAMMONBOT_GNUBG_TESTS=required`` makes a
missing gnubg a failure instead of a skip)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.api import CubeAdvice, Level
from engine.backgammon_cube import cube_advice
from tests.cube_reference import (
    BEAVER,
    CLEAR,
    CONTEXTS,
    PASS,
    TAKE,
    GnubgCube,
    ReferenceCase,
    action_loss,
    reference_cases,
)
from tests.gnubg_runner import cube_analyses, gnubg_executable, gnubg_required

MOST_CLEAR_DISAGREEMENTS = 0.05
"""The share of cube actions that may give away more than :data:`CLEAR` by gnubg's 2-ply
equities (gnubg's own 0-ply is at about 4.5 % on the whole file)."""


def answer_of(advice: CubeAdvice) -> str:
    return BEAVER if advice.beaver else TAKE if advice.take else PASS


def loss(case: ReferenceCase, cube: GnubgCube) -> float:
    advice = cube_advice(case.situation(), Level.EXPERT)
    return action_loss(
        cube, double=advice.double, answer=answer_of(advice), beavers=case.context.beavers
    )


def test_the_reference_covers_every_context_with_both_strata() -> None:
    cases = reference_cases()
    strata = Counter((case.context.name, case.stratum) for case in cases)
    for context in CONTEXTS:
        assert strata[(context.name, "any")] >= 30, context.name
    assert sum(1 for case in cases if case.stratum == "close") >= 500
    assert all(set(case.by_ply) == {0, 2} for case in cases)


def test_few_clear_disagreements_with_gnubg_on_a_fixed_part_of_the_reference() -> None:
    """Every sixteenth case of the file (93, all contexts and both strata; a close decision
    takes a cubeful search of 20-45 ms, so not the whole file: that is
    ``benchmarks/cube_agreement.py``)."""
    part = reference_cases()[::16]
    clear = [case for case in part if loss(case, case.best) > CLEAR]
    assert len(part) >= 90
    assert len(clear) / len(part) <= MOST_CLEAR_DISAGREEMENTS, [
        (case.context.name, case.position_id, case.best.text) for case in clear
    ]


def test_post_crawford_actions_agree_with_gnubg() -> None:
    """The trailer's double, too good or not, and the leader's take or (free) drop: the
    scores where a rule of thumb ("always double") used to stand in for the equities."""
    post_crawford = [
        case
        for case in reference_cases()
        if case.context.away[1] == 1 and not case.context.crawford and case.context.away[0] > 1
    ][::6]
    clear = [case for case in post_crawford if loss(case, case.best) > CLEAR]
    assert len(post_crawford) >= 50
    assert len(clear) <= 0.02 * len(post_crawford), [case.position_id for case in clear]


SEARCHED = [
    ("money", "/yCAhA4eQMHoDg"),
    ("3a-5a", "9wNAUQy/E0AFBQ"),
    ("5a-5a, redouble", "vgCGJCvgJwEUXg"),
    ("7a-3a, redouble", "2+4EAQjjdhsAQA"),
]
"""Decisions of the reference where Janowski's conversion of the chances alone
disagreed clearly with gnubg's 2-ply (the double or the answer off by 0.07 to 0.17) and the
cubeful two-roll search agrees (``engine.backgammon_cube``)."""


@pytest.mark.parametrize(("name", "position_id"), SEARCHED)
def test_close_decisions_agree_with_gnubg_by_the_search(name: str, position_id: str) -> None:
    [case] = [
        case
        for case in reference_cases()
        if (case.context.name, case.position_id) == (name, position_id)
    ]
    assert loss(case, case.best) <= CLEAR, case.best.text


# --- with gnubg itself -------------------------------------------------------------------------

LIVE = [
    ("money", "fu8AIEDbbQcQAA"),
    ("money, Jacoby", "fu8AIEDbbQcQAA"),
    ("money, beavers", "jLfBwQDMncEBAw"),
    ("2a-4a", "/zsIAgB/nRMAAA"),
    ("4a-1a post-Crawford", "n4MAg0M3uhBQEg"),
    ("1a-3a Crawford", "4HPwATDgc/ABMA"),
    *SEARCHED,
]
"""A handful of positions and contexts, of the file or not."""


@pytest.fixture(scope="module")
def live_answers() -> list[GnubgCube]:
    if gnubg_executable() is None:
        if gnubg_required():
            pytest.fail("GNU Backgammon (gnubg) is required but not installed")
        pytest.skip("GNU Backgammon (gnubg) is not installed")
    contexts = {context.name: context for context in CONTEXTS}
    requests = [contexts[name].request(position_id, (2,)) for name, position_id in LIVE]
    return [GnubgCube.from_json(answer["2"]) for answer in cube_analyses(requests, 600)]


def test_gnubg_still_gives_the_cached_answers(live_answers: list[GnubgCube]) -> None:
    """The reference file is gnubg's output: where a live position is in it, gnubg answers
    now as it did then."""
    cached = {(case.context.name, case.position_id): case.best for case in reference_cases()}
    compared = 0
    for (name, position_id), live in zip(LIVE, live_answers, strict=True):
        old = cached.get((name, position_id))
        if old is not None:
            assert live.text == old.text
            # gnubg's answers move in the fifth decimal with what it evaluated before
            assert live.no_double == pytest.approx(old.no_double, abs=1e-4)
            assert live.double_take == pytest.approx(old.double_take, abs=1e-4)
            compared += 1
    assert compared >= 1


def test_our_actions_agree_with_gnubg_on_a_handful(live_answers: list[GnubgCube]) -> None:
    contexts = {context.name: context for context in CONTEXTS}
    for (name, position_id), live in zip(LIVE, live_answers, strict=True):
        case = ReferenceCase(contexts[name], "live", position_id, "live", {2: live})
        assert loss(case, live) <= CLEAR, (name, position_id, live.text)
