"""Random self-play: thousands of games of random legal actions, cube and resignations included."""

from __future__ import annotations

import random

from gammon.flow import Phase, replay
from gammon.match_rules import MatchRules
from tests.gammon.selfplay import play_random_match

GAMES = 1000


def test_random_matches_and_money_sessions_stay_consistent() -> None:
    rng = random.Random(20261129)
    games = 0
    matches = 0
    while games < GAMES:
        length = rng.choice([0, 1, 3, 5, 7, 11])
        if length:
            rules = MatchRules(length=length)
        else:
            rules = MatchRules(
                length=0,
                jacoby=rng.random() < 0.5,
                beavers=rng.random() < 0.5,
                automatic_doubles=rng.randint(0, 2),
            )
        state = play_random_match(rng, length=length, rules=rules, max_games=4)
        matches += 1
        games += len(state.games)
        for side in (state.position.player, state.position.opponent):
            assert sum(side) == 15
            assert min(side) >= 0
        assert (
            tuple(
                sum(game.points for game in state.games if game.winner == player)
                for player in (0, 1)
            )
            == state.score
        )
        for number, game in enumerate(state.games, start=1):
            assert game.number == number
            assert game.points == int(game.kind) * game.cube_value or rules.jacoby
        if length:
            assert state.phase is Phase.FINISHED
            assert state.winner is not None
            assert state.score[state.winner] >= length
            assert state.score[1 - state.winner] < length
            assert sum(game.crawford for game in state.games) <= 1
        if matches % 10 == 0:
            assert replay(rules, state.actions) == state
    assert games >= GAMES
