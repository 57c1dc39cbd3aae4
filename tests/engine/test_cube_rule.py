"""The cube rule: the verdict is what the three equities say, by the comparisons written out
here and by GNU Backgammon's own verdicts on its own equities."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.api import CubeAdvice, CubeVerdict, Evaluation, Probabilities
from engine.cube_rule import BEAVER, PASS, TAKE, CubeEquities, cube_action
from engine.hints import action_name
from tests.cube_reference import reference_cases

equity = st.floats(min_value=-3.0, max_value=3.0, allow_nan=False)
DOUBLES = {CubeVerdict.DOUBLE_TAKE, CubeVerdict.DOUBLE_PASS, CubeVerdict.DOUBLE_BEAVER}
TOO_GOOD = {CubeVerdict.TOO_GOOD_TAKE, CubeVerdict.TOO_GOOD_PASS}


def advice_of(equities: CubeEquities, *, may_double: bool, beavers: bool) -> CubeAdvice:
    action = cube_action(equities, may_double=may_double, beavers=beavers)
    chances = Probabilities(0.5, 0.1, 0.0, 0.1, 0.0)
    return CubeAdvice(
        verdict=action.verdict,
        no_double=equities.no_double,
        double_take=equities.double_take,
        double_pass=equities.double_pass,
        double=action.double,
        take=action.take,
        beaver=action.beaver,
        evaluation=Evaluation(chances, 0.0, 0.0),
    )


@given(equity, equity, equity, st.booleans(), st.booleans())
def test_the_verdict_is_what_the_equities_imply(
    no_double: float, double_take: float, double_pass: float, beavers: bool, may_double: bool
) -> None:
    action = cube_action(
        CubeEquities(no_double, double_take, double_pass), may_double=may_double, beavers=beavers
    )
    # The taker leaves the doubler the least: a beaver is worth twice the take.
    beaver = beavers and 2 * double_take < min(double_take, double_pass)
    kept = min(double_take, 2 * double_take if beavers else double_take) <= double_pass
    assert action.beaver == beaver
    assert action.take == kept
    assert action.answer == (BEAVER if beaver else TAKE if kept else PASS)
    doubled = min(double_take, double_pass, 2 * double_take if beavers else double_pass)
    assert action.double == (may_double and doubled >= no_double)
    if not may_double:
        assert action.verdict is CubeVerdict.NO_CUBE
    elif action.double:
        expected = {TAKE: "double_take", PASS: "double_pass", BEAVER: "double_beaver"}
        assert action.verdict.value == expected[action.answer]
    elif no_double > double_pass:
        assert action.verdict in TOO_GOOD
        assert (action.verdict is CubeVerdict.TOO_GOOD_PASS) == (not kept)
    else:
        assert action.verdict is CubeVerdict.NO_DOUBLE
        assert kept  # whoever need not be doubled would keep a double


@given(equity, equity, equity, st.booleans(), st.booleans())
def test_the_words_say_what_the_numbers_say(
    no_double: float, double_take: float, double_pass: float, beavers: bool, redouble: bool
) -> None:
    """gnubg's words for the action never contradict the equities: "take" exactly when a
    double is kept (and no beaver is better), "pass" when it is not, "double" only when
    doubling is worth at least playing on."""
    advice = advice_of(
        CubeEquities(no_double, double_take, double_pass), may_double=True, beavers=beavers
    )
    name = action_name(advice, redouble=redouble)
    answer = name.rsplit(", ", 1)[1]
    assert answer == ("beaver" if advice.beaver else "take" if advice.take else "pass")
    assert (answer == "take") == (double_take <= double_pass and not advice.beaver)
    answers = [double_take, double_pass] + ([2 * double_take] if beavers else [])
    doubles = name.startswith(("Double", "Redouble"))
    assert doubles == (min(answers) >= no_double)
    assert name.startswith("Too good") == (not doubles and no_double > double_pass)


@pytest.mark.parametrize(
    ("equities", "beavers", "verdict", "answer"),
    [
        # gnubg 1.07's own numbers (2-ply, money) and words for them.
        (CubeEquities(1.338, 3.011, 1.0), False, CubeVerdict.TOO_GOOD_PASS, PASS),
        (CubeEquities(0.105, -0.171, 1.0), True, CubeVerdict.NO_DOUBLE, BEAVER),
        (CubeEquities(0.105, -0.171, 1.0), False, CubeVerdict.NO_DOUBLE, TAKE),
        (CubeEquities(0.975, 2.127, 1.0), False, CubeVerdict.DOUBLE_PASS, PASS),
        (CubeEquities(0.571, 0.580, 1.0), False, CubeVerdict.DOUBLE_TAKE, TAKE),
        # A sure win without gammons: doubling cashes as much as playing on (gnubg: double).
        (CubeEquities(1.0, 2.0, 1.0), False, CubeVerdict.DOUBLE_PASS, PASS),
        # Jacoby's paradox: an underdog's double that the taker should beaver.
        (CubeEquities(-0.5, -0.2, 1.0), True, CubeVerdict.DOUBLE_BEAVER, BEAVER),
    ],
)
def test_textbook_verdicts(
    equities: CubeEquities, beavers: bool, verdict: CubeVerdict, answer: str
) -> None:
    action = cube_action(equities, may_double=True, beavers=beavers)
    assert (action.verdict, action.answer) == (verdict, answer)


def test_without_a_gammon_to_win_nothing_is_too_good() -> None:
    """gnubg's sanity check: playing on can only be for a gammon. A no double equity a hair
    above the cash (gnubg 1.07 at 3-away/5-away: 1.000002, double/take 2.141) is a double and
    a pass; above a take, no double."""
    cash = cube_action(CubeEquities(1.000002, 2.141, 1.0), may_double=True, gammon_chances=False)
    assert (cash.verdict, cash.double) == (CubeVerdict.DOUBLE_PASS, True)
    roll = cube_action(CubeEquities(1.2, 0.9, 1.0), may_double=True, gammon_chances=False)
    assert (roll.verdict, roll.double, roll.answer) == (CubeVerdict.NO_DOUBLE, False, TAKE)


GNUBG_VERDICTS = {
    0: CubeVerdict.DOUBLE_TAKE,
    1: CubeVerdict.DOUBLE_PASS,
    2: CubeVerdict.NO_DOUBLE,
    3: CubeVerdict.TOO_GOOD_TAKE,
    4: CubeVerdict.TOO_GOOD_PASS,
    5: CubeVerdict.DOUBLE_BEAVER,
    6: CubeVerdict.NO_DOUBLE,  # no double, beaver
    7: CubeVerdict.DOUBLE_TAKE,  # redouble, take
    8: CubeVerdict.DOUBLE_PASS,
    9: CubeVerdict.NO_DOUBLE,
    10: CubeVerdict.TOO_GOOD_TAKE,
    11: CubeVerdict.TOO_GOOD_PASS,
    12: CubeVerdict.NO_DOUBLE,
    13: CubeVerdict.NO_CUBE,  # dead cube
    14: CubeVerdict.NO_CUBE,
    15: CubeVerdict.NO_CUBE,  # not available
    16: CubeVerdict.DOUBLE_TAKE,  # optional double, take: a tie, counted as a double
    17: CubeVerdict.DOUBLE_TAKE,
    18: CubeVerdict.DOUBLE_BEAVER,
    19: CubeVerdict.DOUBLE_PASS,
    20: CubeVerdict.DOUBLE_PASS,
}
"""gnubg's ``cubedecision`` codes (eval.h, in order) as our verdicts."""


def near_tie(equities: CubeEquities) -> bool:
    values = (equities.no_double, equities.double_take, equities.double_pass)
    pairs = [(a, b) for index, a in enumerate(values) for b in values[index + 1 :]]
    return any(abs(a - b) < 1e-5 for a, b in pairs) or abs(equities.double_take) < 1e-5


def test_the_rule_gives_gnubgs_verdicts_on_gnubgs_equities() -> None:
    """Every analysis in the reference file, at both depths: applied to gnubg's three
    equities, the rule names gnubg's own cube action."""
    checked = 0
    for case in reference_cases():
        for cube in case.by_ply.values():
            equities = CubeEquities(cube.no_double, cube.double_take, cube.double_pass)
            if near_tie(equities):
                continue  # the file's six decimals cannot say which side gnubg saw
            action = cube_action(
                equities,
                may_double=cube.available,
                beavers=case.context.beavers,
                gammon_chances=cube.probabilities[1] > 0,
            )
            assert action.verdict is GNUBG_VERDICTS[cube.decision], (case, cube.text)
            # gnubg beavers only a double/take between -2 and 0: below, the doubler is losing
            # gammons at twice the cube and a beaver, worth still more, is not named.
            if cube.double_take >= -2:
                assert action.beaver == ("beaver" in cube.text), (case, cube.text)
            checked += 1
    assert checked >= 2000
