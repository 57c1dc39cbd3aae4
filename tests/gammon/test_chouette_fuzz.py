"""Random chouette sessions, legal and illegal actions mixed: only the documented refusals are
ever raised, every finished game settles to zero, the running score stays zero-sum and the
rotation keeps everyone seated."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gammon import Position
from gammon.actions import Action, CannotMove, Double, Move, OpeningRoll, Resign, Roll, WinKind
from gammon.chouette import (
    Answer,
    BoardAction,
    BoxAnswers,
    BoxDoubles,
    ChouetteAction,
    ChouetteGame,
    ChouetteRefusal,
    ChouetteRules,
    Consultation,
    CubeOwner,
    MemberAnswers,
    MemberDoubles,
    Scoreboard,
    Side,
    advance,
    advisers,
    apply,
    new_game,
    new_table,
    next_table,
    refusal,
    settle,
)
from gammon.flow import Phase, Refusal

DOCUMENTED = {*ChouetteRefusal, *Refusal}
STEPS = 260


def race(rng: random.Random) -> Position:
    """A short race for one side and, for the other, either a race too or all fifteen
    checkers still far away (so gammons and backgammons come up)."""

    def home() -> dict[int, int]:
        return {point: rng.randint(0, 2) for point in (1, 2, 3)}

    stuck = {13: 14, 20: 1} if rng.random() < 0.5 else {13: 15}
    mine = home()
    theirs = home() if rng.random() < 0.5 else stuck
    if not any(mine.values()):
        mine = {1: 1}
    if not any(theirs.values()):
        theirs = {2: 1}
    return Position.from_points(mine, theirs)


def sensible(game: ChouetteGame, rng: random.Random) -> ChouetteAction:
    """An action that moves the game on: answer a double, open, roll or play."""
    box, captain = game.table.box, game.acting_captain
    assert captain is not None
    for cube in game.pending:
        answer = rng.choice([Answer.TAKE, Answer.DROP, Answer.BEAVER])
        if cube.offered_by is Side.BOX:
            return MemberAnswers(cube.member, answer)
        return BoxAnswers(box, cube.member, answer)
    board = game.board
    if board.phase is Phase.OPENING:
        return BoardAction(rng.choice([box, captain]), OpeningRoll(dice(rng)))
    who = box if board.player_on_roll == 0 else captain
    if board.phase is Phase.ROLLING:
        return BoardAction(who, Roll(board.player_on_roll, dice(rng)))
    plays = board.legal_plays()
    if not plays:
        return BoardAction(who, CannotMove(board.player_on_roll))
    return BoardAction(who, Move(board.player_on_roll, str(rng.choice(plays))))


def dice(rng: random.Random) -> tuple[int, int]:
    return (rng.randint(1, 6), rng.randint(1, 6))


def chaos(game: ChouetteGame, rng: random.Random, names: list[str]) -> ChouetteAction:
    """Any action by anyone (seated or not), usually not allowed."""
    who = rng.choice(names)
    members = rng.sample(names, rng.randint(0, min(3, len(names))))
    answer = rng.choice(list(Answer))
    board_actions: list[Action] = [
        Roll(rng.randint(0, 1), dice(rng)),
        Move(rng.randint(0, 1), rng.choice(["24/18 13/11", "8/5 6/5", "6/off", "bar/22"])),
        OpeningRoll(dice(rng)),
        CannotMove(rng.randint(0, 1)),
        Double(rng.randint(0, 1)),
        Resign(rng.randint(0, 1), WinKind.SINGLE),
    ]
    actions: list[ChouetteAction] = [
        BoxDoubles(who, members),
        BoxDoubles(game.table.box, members),
        MemberDoubles(who),
        MemberAnswers(who, answer),
        BoxAnswers(who, rng.choice(names), answer),
        BoxAnswers(game.table.box, rng.choice(names), answer),
        BoardAction(who, rng.choice(board_actions)),
    ]
    return rng.choice(actions)


def cube_move(game: ChouetteGame, rng: random.Random) -> ChouetteAction:
    """A double that has a fair chance of being allowed."""
    if game.board.player_on_roll == 0:
        return BoxDoubles(game.table.box, rng.sample(game.table.team, rng.randint(1, 2)))
    return MemberDoubles(rng.choice(game.table.team))


def check_game(game: ChouetteGame) -> None:
    """What must hold after every allowed action."""
    for cube in game.cubes:
        assert cube.value >= 1
        assert cube.value & (cube.value - 1) == 0  # a power of two
        assert (cube.owner is CubeOwner.CENTRE) == (not cube.turned)
        if cube.offered_by is not None:
            assert cube.live
            assert game.board.phase is Phase.ROLLING
            assert cube.offered_by.board_player == game.board.player_on_roll
    captain = game.acting_captain
    assert captain is None or captain in game.live_members
    assert set(advisers(game)) <= set(game.live_members) - {captain}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 8),
    games=st.integers(1, 4),
    chaos_rate=st.sampled_from([0.0, 0.2, 0.5]),
    cube_rate=st.sampled_from([0.05, 0.2]),
    races=st.booleans(),
    rules=st.builds(
        ChouetteRules,
        consultation=st.sampled_from(list(Consultation)),
        jacoby=st.booleans(),
        beavers=st.booleans(),
    ),
)
def test_random_sessions_stay_zero_sum_and_refuse_only_as_documented(
    seed: int,
    players: int,
    games: int,
    chaos_rate: float,
    cube_rate: float,
    races: bool,
    rules: ChouetteRules,
) -> None:
    rng = random.Random(seed)
    seated = [f"p{index}" for index in range(players)]
    names = [*seated, "stranger"]
    table = new_table(seated)
    scoreboard = Scoreboard()
    for _ in range(games):
        game = new_game(table, rules)
        for _step in range(STEPS):
            if game.finished:
                break
            if races and game.board.phase is Phase.OPENING and rng.random() < 0.7:
                board = replace(
                    game.board,
                    phase=Phase.ROLLING,
                    position=race(rng),
                    player_on_roll=rng.randint(0, 1),
                )
                game = replace(game, board=board)
            roll = rng.random()
            if roll < chaos_rate:
                action = chaos(game, rng, names)
            elif roll < chaos_rate + cube_rate:
                action = cube_move(game, rng)
            else:
                action = sensible(game, rng)
            error = refusal(game, action)
            if error is not None:
                assert error.reason in DOCUMENTED
                assert (error.board_error is None) == isinstance(error.reason, ChouetteRefusal)
                continue
            if rng.random() < 0.5:
                game = apply(game, action)
            else:
                game, recorded = advance(game, action)
                assert recorded
            check_game(game)
        if not game.finished:
            continue
        points = settle(game)
        assert set(points) == set(table.order)
        assert sum(points.values()) == 0
        assert points[table.box] == -sum(points[member] for member in table.team)
        for cube in game.cubes:
            assert abs(points[cube.member]) in {cube.value * kind for kind in (1, 2, 3)}
        for late in (MemberDoubles(table.captain), BoardAction(table.box, Roll(0, (2, 1)))):
            late_error = refusal(game, late)
            assert late_error is not None
            assert late_error.reason == "game_over"
        scoreboard = scoreboard.add(points)
        assert sum(scoreboard.as_dict().values()) == 0
        following = next_table(game)
        assert sorted(following.order) == sorted(table.order)
        winner = game.rotation_winner
        assert following.box == (table.box if winner is Side.BOX else table.captain)
        assert following.order[-1] == (table.captain if winner is Side.BOX else table.box)
        table = following
