"""Replays: a match record cut into games of frames (start, plays, cube actions, the end)."""

from __future__ import annotations

import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gammon import Position, Variant
from gammon.actions import (
    AcceptResignation,
    Action,
    CannotMove,
    ClaimWin,
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
from gammon.fair_dice import FairDice
from gammon.flow import GameEnd, MatchState, Phase, advance, new_match, replay
from gammon.match_rules import MatchRules
from gammon.replay import FrameKind, GameReplay, ReplayFrame, _Cutter, replay_games
from tests.gammon.selfplay import random_action

START, PLAY, DOUBLE, TAKE, END = (
    FrameKind.START,
    FrameKind.PLAY,
    FrameKind.DOUBLE,
    FrameKind.TAKE,
    FrameKind.END,
)
RULES = MatchRules(length=5)
# Three games of a 5-point match, each ending another way.
GAME_1: list[Action] = [
    OpeningRoll((1, 1)),  # a tie: rolled again, no frame
    OpeningRoll((3, 1)),  # player 0 starts with 3-1
    Move(0, "8/5 6/5"),
    Roll(1, (6, 4)),
    Move(1, "24/14"),
    Double(0),
    Take(1),  # the cube is 2, owned by player 1
    Roll(0, (5, 2)),
    Move(0, "13/8 6/4"),
    Roll(1, (2, 1)),
    Move(1, "13/11 6/5"),
    Resign(1, WinKind.SINGLE),
    RejectResignation(0),  # no frame: play goes on
    Resign(1, WinKind.SINGLE),
    AcceptResignation(0),  # player 0 wins a single game at 2: score 2-0
]
GAME_2: list[Action] = [
    OpeningRoll((2, 6)),  # player 1 starts with 2-6
    Move(1, "24/18 13/11"),
    Roll(0, (4, 2)),
    Move(0, "8/4 6/4"),
    Double(1),
    Drop(0),  # player 1 wins one point: 2-1
]
GAME_3: list[Action] = [
    OpeningRoll((5, 5)),
    OpeningRoll((6, 1)),  # player 0 starts with 6-1
    Move(0, "13/7 8/7"),
    ClaimWin(0),  # player 1 ran out of time before rolling: player 0 takes the 3 missing points
]
MATCH = GAME_1 + GAME_2 + GAME_3


def kinds(game: GameReplay) -> list[FrameKind]:
    return [frame.kind for frame in game.frames]


def test_a_match_is_cut_into_its_games() -> None:
    games = replay_games(RULES, MATCH)
    assert [game.number for game in games] == [1, 2, 3]
    assert kinds(games[0]) == [START, PLAY, PLAY, DOUBLE, TAKE, PLAY, PLAY, END]
    assert kinds(games[1]) == [START, PLAY, PLAY, DOUBLE, END]
    assert kinds(games[2]) == [START, PLAY, END]
    assert all(frame.game == game.number for game in games for frame in game.frames)


def test_the_start_shows_the_opening_roll_that_decided_it() -> None:
    games = replay_games(RULES, MATCH)
    starts = [game.frames[0] for game in games]
    assert [frame.dice for frame in starts] == [(3, 1), (2, 6), (6, 1)]
    assert [frame.state.player_on_roll for frame in starts] == [0, 1, 0]
    assert all(frame.player is None and frame.play is None for frame in starts)
    assert all(frame.state.position == Position.start() for frame in starts)
    assert all(frame.state.actions == () for game in games for frame in game.frames)


def test_a_play_frame_keeps_the_dice_the_play_and_the_state_after_it() -> None:
    game = replay_games(RULES, GAME_1)[0]
    plays = [frame for frame in game.frames if frame.kind is PLAY]
    assert [(frame.player, frame.dice, str(frame.play)) for frame in plays] == [
        (0, (3, 1), "8/5 6/5"),
        (1, (6, 4), "24/14"),
        (0, (5, 2), "13/8 6/4"),
        (1, (2, 1), "13/11 6/5"),
    ]
    moves = [index for index, action in enumerate(GAME_1) if isinstance(action, Move)]
    for frame, index in zip(plays, moves, strict=True):
        expected = replay(RULES, GAME_1[: index + 1])
        assert frame.state.position == expected.position
        assert frame.state.player_on_roll == expected.player_on_roll == 1 - frame.player
        assert frame.state.dice is None  # the turn has passed: the frame keeps the dice
        assert frame.play is not None
        assert frame.state.board_for(frame.player).player == frame.play.result.opponent


def test_the_cube_frames() -> None:
    double, take = replay_games(RULES, GAME_1)[0].frames[3:5]
    assert (double.player, double.state.phase, double.state.cube_value) == (0, Phase.DOUBLED, 1)
    assert (take.player, take.state.phase) == (1, Phase.ROLLING)
    assert (take.state.cube_value, take.state.cube_owner) == (2, 1)


def test_an_accepted_resignation_ends_the_game_with_an_end_frame() -> None:
    game = replay_games(RULES, GAME_1)[0]
    end = game.frames[-1]
    assert game.result is end.result
    assert end.result is not None
    assert (end.result.winner, end.result.points, end.result.reason) == (0, 2, GameEnd.RESIGN)
    assert end.player == 0  # who acted: the player who accepted
    # The game's closing moment: its last position and cube, the new score, nobody to act.
    last_play = replay(RULES, GAME_1[:11])
    assert end.state.position == last_play.position
    assert (end.state.cube_value, end.state.cube_owner, end.state.score) == (2, 1, (2, 0))
    assert (end.state.phase, end.state.turn, end.state.game_number) == (Phase.OPENING, None, 1)
    assert [frame.result for frame in game.frames[:-1]] == [None] * 7


def test_a_drop_ends_the_game_with_an_end_frame() -> None:
    game = replay_games(RULES, GAME_1 + GAME_2)[1]
    end = game.frames[-1]
    assert end.result is not None
    assert (end.kind, end.player) == (END, 0)  # player 0 dropped
    assert (end.result.winner, end.result.points, end.result.reason) == (1, 1, GameEnd.DROP)
    assert end.state.score == (2, 1)
    assert end.state.cube_value == 1  # the cube of the game, not the offered one
    assert end.state.position == replay(RULES, GAME_1 + GAME_2[:4]).position


def test_a_forfeit_ends_the_game_and_the_match() -> None:
    game = replay_games(RULES, MATCH)[2]
    end = game.frames[-1]
    assert end.result is not None
    assert (end.kind, end.player) == (END, 0)  # player 0 claimed
    assert (end.result.winner, end.result.points, end.result.reason) == (0, 3, GameEnd.FORFEIT)
    assert (end.state.phase, end.state.score) == (Phase.FINISHED, (5, 1))


def test_a_game_in_progress_has_no_result() -> None:
    games = replay_games(RULES, GAME_1 + GAME_2[:3])
    assert [game.result is None for game in games] == [False, True]
    assert kinds(games[1]) == [START, PLAY]


def test_a_record_between_games_or_at_a_tie_has_no_game_in_progress() -> None:
    assert replay_games(RULES, []) == ()
    assert replay_games(RULES, GAME_1[:1]) == ()  # only the tied opening roll
    between = replay_games(RULES, [*GAME_1, OpeningRoll((4, 4))])
    assert [game.number for game in between] == [1]


def replay_from(state: MatchState, actions: list[Action]) -> tuple[GameReplay, ...]:
    """The frames of ``actions`` played on from a made-up moment of a game."""
    cutter = _Cutter(state, in_game=True)
    for action in actions:
        cutter.add(action)
    return cutter.games()


def test_a_bear_off_ends_the_game_on_its_play_frame() -> None:
    # Player 0 bears off the last checker; player 1 has borne off nothing: a gammon.
    last = Position.from_points({1: 1}, {6: 15})
    state = MatchState(RULES, Phase.MOVING, last, player_on_roll=0, dice=(2, 1), score=(1, 1))
    games = replay_from(state, [Move(0, "1/off")])
    assert kinds(games[0]) == [PLAY]  # no END frame after the play that ended the game
    frame = games[0].frames[0]
    assert frame.result is not None
    assert games[0].result is frame.result
    assert (frame.result.winner, frame.result.points) == (0, 2)
    assert (frame.result.kind, frame.result.reason) == (WinKind.GAMMON, GameEnd.BEAR_OFF)
    assert frame.state.board_for(0).player[0] == 15  # the final position, all borne off
    assert frame.state.board_for(1).player[6] == 15
    assert (frame.state.score, frame.state.game_number, frame.dice) == ((3, 1), 1, (2, 1))


def test_a_roll_that_cannot_be_played_is_a_frame() -> None:
    # Player 1 is on the bar against player 0's closed home board: 6-3 cannot enter.
    closed = {6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 2, 24: 3}
    position = Position.from_points({25: 1, 13: 14}, closed)
    state = MatchState(RULES, Phase.ROLLING, position, player_on_roll=1)
    games = replay_from(state, [Roll(1, (6, 3)), CannotMove(1)])
    frame = games[0].frames[0]
    assert (frame.kind, frame.player, frame.dice) == (FrameKind.CANNOT_MOVE, 1, (6, 3))
    assert (frame.state.player_on_roll, frame.state.phase, frame.result) == (0, Phase.ROLLING, None)
    assert frame.state.board_for(1) == position


def test_long_nardy_starts_with_the_lot_and_names_the_next_starter() -> None:
    rules = MatchRules(variant=Variant.LONG_NARDY, length=5)
    actions: list[Action] = [
        OpeningRoll((4, 4)),  # a tied lot: no frame
        OpeningRoll((2, 5)),  # player 1 wins the lot: White, and plays first
        Roll(1, (6, 6)),
        Move(1, "24/18(2)"),
        Roll(0, (6, 5)),
        Move(0, "24/13"),
        Resign(1, WinKind.SINGLE),  # nothing borne off: scored as a mars, 2 points
        AcceptResignation(0),
        Roll(1, (3, 1)),  # the loser starts game 2, without a lot
        Move(1, "24/20"),
    ]
    first, second = replay_games(rules, actions)
    assert kinds(first) == [START, PLAY, PLAY, END]
    assert first.frames[0].dice == (2, 5)
    assert (first.frames[0].state.white, first.frames[0].state.player_on_roll) == (1, 1)
    assert [frame.dice for frame in first.frames if frame.kind is PLAY] == [(6, 6), (6, 5)]
    assert first.result is not None
    assert (first.result.winner, first.result.points) == (0, 2)
    assert first.frames[-1].state.position == replay(rules, actions[:6]).position
    assert kinds(second) == [START, PLAY]
    assert second.result is None
    start = second.frames[0]
    assert (start.dice, start.state.player_on_roll, start.state.score) == (None, 1, (2, 0))
    assert start.state.position == Position.start(Variant.LONG_NARDY)


def test_long_nardy_last_roll_ends_on_the_other_players_play() -> None:
    rules = MatchRules(variant=Variant.LONG_NARDY, length=5, last_roll=True)
    state = MatchState(
        rules,
        Phase.MOVING,
        Position.from_points({1: 1}, {1: 1}, Variant.LONG_NARDY),
        0,
        (2, 1),
        white=0,
        game_starter=0,
    )
    games = replay_from(state, [Move(0, "1/off"), Roll(1, (3, 2)), Move(1, "1/off")])
    frames = games[0].frames
    assert [frame.kind for frame in frames] == [PLAY, PLAY]
    assert frames[0].result is None  # the starter bore off first: the other rolls once more
    result = frames[1].result
    assert result is not None
    assert (result.winner, result.reason, games[0].result) == (None, GameEnd.DRAW, result)
    assert frames[1].state.board_for(1).player[0] == 15


def test_frames_pickle_with_their_play() -> None:
    games = replay_games(RULES, MATCH)
    copied = pickle.loads(pickle.dumps(games))
    assert copied == games
    play = games[0].frames[1].play
    assert play is not None
    assert copied[0].frames[1].play.steps == play.steps  # type: ignore[union-attr]


# --- random legal matches ------------------------------------------------------------------


def random_record(rules: MatchRules, seed: int) -> MatchState:
    """A random legal match (cube actions, resignations, the odd forfeit mixed in)."""
    rng = random.Random(seed)
    dice = FairDice(rng.randbytes(32), f"seed-{seed}")
    state = new_match(rules)
    while state.phase is not Phase.FINISHED and len(state.games) < 3:
        if state.turn is not None and rng.random() < 0.002:
            action: Action = ClaimWin(1 - state.turn)
        else:
            action = random_action(state, rng, dice)
        state, _recorded = advance(state, action)
    return state


RANDOM_RULES = [
    MatchRules(length=3),
    MatchRules(length=0, beavers=True, jacoby=True, automatic_doubles=1),
    MatchRules(variant=Variant.LONG_NARDY, length=3, last_roll=True),
    MatchRules(variant=Variant.LONG_NARDY, length=0, mars=False, series_start="alternate"),
]


@settings(max_examples=40, deadline=None)
@given(rules=st.sampled_from(RANDOM_RULES), seed=st.integers(0, 2**32), cut=st.floats(0, 1))
def test_random_matches_replay_play_for_play(rules: MatchRules, seed: int, cut: float) -> None:
    state = random_record(rules, seed)
    games = replay_games(rules, state.actions)
    frames = [frame for game in games for frame in game.frames]
    moves = sum(isinstance(action, Move) for action in state.actions)
    assert sum(frame.kind is PLAY for frame in frames) == moves
    finished = [game for game in games if game.result is not None]
    assert [game.result for game in finished] == list(state.games)
    for game in finished:
        assert game.frames[-1].result == state.games[game.number - 1]
        assert all(frame.result is None for frame in game.frames[:-1])
    assert [game.number for game in games] == list(range(1, len(games) + 1))
    prefix = state.actions[: round(cut * len(state.actions))]
    partial = replay_games(rules, prefix)
    cut_state = replay(rules, prefix)
    # A game is in progress once it has started and until it ends: not while the opening roll
    # is awaited, and not right after a game ended (long nardy's next game starts with an action).
    just_ended = bool(prefix) and len(replay(rules, prefix[:-1]).games) < len(cut_state.games)
    in_progress = cut_state.phase not in (Phase.OPENING, Phase.FINISHED) and not just_ended
    assert len([game for game in partial if game.result is None]) == int(in_progress)
    if in_progress:
        assert partial[-1].result is None
        assert partial[-1].number == cut_state.game_number


def test_frames_are_values() -> None:
    frame = replay_games(RULES, MATCH)[0].frames[0]
    assert isinstance(frame, ReplayFrame)
    assert frame.kind == "start"
