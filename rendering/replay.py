"""Replays of games as pictures: one board per :class:`gammon.replay.ReplayFrame`, and a whole
game as an animated GIF that chat apps play inline (Telegram's sendAnimation, Discord).

Every argument is plain, picklable data, so the bot can run these functions in its drawing
processes (``functools.partial``). The board keeps one side's home at the bottom right for a
whole replay (``perspective``), so the picture does not flip from frame to frame.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from PIL import Image

from gammon.actions import Action
from gammon.flow import GameEnd
from gammon.match_rules import MatchRules
from gammon.position import Variant
from gammon.replay import FrameKind, GameReplay, ReplayFrame, replay_games
from rendering.board import DEFAULT_WIDTH, board_palette, render_marks
from rendering.changes import Piece, Redrawing
from rendering.gif import animated_gif, gif_frames
from rendering.labels import DEFAULT_LABELS, label
from rendering.marks import Mark, draw_marks
from rendering.palette import encode
from rendering.theme import THEMES
from rendering.view import BoardView, LastPlay

ANIMATION_WIDTH: Final = 640
"""Pixels: the point numbers and captions stay readable, and a long game stays small."""
FRAME_MS: Final = 1200
FINAL_MS: Final = 4000
# 127 colours and one index left free (it marks unchanged pixels): 7-bit codes.
# Measured on a 60-play game at 640 pixels: 255 colours cost 9 % more bytes and look the same
# on these flat colours; 63 save 11 % more but start to band the anti-aliased edges.
GIF_COLOURS: Final = 127
_SEPARATOR: Final = " · "


def frame_view(frame: ReplayFrame) -> tuple[BoardView, LastPlay | None]:
    """What one frame shows: the position, and the frame's own moment on it.

    A play or a roll that could not be played shows the mover's dice and the mover as the
    player to act (the state has already passed the turn), a play its moved checkers
    (:class:`LastPlay`); a take or beaver points at the taker; a double shows the offered cube
    and the doubled player to answer; the opening roll (or long nardy's lot) is shown one die
    each; the frame that ends the game names the winner (``None`` for a draw) and nobody to act.
    """
    view = BoardView.from_state(frame.state)
    marks = None
    if frame.kind is FrameKind.START:
        view = replace(view, opening_dice=frame.dice, dice=None)
    elif frame.kind in (FrameKind.PLAY, FrameKind.CANNOT_MOVE):
        view = replace(view, turn=frame.player, on_roll=frame.player, dice=frame.dice)
        if frame.play is not None and frame.player is not None:
            marks = LastPlay.from_play(frame.play, frame.player)
    elif frame.kind in (FrameKind.TAKE, FrameKind.BEAVER):
        view = replace(view, turn=frame.player)
    if frame.result is not None:
        view = replace(view, turn=None, winner=frame.result.winner)
    return view, marks


def render_replay_frame(
    frame: ReplayFrame,
    *,
    names: Sequence[str],
    labels: Mapping[str, str] | None = None,
    theme: str = "classic",
    width: int = DEFAULT_WIDTH,
    perspective: int = 0,
) -> bytes:
    """One frame as PNG bytes, ``width`` pixels wide, with its caption in the bottom band."""
    return encode(_frame_image(frame, names, labels, theme, width, perspective))


def render_replay_animation(
    game: GameReplay,
    *,
    names: Sequence[str],
    labels: Mapping[str, str] | None = None,
    theme: str = "classic",
    width: int = ANIMATION_WIDTH,
    frame_ms: int = FRAME_MS,
    final_ms: int = FINAL_MS,
    perspective: int = 0,
) -> bytes:
    """The game as an animated GIF (GIF89a) that loops forever: one frame each
    ``frame_ms`` milliseconds, the last held ``final_ms``.

    All frames share one palette, so each frame after the first is stored as the rectangle
    that changed, with unchanged pixels transparent: a 60-play game at 640 pixels is a few
    hundred KB. Each frame is drawn again only where it differs from the one before
    (:mod:`rendering.changes`): the same pictures, in half the time. A frame identical to the
    one before would be merged with it (adding up their durations); successive frames of a
    game differ in their caption, dice or cube.
    """
    if not game.frames:
        raise ValueError("a game without frames has nothing to show")
    redrawing: Redrawing | None = None
    drawn: list[list[Piece]] = []
    for frame in game.frames:
        background, marks = _frame_marks(frame, names, labels, theme, width, perspective)
        redrawing = redrawing or Redrawing(background)
        drawn.append(redrawing.draw(marks))
    palette = animation_palette(theme, width, game.frames[0].state.variant)
    durations = [frame_ms] * (len(drawn) - 1) + [final_ms]
    frames = gif_frames(drawn, durations, palette, GIF_COLOURS)
    return animated_gif(frames, bytes(palette.getpalette() or ()), GIF_COLOURS)


def animation_palette(theme: str, width: int, variant: Variant) -> Image.Image:
    """The colours of every animation of ``theme``, ``width`` and ``variant``: one palette for
    every frame lets the GIF store only what changed from frame to frame, and choosing it once
    from the boards the theme's board palette is chosen from (every kind of mark, both checker
    colours, every band's text) fits a game's frames as well as a palette chosen from that
    game's own frames, without drawing and quantizing samples of every game again (the
    comparison is in docs/benchmarks.md)."""
    return board_palette(THEMES[theme], width, variant, GIF_COLOURS)


def render_game_animation(
    rules: MatchRules,
    actions: Sequence[Action],
    number: int,
    *,
    names: Sequence[str],
    labels: Mapping[str, str] | None = None,
    theme: str = "classic",
) -> bytes:
    """Game ``number`` (from 1) of the match that ``actions`` played, drawn as
    :func:`render_replay_animation` draws it. The frames are rebuilt from the log here, so a
    drawing process given this function does all of the work: the bot sends it the log (a few
    KB) instead of a game's states, and rebuilds nothing."""
    games = replay_games(rules, actions)
    if not 1 <= number <= len(games):
        raise ValueError(f"the match has no game {number}")
    return render_replay_animation(games[number - 1], names=names, labels=labels, theme=theme)


def _frame_image(
    frame: ReplayFrame,
    names: Sequence[str],
    labels: Mapping[str, str] | None,
    theme: str,
    width: int,
    perspective: int,
) -> Image.Image:
    """The frame drawn with its caption (see :func:`_frame_marks`)."""
    background, marks = _frame_marks(frame, names, labels, theme, width, perspective)
    image = background.copy()
    draw_marks(image, marks)
    return image


def _frame_marks(
    frame: ReplayFrame,
    names: Sequence[str],
    labels: Mapping[str, str] | None,
    theme: str,
    width: int,
    perspective: int,
) -> tuple[Image.Image, list[Mark]]:
    """The empty board and the marks that draw the frame with its caption on it.

    The board writes its bottom band from a play, a double or a winner only; a replay needs a
    caption for every frame (a take, a drop, "Game 2 · Anna starts"). So the caption is
    handed over as the text of the frame's :class:`LastPlay` (without paths for frames that
    move nothing) and the band's template is just that text."""
    texts = DEFAULT_LABELS if labels is None else labels
    shown = _full_names(names, texts)
    view, marks = frame_view(frame)
    caption = _caption(frame, shown, texts)
    band = (
        replace(marks, text=caption)
        if marks is not None
        else LastPlay(frame.player or 0, (), caption)
    )
    return render_marks(
        replace(view, winner=None),  # the caption names the winner, after how the game ended
        perspective=perspective,
        theme=theme,
        size=width,
        names=shown,
        last_play=band,
        labels={**texts, "played": "{play}"},
    )


def _full_names(names: Sequence[str], labels: Mapping[str, str]) -> tuple[str, str]:
    """The names as the board shows them: "Player 1" and "Player 2" for missing ones."""
    first, second = (
        names[player]
        if player < len(names) and names[player].strip()
        else label(labels, "player", number=player + 1)
        for player in (0, 1)
    )
    return first, second


def _caption(frame: ReplayFrame, names: tuple[str, str], labels: Mapping[str, str]) -> str:
    """The frame's line in the bottom band, with the game's outcome on its last frame."""
    parts = [_moment(frame, names, labels)]
    result = frame.result
    if result is not None:
        if result.winner is None:
            parts.append(label(labels, "draw"))
        else:
            parts.append(label(labels, "wins", name=names[result.winner]))
    return _SEPARATOR.join(part for part in parts if part)


def _moment(frame: ReplayFrame, names: tuple[str, str], labels: Mapping[str, str]) -> str:
    """What happened in this frame (empty for an ending that needs no more than the winner)."""
    player = frame.player if frame.player is not None else 0
    name = names[player]
    state = frame.state
    if frame.kind is FrameKind.START:
        game = label(labels, "game", number=frame.game)
        return game + _SEPARATOR + label(labels, "starts", name=names[state.player_on_roll])
    if frame.kind is FrameKind.PLAY:
        return label(labels, "played", name=name, play=str(frame.play))
    if frame.kind is FrameKind.CANNOT_MOVE:
        return label(labels, "cannot_move", name=name)
    if frame.kind is FrameKind.DOUBLE:
        return label(labels, "doubles", name=name, value=state.cube_value * 2)
    if frame.kind is FrameKind.TAKE:
        return label(labels, "takes", name=name)
    if frame.kind is FrameKind.BEAVER:
        return label(labels, "beavers", name=name, value=state.cube_value)
    return _ending(frame, names, labels)


def _ending(frame: ReplayFrame, names: tuple[str, str], labels: Mapping[str, str]) -> str:
    """How a game ended without a play: the loser passed, resigned or ran out of time."""
    result = frame.result
    if result is None or result.winner is None:
        return ""
    if result.reason is GameEnd.TIME_OUT:  # the winner's time ran out, the match won for sure
        return label(labels, "out_of_time", name=names[result.winner])
    loser = names[1 - result.winner]
    keys = {GameEnd.DROP: "passes", GameEnd.RESIGN: "resigns", GameEnd.FORFEIT: "out_of_time"}
    key = keys.get(result.reason)
    return label(labels, key, name=loser) if key else ""
