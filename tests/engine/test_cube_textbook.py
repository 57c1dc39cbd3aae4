"""Cube decisions whose answers come from backgammon theory, not from the engine.

Each position says why its verdict is the textbook one. Both the expert (the plain net) and
world class (one more ply) must agree with theory; the positions are chosen clear of the
borderline, so a good engine cannot disagree.

Race positions use the rule of thumb for pure races of about 100 pips (Trice's "8-9-12":
the leader doubles with a lead of 8 % or more, redoubles at 9 %, and the trailer passes
beyond about 12 %; in short races the thresholds fall).
"""

from __future__ import annotations

import pytest

from engine.api import CubeOwner, CubeVerdict, Level, Situation
from engine.backgammon_cube import cube_advice
from gammon import Position, parse_play

LEVELS = (Level.EXPERT, Level.WORLD_CLASS)

# A smooth racing formation of 100 pips: everything home or on the way, no gaps to speak of.
RACER_100 = {4: 3, 5: 2, 6: 3, 7: 2, 8: 2, 9: 1, 10: 1, 11: 1}
# Opponents for it (in the opponent's own numbering; no contact with the racer: their
# highest point is at most 13, which is the racer's 12).
TRAILING_104 = {4: 3, 5: 2, 6: 3, 8: 2, 9: 3, 10: 1, 11: 1}
TRAILING_109 = {4: 3, 5: 2, 6: 3, 7: 1, 8: 2, 9: 1, 12: 2, 13: 1}
TRAILING_122 = {4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 12: 1, 13: 2}
LEADING_85 = {3: 1, 4: 3, 5: 3, 6: 5, 8: 2, 9: 1}

# The decider's board is closed (points 1 to 6) and the opponent has two checkers on the bar:
# the opponent cannot even enter, and most of their checkers are still far from home.
BLITZ = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 8: 3}, {25: 2, 13: 5, 8: 3, 6: 5})
# The leader's opening 3-1 (8/5 6/5, the best opening roll), now the other side is on roll.
AFTER_OPENING_31 = parse_play("8/5 6/5", Position.start(), (3, 1)).result


def race(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    return Position.from_points(mine, theirs)


def verdicts(situation: Situation) -> set[CubeVerdict]:
    return {cube_advice(situation, level).verdict for level in LEVELS}


def test_the_race_positions_have_the_pip_counts_they_claim() -> None:
    assert race(RACER_100, TRAILING_104).pip_counts() == (100, 104)
    assert race(RACER_100, TRAILING_109).pip_counts() == (100, 109)
    assert race(RACER_100, TRAILING_122).pip_counts() == (100, 122)
    assert race(RACER_100, LEADING_85).pip_counts() == (100, 85)


# --- money play -------------------------------------------------------------------------------


def test_the_opening_position_is_no_double() -> None:
    """Before the first roll the game is even: nothing to double with (the market cannot be
    lost in one exchange)."""
    assert verdicts(Situation(Position.start())) == {CubeVerdict.NO_DOUBLE}


def test_a_small_racing_lead_is_no_double() -> None:
    """A 4 % lead at 100 pips is well short of the 8 % doubling point."""
    assert verdicts(Situation(race(RACER_100, TRAILING_104))) == {CubeVerdict.NO_DOUBLE}


def test_a_nine_percent_racing_lead_is_double_take() -> None:
    """9 % at 100 pips: past the doubling point (8 %), short of the passing point (12 %)."""
    situation = Situation(race(RACER_100, TRAILING_109))
    assert verdicts(situation) == {CubeVerdict.DOUBLE_TAKE}
    assert all(cube_advice(situation, level).take for level in LEVELS)


def test_a_racing_lead_of_22_percent_is_double_pass() -> None:
    """22 % at 100 pips is far beyond the 12 % a taker can stand."""
    situation = Situation(race(RACER_100, TRAILING_122))
    assert verdicts(situation) == {CubeVerdict.DOUBLE_PASS}
    assert not any(cube_advice(situation, level).take for level in LEVELS)


def test_a_late_race_far_ahead_is_double_pass() -> None:
    """40 pips against 55 (a 37 % lead) with both sides bearing off: the trailer wins only if
    the leader misses badly; both have borne checkers off, so there are no gammons to play
    for and cashing is right."""
    position = race({2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, {2: 2, 3: 3, 4: 2, 5: 2, 6: 4})
    assert position.pip_counts() == (40, 55)
    assert verdicts(Situation(position)) == {CubeVerdict.DOUBLE_PASS}


def test_a_closed_out_blitz_is_too_good() -> None:
    """Opponent closed out with two on the bar and far from home: the game is won and mostly
    a gammon. A double would be passed and cash one point; playing on wins about two."""
    advice = {level: cube_advice(Situation(BLITZ), level) for level in LEVELS}
    assert {a.verdict for a in advice.values()} == {CubeVerdict.TOO_GOOD_PASS}
    assert all(a.no_double > 1.5 and not a.double for a in advice.values())


def test_under_jacoby_the_same_blitz_must_be_doubled_and_passed() -> None:
    """The Jacoby rule: gammons count only once the cube has been turned. Playing on with a
    centred cube can win one point at most, so the leader doubles and the trailer passes."""
    assert verdicts(Situation(BLITZ, jacoby=True)) == {CubeVerdict.DOUBLE_PASS}


def test_a_double_from_the_underdog_is_a_beaver() -> None:
    """Down 15 % in a 100-pip race (about 30 % to win): a double would give the taker a big
    edge at twice the stake, so with beavers allowed they beaver. The underdog must not
    double."""
    position = race(RACER_100, LEADING_85)
    for level in LEVELS:
        advice = cube_advice(Situation(position, jacoby=True, beavers=True), level)
        assert advice.verdict is CubeVerdict.NO_DOUBLE
        assert advice.take
        assert advice.beaver
        assert advice.double_take < advice.no_double < 0
        assert not cube_advice(Situation(position), level).beaver  # beavers not played


def test_nobody_doubles_a_cube_the_opponent_owns() -> None:
    situation = Situation(
        race(RACER_100, TRAILING_122), cube_value=2, cube_owner=CubeOwner.OPPONENT
    )
    advice = cube_advice(situation, Level.EXPERT)
    assert advice.verdict is CubeVerdict.NO_CUBE
    assert not advice.double


def test_the_owner_of_the_cube_redoubles_a_nine_percent_lead() -> None:
    """Owning the cube (9 % lead, the redoubling point): redouble, take."""
    situation = Situation(race(RACER_100, TRAILING_109), cube_value=2, cube_owner=CubeOwner.DECIDER)
    assert verdicts(situation) == {CubeVerdict.DOUBLE_TAKE}


# --- match play -------------------------------------------------------------------------------


@pytest.mark.parametrize("away", [(1, 3), (3, 1)])
def test_nobody_doubles_in_the_crawford_game(away: tuple[int, int]) -> None:
    """The Crawford rule: in the first game after a player reaches 1-away the cube is out."""
    situation = Situation(AFTER_OPENING_31, away=away, crawford=True)
    assert verdicts(situation) == {CubeVerdict.NO_CUBE}


@pytest.mark.parametrize("trailer_away", [2, 3, 4, 5])
def test_after_crawford_the_trailer_doubles_at_once_and_the_leader_takes(
    trailer_away: int,
) -> None:
    """Post-Crawford the leader's cube is dead (he needs one point), so the trailer loses
    nothing by doubling and gains by denying the leader a cheap drop later: double at the
    first chance. The leader, a favourite here after making his 5-point, takes."""
    situation = Situation(AFTER_OPENING_31, away=(trailer_away, 1))
    for level in LEVELS:
        advice = cube_advice(situation, level)
        assert advice.verdict is CubeVerdict.DOUBLE_TAKE
        assert advice.double
        assert advice.take


def test_after_crawford_the_leader_cannot_double() -> None:
    """The leader needs one point: a cube of 1 already gives him the match, the cube is dead."""
    assert verdicts(Situation(AFTER_OPENING_31, away=(1, 2))) == {CubeVerdict.NO_CUBE}


def test_the_free_drop_at_an_even_away_score() -> None:
    """Post-Crawford, trailer 2-away and a 74 % favourite: passing costs the leader nothing
    (1-away against 1-away next game, 50 %), taking leaves him his 26 % in this game for the
    match. Pass. The same lead at 4-away: a pass leaves the trailer 3-away (68 % for the
    leader), a take gives 26 % plus 74 % of 2-away post-Crawford (51 %), about 64 %: pass
    again."""
    position = race(RACER_100, TRAILING_109)
    assert verdicts(Situation(position, away=(2, 1))) == {CubeVerdict.DOUBLE_PASS}
    assert verdicts(Situation(position, away=(4, 1))) == {CubeVerdict.DOUBLE_PASS}


def test_no_free_drop_at_an_odd_away_score() -> None:
    """Trailer 3-away, same 74 % race: a pass puts the trailer at 2-away (leader 51 %), a take
    gives the leader his 26 % plus half of the rest (losing 2 points leaves the trailer 1-away,
    a 50 % game): about 63 %. Take."""
    assert verdicts(Situation(race(RACER_100, TRAILING_109), away=(3, 1))) == {
        CubeVerdict.DOUBLE_TAKE
    }


def test_a_dead_cube_cannot_be_redoubled() -> None:
    """2-away owning a cube of 2: winning this game at 2 already wins the match, so a
    redouble cannot gain anything (and the rules forbid it)."""
    situation = Situation(
        race(RACER_100, TRAILING_122), away=(2, 5), cube_value=2, cube_owner=CubeOwner.DECIDER
    )
    assert verdicts(situation) == {CubeVerdict.NO_CUBE}


def test_a_blitz_at_two_away_each_is_too_good() -> None:
    """At 2-away/2-away a gammon with the cube on 1 wins the match, a double only a point
    (passed: 1-away against 2-away). Play on."""
    assert verdicts(Situation(BLITZ, away=(2, 2))) == {CubeVerdict.TOO_GOOD_PASS}
