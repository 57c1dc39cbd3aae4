"""The bot's decisions in every phase, with and without noise."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from engine.api import Decision, Level, Situation
from engine.backgammon import rank_plays
from engine.backgammon_cube import may_double
from engine.decide import decide
from gammon import Position, legal_plays
from gammon.actions import OpeningRoll, WinKind
from gammon.fair_dice import FairDice
from gammon.flow import MatchState, Phase, ResignationOffer, advance, apply, new_match
from gammon.match_rules import MatchRules
from gammon.position import Variant
from tests.engine.test_backgammon import random_position
from tests.engine.test_cube_textbook import (
    BLITZ,
    LEADING_85,
    RACER_100,
    TRAILING_109,
    TRAILING_122,
    race,
)
from tests.gammon.selfplay import random_action

MONEY = MatchRules(length=0)


def state(position: Position, phase: Phase, rules: MatchRules = MONEY, **fields: Any) -> MatchState:
    """A state with ``position`` seen from ``player_on_roll`` (0 unless given)."""
    return replace(new_match(rules), phase=phase, position=position, **fields)


# --- whose turn -----------------------------------------------------------------------------


def test_it_refuses_to_decide_out_of_turn() -> None:
    rolling = state(Position.start(), Phase.ROLLING)
    with pytest.raises(ValueError, match="not seat 1's turn"):
        decide(rolling, 1, Level.EXPERT, 0)
    with pytest.raises(ValueError, match="turn"):
        decide(new_match(MONEY), 0, Level.EXPERT, 0)  # the opening roll: nobody's turn


# --- before the roll ------------------------------------------------------------------------


def test_it_doubles_a_nine_percent_racing_lead() -> None:
    rolling = state(race(RACER_100, TRAILING_109), Phase.ROLLING)
    assert decide(rolling, 0, Level.EXPERT, 0) == Decision("double")


def test_it_rolls_when_there_is_nothing_to_double_with() -> None:
    assert decide(state(Position.start(), Phase.ROLLING), 0, Level.EXPERT, 0) == Decision("roll")


def test_it_rolls_when_it_may_not_double() -> None:
    ahead = race(RACER_100, TRAILING_122)
    owned = state(ahead, Phase.ROLLING, cube_value=2, cube_owner=1)
    assert decide(owned, 0, Level.EXPERT, 0) == Decision("roll")
    crawford = state(
        ahead,
        Phase.ROLLING,
        MatchRules(length=5),
        score=(2, 4),
        crawford_game=True,
        crawford_used=True,
    )
    assert decide(crawford, 0, Level.EXPERT, 0) == Decision("roll")
    cubeless = state(ahead, Phase.ROLLING, MatchRules(length=0, cube=False))
    assert decide(cubeless, 0, Level.EXPERT, 0) == Decision("roll")


def test_the_post_crawford_trailer_doubles_at_once() -> None:
    after_opening = legal_plays(Position.start(), (3, 1))[0].result
    post_crawford = state(
        after_opening, Phase.ROLLING, MatchRules(length=5), score=(3, 4), crawford_used=True
    )
    assert decide(post_crawford, 0, Level.EXPERT, 0) == Decision("double")


def test_the_right_to_double_agrees_with_the_rules() -> None:
    """The engine's idea of who may double is the rules' own, over random matches."""
    rng = random.Random(11)
    checked = 0
    for rules in (MatchRules(length=5), MatchRules(length=3), MONEY):
        dice = FairDice(rng.randbytes(32), "engine-test")
        current = new_match(rules)
        for _step in range(400):
            if current.phase is Phase.FINISHED:
                break
            if current.phase is Phase.ROLLING:
                seat = current.player_on_roll
                expected = current.double_refusal(seat) is None
                assert may_double(Situation.of(current, seat)) == expected
                checked += 1
            current, _recorded = advance(current, random_action(current, rng, dice))
    assert checked > 100


# --- moving ---------------------------------------------------------------------------------


def test_a_forced_play_is_played() -> None:
    last_checker = Position.from_points({1: 1}, {6: 5, 5: 5})
    moving = state(last_checker, Phase.MOVING, dice=(6, 5))
    assert decide(moving, 0, Level.BEGINNER, 0) == Decision("move", "1/off")


def test_it_refuses_a_turn_without_a_legal_play() -> None:
    closed_out = Position.from_points({25: 2, 13: 5}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    with pytest.raises(ValueError, match="no legal play"):
        decide(state(closed_out, Phase.MOVING, dice=(6, 6)), 0, Level.EXPERT, 0)


def moving_positions(count: int) -> list[tuple[MatchState, tuple[str, ...]]]:
    """Random positions with a choice to make, and the expert's ranking of their plays."""
    found: list[tuple[MatchState, tuple[str, ...]]] = []
    rng = random.Random(5)
    while len(found) < count:
        position = random_position(rng.randrange(2**32), rng.randrange(10, 120))
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        if len(legal_plays(position, roll)) < 3:
            continue
        ranked = rank_plays(Situation(position), roll, Level.EXPERT)
        found.append((state(position, Phase.MOVING, dice=roll), tuple(p.notation for p in ranked)))
    return found


def test_noise_makes_the_beginner_stray_and_the_expert_never() -> None:
    positions = moving_positions(30)
    strays = 0
    for index, (moving, ranking) in enumerate(positions):
        assert decide(moving, 0, Level.EXPERT, index) == Decision("move", ranking[0])
        beginner = decide(moving, 0, Level.BEGINNER, index)
        assert beginner.play in ranking
        strays += beginner.play != ranking[0]
    assert 0 < strays < len(positions)


def test_one_seed_gives_one_choice() -> None:
    for index, (moving, _ranking) in enumerate(moving_positions(10)):
        first = decide(moving, 0, Level.BEGINNER, 1000 + index)
        assert decide(moving, 0, Level.BEGINNER, 1000 + index) == first


def test_noise_reaches_cube_decisions_too() -> None:
    """A 9 % racing lead is a clear double for the expert; the beginner's noise (0.06 on
    each of the three equities) sometimes hides the 0.09 edge of doubling."""
    rolling = state(race(RACER_100, TRAILING_109), Phase.ROLLING)
    expert = {decide(rolling, 0, Level.EXPERT, seed).action for seed in range(30)}
    beginner = {decide(rolling, 0, Level.BEGINNER, seed).action for seed in range(30)}
    assert expert == {"double"}
    assert beginner == {"double", "roll"}


# --- answering a double ---------------------------------------------------------------------


def doubled(position: Position, rules: MatchRules = MONEY) -> MatchState:
    """Player 0 (on roll, ``position`` is theirs) has doubled player 1, the bot."""
    return state(position, Phase.DOUBLED, rules)


def test_it_takes_a_double_take_and_drops_a_double_pass() -> None:
    assert decide(doubled(race(RACER_100, TRAILING_109)), 1, Level.EXPERT, 0) == Decision("take")
    assert decide(doubled(race(RACER_100, TRAILING_122)), 1, Level.EXPERT, 0) == Decision("drop")


def test_it_beavers_an_underdogs_double_only_where_beavers_are_played() -> None:
    underdog = race(RACER_100, LEADING_85)
    with_beavers = MatchRules(length=0, beavers=True)
    assert decide(doubled(underdog, with_beavers), 1, Level.EXPERT, 0) == Decision("beaver")
    assert decide(doubled(underdog), 1, Level.EXPERT, 0) == Decision("take")
    assert decide(doubled(underdog, MatchRules(length=7)), 1, Level.EXPERT, 0) == Decision("take")


# --- resignations ---------------------------------------------------------------------------


def resigning(
    position: Position,
    level: WinKind,
    rules: MatchRules = MONEY,
    resume: Phase = Phase.ROLLING,
    **fields: Any,
) -> MatchState:
    """Player 1 is on roll (``position`` is theirs) and offers to resign to player 0."""
    offer = ResignationOffer(player=1, level=level, resume=resume)
    return state(position, Phase.RESIGNING, rules, player_on_roll=1, resignation=offer, **fields)


# The resigner has borne off two checkers and has 67 pips left; the bot has four checkers on
# its 1- and 2-points: the bot wins nearly always, but never a gammon.
HOPELESS_RACE = Position.from_points({4: 3, 5: 5, 6: 5}, {1: 2, 2: 2})


def test_it_accepts_a_gammon_it_cannot_win() -> None:
    for level in (WinKind.GAMMON, WinKind.SINGLE):
        offer = resigning(HOPELESS_RACE, level)
        assert decide(offer, 0, Level.EXPERT, 0) == Decision("accept")


def test_it_accepts_after_the_resigner_rolled_too() -> None:
    offer = resigning(HOPELESS_RACE, WinKind.GAMMON, resume=Phase.MOVING, dice=(2, 1))
    assert decide(offer, 0, Level.EXPERT, 0) == Decision("accept")


def test_it_rejects_a_single_game_when_a_gammon_is_likely() -> None:
    """Closed out with two on the bar: the bot wins a gammon most of the time."""
    offer = resigning(BLITZ.swapped(), WinKind.SINGLE)
    assert decide(offer, 0, Level.EXPERT, 0) == Decision("reject")


def test_at_double_match_point_any_resignation_wins_the_match() -> None:
    """1-away/1-away: a single game is the match, so the bot accepts even when it would
    surely win a gammon (a gammon is worth no more)."""
    offer = resigning(
        BLITZ.swapped(), WinKind.SINGLE, MatchRules(length=5), score=(4, 4), crawford_used=True
    )
    assert decide(offer, 0, Level.EXPERT, 0) == Decision("accept")


def test_in_a_match_it_rejects_a_single_game_when_the_gammon_wins_the_match() -> None:
    """2-away/4-away: a single game leaves the bot 1-away, a gammon wins the match outright,
    and the bot wins a gammon most of the time."""
    offer = resigning(BLITZ.swapped(), WinKind.SINGLE, MatchRules(length=5), score=(3, 1))
    assert decide(offer, 0, Level.EXPERT, 0) == Decision("reject")


# --- long nardy -----------------------------------------------------------------------------


def test_long_nardy_is_decided_by_the_nardy_player() -> None:
    nardy = pytest.importorskip("engine.nardy")
    rules = MatchRules(length=0, variant=Variant.LONG_NARDY)
    started = apply(new_match(rules), OpeningRoll((5, 2)))
    seat = started.player_on_roll
    assert decide(started, seat, Level.EXPERT, 3) == nardy.decide(started, seat, 3)
