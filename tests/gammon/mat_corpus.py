"""Whole matches and money sessions with every way a game can end, played by seeded chance.

Each match is played through :func:`gammon.flow.advance`: dice from a seeded generator, plays
chosen among :func:`gammon.movegen.legal_plays`, and the cube and resignations mixed in often
enough that a handful of matches hold drops by either side, beavers, resignations of all three
kinds (before and after a roll, by either player), the Crawford game, games won by gammon and
backgammon, and the last checker borne off. :func:`endings` names what a match holds, so a
test can check that its corpus still covers everything.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    Double,
    Drop,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.flow import GameEnd, MatchState, Phase, advance, new_match, replay_states
from gammon.match_rules import MatchRules
from gammon.movegen import legal_plays


@dataclass(frozen=True)
class Session:
    """A seed and the rules a corpus entry is played under."""

    seed: int
    rules: MatchRules
    games: int = 8  # the games a money session is played for


SESSIONS = (
    Session(11, MatchRules(length=5)),
    Session(12, MatchRules(length=7)),
    Session(13, MatchRules(length=9)),
    Session(14, MatchRules(length=3)),
    Session(15, MatchRules(length=11)),
    Session(16, MatchRules(length=1)),
    Session(203, MatchRules(length=3)),  # short games that end in resignations
    Session(230, MatchRules(length=3)),
    Session(388, MatchRules(length=3)),
    Session(1199, MatchRules(length=1)),  # a resignation after a roll with one play
    Session(21, MatchRules(length=0, jacoby=True, beavers=True)),
    Session(22, MatchRules(length=0, jacoby=True)),
    Session(23, MatchRules(length=0, beavers=True)),
    Session(24, MatchRules(length=0, jacoby=True, beavers=True), games=12),
)


def play(session: Session) -> MatchState:
    """The session played to its end (a money session for ``session.games`` games)."""
    rng = random.Random(session.seed)
    state = new_match(session.rules)
    while state.phase is not Phase.FINISHED and (
        session.rules.length or len(state.games) < session.games
    ):
        state, _recorded = advance(state, _choose(state, rng))
    return state


def _choose(state: MatchState, rng: random.Random) -> Action:
    player = state.turn
    chance = rng.random()
    if state.phase is Phase.OPENING:
        return OpeningRoll((rng.randint(1, 6), rng.randint(1, 6)))
    assert player is not None
    if state.phase is Phase.ROLLING:
        if chance < 0.0015:
            return Resign(rng.randint(0, 1), WinKind(rng.randint(1, 3)))
        if chance < 0.012 and state.double_refusal(player) is None:
            return Double(player)
        return Roll(player, (rng.randint(1, 6), rng.randint(1, 6)))
    if state.phase is Phase.MOVING:
        if chance < 0.004:
            return Resign(rng.randint(0, 1), WinKind(rng.randint(1, 3)))
        assert state.dice is not None
        return Move(player, _pick(state, rng))
    if state.phase is Phase.DOUBLED:
        if state.rules.beavers and chance < 0.2:
            return Beaver(player)
        return Take(player) if chance < 0.65 else Drop(player)
    return AcceptResignation(player) if chance < 0.8 else RejectResignation(player)


def _pick(state: MatchState, rng: random.Random) -> str:
    """One player plays at random; the other (player 0 in odd games, player 1 in even ones)
    mostly hits and runs home, so gammons and backgammons come up: the loser is often still
    back when the game ends."""
    assert state.dice is not None
    plays = legal_plays(state.position, state.dice)
    if state.player_on_roll != state.game_number % 2 or rng.random() < 0.3:
        return str(rng.choice(plays))

    def score(index: int) -> tuple[int, int, int, float]:
        result = plays[index].result  # the opponent is on roll: .opponent is the mover
        mover = result.opponent
        behind = sum(count * point for point, count in enumerate(mover) if point > 6)
        return (mover[0], -behind, result.player[25], rng.random())

    return str(plays[max(range(len(plays)), key=score)])


def endings(state: MatchState) -> set[str]:
    """What the session holds: ``drop by 0``, ``resign 2``, ``beaver``, ``gammon``, ``crawford``,
    ``resign after a roll``, …"""
    found: set[str] = set()
    states = replay_states(state.rules, state.actions)
    before = [new_match(state.rules), *states]
    for action, previous, after in zip(state.actions, before, states, strict=False):
        if isinstance(action, Drop):
            found.add(f"drop by {action.player}")
        elif isinstance(action, Beaver):
            found.add(f"beaver by {action.player}")
        elif isinstance(action, AcceptResignation) and previous.resignation is not None:
            found.add(f"resign {int(previous.resignation.level)}")
            rolled = previous.resignation.resume is Phase.MOVING
            mover = previous.player_on_roll
            who = "the roller" if previous.resignation.player == mover else "the other"
            found.add(f"{who} resigns {'after' if rolled else 'before'} a roll of player {mover}")
            if rolled and previous.dice and len(legal_plays(previous.position, previous.dice)) == 1:
                found.add("a resignation after a forced roll")
        if len(after.games) > len(previous.games):
            result = after.games[-1]
            if result.reason is GameEnd.BEAR_OFF and result.kind is not None:
                found.add(["bear-off", "gammon", "backgammon"][int(result.kind) - 1])
            if result.crawford:
                found.add("crawford")
            if state.rules.jacoby and result.kind is WinKind.GAMMON and result.points == 1:
                found.add("jacoby")
    return found
