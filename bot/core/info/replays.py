"""Replays of games: their frames from the event log, and their pictures.

A game's frames (the start, every play, every roll that could not be played, every cube
action, the end) are rebuilt from the match's event log, so a replay needs nothing stored
beyond the match itself and survives any restart. Rebuilding replays every action of the
match: it runs on a worker thread and is kept for recently replayed matches (by version, so a
match that went on is rebuilt). The pictures, a still frame or a whole game as an animated
GIF, are drawn by the painter's processes like every board.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from contextlib import nullcontext
from functools import partial

from bot.core.context import Context
from bot.core.model import Message
from bot.core.runtime.admission import Admission
from bot.core.runtime.painter import Painter
from bot.core.text.dice_names import roll_text
from bot.core.text.i18n import Speech
from bot.core.text.texts import game_result_text
from gammon.actions import Action
from gammon.replay import FrameKind, GameReplay, ReplayFrame, replay_games
from rendering import DEFAULT_LABELS
from rendering.replay import render_game_animation, render_replay_animation, render_replay_frame
from storage import MatchInfo, MatchRepository

_KEPT_MATCHES = 32


class ReplayFrames:
    """The games of a match as frames, rebuilt from its event log."""

    def __init__(self, matches: MatchRepository) -> None:
        self._matches = matches
        self._kept: OrderedDict[int, tuple[int, tuple[GameReplay, ...]]] = OrderedDict()

    async def games(self, info: MatchInfo) -> tuple[GameReplay, ...]:
        """Every game of the match that has begun, the last one possibly still going on."""
        kept = self._kept.get(info.id)
        if kept is not None and kept[0] == info.version:
            self._kept.move_to_end(info.id)
            return kept[1]
        actions = await self.history(info)
        games = await asyncio.to_thread(replay_games, info.rules, actions)
        self._kept[info.id] = (info.version, games)
        if len(self._kept) > _KEPT_MATCHES:
            self._kept.popitem(last=False)
        return games

    async def history(self, info: MatchInfo) -> tuple[Action, ...]:
        """The match's actions up to ``info``'s version."""
        return await self._matches.history(info.id, info.version)


class ReplayPictures:
    """Frames and whole games drawn in the caller's language and theme (nothing when
    pictures are off: the console without images, some tests)."""

    def __init__(
        self, painter: Painter, enabled: bool = True, admission: Admission | None = None
    ) -> None:
        self._painter = painter
        self.enabled = enabled
        self._admission = admission  # a request waiting for a whole game steps aside

    async def frame(
        self,
        frame: ReplayFrame,
        names: Sequence[str],
        _: Speech,
        theme: str = "classic",
        *,
        aside: bool = False,
    ) -> bytes | None:
        """One frame as a PNG, its labels in the language of ``_``; ``aside`` for a web page
        (see :meth:`Painter.paint`)."""
        if not self.enabled:
            return None
        draw = partial(
            render_replay_frame, frame, names=list(names), labels=_labels(_), theme=theme
        )
        return await self._painter.paint(draw, aside=aside)

    async def animation(
        self, context: Context, game: GameReplay, names: Sequence[str]
    ) -> bytes | None:
        """The whole game as an animated GIF, one frame per play, the last held longer."""
        if not self.enabled:
            return None
        return await self._long(
            partial(
                render_replay_animation,
                game,
                names=list(names),
                labels=_labels(context.for_chat),
                theme=theme_of(context),
            )
        )

    async def game_of(
        self,
        context: Context,
        info: MatchInfo,
        actions: Sequence[Action],
        number: int,
        names: Sequence[str],
    ) -> bytes | None:
        """Game ``number`` of the match ``actions`` played, as an animated GIF: its frames
        are rebuilt in the drawing process, not in the bot's."""
        if not self.enabled:
            return None
        return await self._long(
            partial(
                render_game_animation,
                info.rules,
                tuple(actions),
                number,
                names=list(names),
                labels=_labels(context.for_chat),
                theme=theme_of(context),
            )
        )

    async def _long(self, draw: partial[bytes]) -> bytes:
        # A few hundred milliseconds in the drawing process: other requests go on meanwhile.
        async with self._admission.aside() if self._admission else nullcontext():
            return await self._painter.paint(draw)


class GameAnimations:
    """A finished game as an animated picture with a line saying which it is: posted when a
    game ends and on ``/replay``."""

    def __init__(self, frames: ReplayFrames, pictures: ReplayPictures) -> None:
        self.frames = frames
        self.pictures = pictures

    async def of_game(
        self, context: Context, info: MatchInfo, number: int, names: Sequence[str]
    ) -> Message | None:
        """Game ``number`` of the match, or None without pictures."""
        if not self.pictures.enabled:
            return None
        actions = await self.frames.history(info)
        animation = await self.pictures.game_of(context, info, actions, number, names)
        return self._posted(context, info, number, animation, names)

    async def message(
        self, context: Context, info: MatchInfo, game: GameReplay, names: Sequence[str]
    ) -> Message | None:
        animation = await self.pictures.animation(context, game, names)
        return self._posted(context, info, game.number, animation, names)

    @staticmethod
    def _posted(
        context: Context,
        info: MatchInfo,
        number: int,
        animation: bytes | None,
        names: Sequence[str],
    ) -> Message | None:
        if animation is None:
            return None
        text = context.for_chat._("Game {number} of match {id} ({a} vs {b}), play by play.").format(
            number=number, id=info.id, a=names[0], b=names[1]
        )
        return Message(context.request.chat, text, animation=animation)


def _labels(_: Speech) -> dict[str, str]:
    return {key: _(text) for key, text in DEFAULT_LABELS.items()}


def theme_of(context: Context) -> str:
    """The caller's board theme."""
    theme = context.user.prefs.theme
    return theme if theme in ("classic", "dark") else "classic"


def frame_caption(_: Speech, frame: ReplayFrame, names: Sequence[str]) -> str:
    """What happened in one frame, in a sentence (the board shows where)."""
    name = names[frame.player] if frame.player is not None else ""
    dice = frame.dice
    if frame.kind is FrameKind.START and dice is None:  # long nardy's later games: no lot
        text = _("Game {number}: {name} starts.").format(
            number=frame.game, name=names[frame.state.player_on_roll]
        )
    elif frame.kind is FrameKind.START:
        assert dice is not None
        text = (
            _("The lot: {a} {x}, {b} {y}. {winner} takes White and starts.")
            if frame.state.variant.value == "long_nardy"
            else _("Opening roll: {a} {x}, {b} {y}. {winner} starts with {high}-{low}.")
        ).format(
            a=names[0],
            x=dice[0],
            b=names[1],
            y=dice[1],
            winner=names[0 if dice[0] > dice[1] else 1],
            high=max(dice),
            low=min(dice),
        )
    elif frame.kind is FrameKind.PLAY:
        assert dice is not None
        assert frame.play is not None
        text = _("{name} rolled {roll} and played {play}.").format(
            name=name, roll=roll_text(_.locale, dice), play=frame.play
        )
    elif frame.kind is FrameKind.CANNOT_MOVE:
        roll = roll_text(_.locale, dice) if dice else ""
        text = _("{name} rolled {dice} and cannot move.").format(name=name, dice=roll)
    elif frame.kind is FrameKind.DOUBLE:
        text = _("{name} doubles to {value}.").format(name=name, value=frame.state.cube_value * 2)
    elif frame.kind is FrameKind.TAKE:
        text = _("{name} takes. The cube is at {value}.").format(
            name=name, value=frame.state.cube_value
        )
    elif frame.kind is FrameKind.BEAVER:
        text = _("{name} beavers. The cube is at {value}.").format(
            name=name, value=frame.state.cube_value
        )
    else:
        text = ""
    if frame.result is not None:
        ending = game_result_text(_, frame.result, names, frame.state.variant)
        text = f"{text} {ending}".strip()
    return text
