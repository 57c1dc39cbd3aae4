"""Replays as pictures: what each frame shows, one frame as PNG, a whole game as a GIF."""

from __future__ import annotations

import io
import pickle
import random
from functools import partial

import pytest
from PIL import Image

from gammon import Variant
from gammon.actions import Action, Double, Drop, Move, OpeningRoll, Roll, Take
from gammon.fair_dice import roll
from gammon.flow import Phase, advance, new_match
from gammon.match_rules import MatchRules
from gammon.replay import FrameKind, GameReplay, replay_games
from rendering.replay import (
    ANIMATION_WIDTH,
    _caption,
    frame_view,
    render_game_animation,
    render_replay_animation,
    render_replay_frame,
)
from tests.rendering.compare import difference, moments, picture

NAMES = ("Anna Groß", "Дмитрий")
MAX_GIF_BYTES = 2 * 1024 * 1024
SEED = 106  # this seed's random game has exactly 60 plays
RULES = MatchRules(length=5)
CUBE_GAME: list[Action] = [
    OpeningRoll((3, 1)),
    Move(0, "8/5 6/5"),
    Roll(1, (6, 4)),
    Move(1, "24/14"),
    Roll(0, (5, 2)),
    Move(0, "13/11* 13/8"),  # hits player 1's checker on player 0's 11 (player 1's 14)
    Double(1),
    Take(0),
    Roll(1, (6, 3)),
    Move(1, "bar/22 24/18"),
    Double(0),
    Drop(1),  # player 0 wins the game at the cube of 2
]


def random_game(seed: int) -> GameReplay:
    """One game of random legal plays, its dice from the provably fair roller."""
    rng = random.Random(seed)
    server_seed = bytes(range(32))
    rules = MatchRules(length=1)
    state = new_match(rules)
    while not state.games:
        dice = roll(server_seed, f"seed-{seed}", state.dice_events)
        action: Action
        if state.phase is Phase.OPENING:
            action = OpeningRoll(dice)
        elif state.phase is Phase.ROLLING:
            action = Roll(state.player_on_roll, dice)
        else:
            action = Move(state.player_on_roll, str(rng.choice(state.legal_plays())))
        state, _recorded = advance(state, action)
    (game,) = replay_games(rules, state.actions)
    return game


@pytest.fixture(scope="module")
def long_game() -> GameReplay:
    game = random_game(SEED)
    assert sum(frame.kind is FrameKind.PLAY for frame in game.frames) == 60
    return game


@pytest.fixture(scope="module")
def long_gif(long_game: GameReplay) -> bytes:
    return render_replay_animation(long_game, names=NAMES, frame_ms=900, final_ms=3500)


def test_a_long_game_is_a_small_looping_gif(long_game: GameReplay, long_gif: bytes) -> None:
    assert long_gif.startswith(b"GIF89a")
    assert b"NETSCAPE2.0" in long_gif  # the loop extension chat apps need to animate it
    assert len(long_gif) < MAX_GIF_BYTES
    gif = Image.open(io.BytesIO(long_gif))
    assert gif.info["loop"] == 0  # forever
    assert gif.size[0] == ANIMATION_WIDTH
    durations = [duration for _image, duration in moments(long_gif)]
    assert durations == [900] * (len(long_game.frames) - 1) + [3500]


def test_every_gif_frame_looks_like_its_own_picture(long_game: GameReplay, long_gif: bytes) -> None:
    shown = moments(long_gif)
    for index in (0, 1, 30, len(long_game.frames) - 1):
        alone = render_replay_frame(long_game.frames[index], names=NAMES, width=ANIMATION_WIDTH)
        mean, far = difference(shown[index][0], picture(alone))
        assert mean < 1.5, f"frame {index}: mean difference {mean:.2f}"
        assert far < 0.003, f"frame {index}: {far:.2%} of pixels differ clearly"


def test_the_default_values_and_a_game_of_one_frame() -> None:
    (game,) = replay_games(RULES, CUBE_GAME[:1])
    gif = Image.open(io.BytesIO(render_replay_animation(game, names=NAMES)))
    assert (gif.n_frames, gif.info["duration"]) == (1, 4000)
    with pytest.raises(ValueError, match="nothing to show"):
        render_replay_animation(GameReplay(1, (), None), names=NAMES)


def test_a_frame_is_a_png_of_the_asked_width() -> None:
    (game,) = replay_games(RULES, CUBE_GAME)
    for width in (960, 640):
        png = render_replay_frame(game.frames[2], names=NAMES, width=width, theme="dark")
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert picture(png).width == width


def test_a_play_frame_marks_the_play_and_shows_its_dice() -> None:
    (game,) = replay_games(RULES, CUBE_GAME)
    hit = game.frames[3]
    assert (hit.kind, hit.player) == (FrameKind.PLAY, 0)
    view, marks = frame_view(hit)
    assert marks is not None
    assert (marks.mover, marks.text) == (0, "13/11* 13/8")
    assert set(marks.paths) == {(13, 8, ()), (13, 11, (11,))}
    assert (view.dice, view.on_roll, view.turn, view.opening_dice) == ((5, 2), 0, 0, None)
    assert view.sides[1][25] == 1  # the hit checker waits on the bar
    assert view.sides[0][11] == 1
    assert view.sides[0][13] == 3


def test_the_start_shows_the_opening_roll_one_die_each() -> None:
    (game,) = replay_games(RULES, CUBE_GAME)
    view, marks = frame_view(game.frames[0])
    assert (view.opening_dice, view.dice, view.turn, marks) == ((3, 1), None, 0, None)


def test_the_cube_frames_show_the_cube() -> None:
    (game,) = replay_games(RULES, CUBE_GAME)
    double, take = (frame_view(frame)[0] for frame in game.frames[4:6])
    assert (double.double_offered, double.turn, double.cube_value) == (True, 0, 1)
    assert (take.double_offered, take.turn, take.cube_value, take.cube_owner) == (False, 0, 2, 0)


def test_the_end_frame_shows_the_winner() -> None:
    (game,) = replay_games(RULES, CUBE_GAME)
    end = game.frames[-1]
    assert end.kind is FrameKind.END
    view, marks = frame_view(end)
    assert (view.winner, view.turn, marks) == (0, None, None)
    assert (view.score, view.cube_value, view.cube_owner) == ((2, 0), 2, 0)


def test_the_last_play_of_a_game_shows_the_winner_too(long_game: GameReplay) -> None:
    last = long_game.frames[-1]
    assert last.kind is FrameKind.PLAY
    assert last.result is not None
    view, marks = frame_view(last)
    assert (view.winner, view.turn) == (last.result.winner, None)
    assert marks is not None
    assert view.dice == last.dice
    assert view.sides[last.result.winner][0] == 15


def test_captions_use_the_given_labels() -> None:
    (game,) = replay_games(RULES, CUBE_GAME)
    german = {
        "game": "Partie {number}",
        "starts": "{name} beginnt",
        "played": "{name}: {play}",
        "doubles": "{name} doppelt auf {value}",
        "takes": "{name} nimmt an",
        "passes": "{name} passt",
        "wins": "{name} gewinnt",
    }
    names = ("Anna", "Bob")
    assert [_caption(frame, names, german) for frame in game.frames] == [
        "Partie 1 · Anna beginnt",
        "Anna: 8/5 6/5",
        "Bob: 24/14",
        "Anna: 13/11* 13/8",
        "Bob doppelt auf 2",
        "Anna nimmt an",
        "Bob: bar/22 24/18",
        "Anna doppelt auf 4",
        "Bob passt · Anna gewinnt",
    ]


def test_long_nardy_frames_render() -> None:
    rules = MatchRules(variant=Variant.LONG_NARDY, length=3)
    actions: list[Action] = [OpeningRoll((2, 5)), Roll(1, (6, 6)), Move(1, "24/18(2)")]
    (game,) = replay_games(rules, actions)
    lot, play = (frame_view(frame) for frame in game.frames)
    assert (lot[0].opening_dice, lot[0].light) == ((2, 5), 1)
    assert play[1] is not None
    assert play[1].paths == ((24, 18, ()), (24, 18, ()))
    assert len(moments(render_replay_animation(game, names=NAMES))) == 2


def test_the_drawing_functions_take_picklable_arguments() -> None:
    """The bot draws in separate processes: everything crosses as a pickled partial."""
    (game,) = replay_games(RULES, CUBE_GAME)
    labels = {"takes": "{name} nimmt an"}
    for draw in (
        partial(render_replay_animation, game, names=list(NAMES), labels=labels, theme="dark"),
        partial(render_replay_frame, game.frames[3], names=list(NAMES), labels=labels),
        partial(render_game_animation, RULES, tuple(CUBE_GAME), 1, names=list(NAMES)),
    ):
        copied = pickle.loads(pickle.dumps(draw))
        assert copied() == draw()


def test_a_game_is_drawn_from_the_log_as_from_its_frames() -> None:
    """The drawing process may rebuild a game's frames from the log itself: the same GIF."""
    actions = (*CUBE_GAME, OpeningRoll((6, 1)), Move(0, "13/7 8/7"))
    first, second = replay_games(RULES, actions)
    assert render_game_animation(RULES, actions, 1, names=NAMES) == render_replay_animation(
        first, names=NAMES
    )
    assert render_game_animation(RULES, actions, 2, names=NAMES) == render_replay_animation(
        second, names=NAMES
    )
    for missing in (0, 3):
        with pytest.raises(ValueError, match=f"no game {missing}"):
            render_game_animation(RULES, actions, missing, names=NAMES)
