"""The cube action from the three cubeful equities: the one rule behind hints, the bot's own
doubles and answers, and the judging of played cube decisions.

The equities are the decider's (the player who may double), normalised to the cube as it is:
no double, double/take (the cube turned and on the taker's side) and double/pass (the cube's
value cashed: 1 in money play, the match equity table's value in a match). The taker answers
a double with whatever leaves the doubler least: a take, a pass or, in money play with
beavers, a beaver, which keeps the take's cube at twice the value and so is worth twice the
double/take equity. The doubler doubles when the double, answered so, is worth at least as
much as playing on. Playing on although a double would be passed is "too good to double":
the no double equity is above the cash, and there is a gammon to play for. GNU Backgammon's
``FindBestCubeDecision`` decides the same way; its "optional" doubles (exact ties) count as
doubles here, and where it names no beaver for a double/take below -2 the equities still
say beaver.

>>> cube_action(CubeEquities(0.6, 0.9, 1.0), may_double=True).verdict
<CubeVerdict.DOUBLE_TAKE: 'double_take'>
>>> cube_action(CubeEquities(1.3, 3.0, 1.0), may_double=True).verdict
<CubeVerdict.TOO_GOOD_PASS: 'too_good_pass'>
>>> action = cube_action(CubeEquities(0.1, -0.17, 1.0), may_double=True, beavers=True)
>>> action.verdict, action.take, action.beaver
(<CubeVerdict.NO_DOUBLE: 'no_double'>, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.api import CubeVerdict

TAKE: Final = "take"
PASS: Final = "pass"
BEAVER: Final = "beaver"


@dataclass(frozen=True)
class CubeEquities:
    """The decider's three cubeful equities, normalised to the cube as it is."""

    no_double: float
    double_take: float
    double_pass: float


@dataclass(frozen=True)
class CubeAction:
    """The proper cube action: ``double`` whether the decider should double now (never when
    they may not), ``answer`` the taker's best answer to a double (also one offered anyway),
    and the verdict naming both."""

    verdict: CubeVerdict
    double: bool
    answer: str

    @property
    def take(self) -> bool:
        """The double is kept (taken or beavered), not passed."""
        return self.answer != PASS

    @property
    def beaver(self) -> bool:
        return self.answer == BEAVER


def answer_equities(equities: CubeEquities, beavers: bool = False) -> dict[str, float]:
    """What each answer open to the taker leaves the doubler (take, pass, beaver)."""
    answers = {TAKE: equities.double_take, PASS: equities.double_pass}
    if beavers:
        answers[BEAVER] = 2 * equities.double_take
    return answers


def best_answer(equities: CubeEquities, beavers: bool = False) -> str:
    """The taker's best answer: the one that leaves the doubler least; on a tie a take
    before a pass or a beaver."""
    answers = answer_equities(equities, beavers)
    return min(answers, key=lambda name: answers[name])


def double_equity(equities: CubeEquities, beavers: bool = False) -> float:
    """What a double is worth to the doubler when the taker answers it best."""
    return answer_equities(equities, beavers)[best_answer(equities, beavers)]


def cube_action(
    equities: CubeEquities,
    *,
    may_double: bool,
    beavers: bool = False,
    gammon_chances: bool = True,
) -> CubeAction:
    """The cube action the equities imply. ``may_double``: whether the decider may turn the
    cube now (in play, theirs or centred, not the Crawford game, not dead); without it the
    verdict is :attr:`CubeVerdict.NO_CUBE` and only the answer is given. ``beavers``: money
    play with beavers allowed. ``gammon_chances``: whether the decider can still win a
    gammon; without one there is nothing to play on for, and a no double equity above the
    cash (rounding, or an estimate's slip) is not read as "too good": a double that would be
    passed is made, as gnubg's sanity check has it."""
    answer = best_answer(equities, beavers)
    if not may_double:
        return CubeAction(CubeVerdict.NO_CUBE, double=False, answer=answer)
    doubled = answer_equities(equities, beavers)[answer]
    cashes = answer == PASS
    if doubled >= equities.no_double or (cashes and not gammon_chances):
        verdicts = {
            TAKE: CubeVerdict.DOUBLE_TAKE,
            PASS: CubeVerdict.DOUBLE_PASS,
            BEAVER: CubeVerdict.DOUBLE_BEAVER,
        }
        return CubeAction(verdicts[answer], double=True, answer=answer)
    if equities.no_double > equities.double_pass and gammon_chances:
        verdict = CubeVerdict.TOO_GOOD_PASS if cashes else CubeVerdict.TOO_GOOD_TAKE
        return CubeAction(verdict, double=False, answer=answer)
    return CubeAction(CubeVerdict.NO_DOUBLE, double=False, answer=answer)
