"""``/replay [match] [game]``: a game as an animation, and one board to step through it.

The board's buttons [⏮] [◀] [▶] [⏭] each carry the frame they lead to (see
:func:`bot.core.tokens.replay_position`), so a press needs nothing but the event log: it works
after a restart, for anyone in the chat, any number of times. A press edits the board it was
made on; a replay is shown in the chat it was asked in, for a match of that chat or one the
caller played (one chat never sees another chat's match otherwise).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.core.context import Context
from bot.core.info.replays import (
    GameAnimations,
    ReplayFrames,
    ReplayPictures,
    frame_caption,
    theme_of,
)
from bot.core.match.match_finder import MatchFinder
from bot.core.model import Button, Message, in_place_of_pressed
from bot.core.people import PlayerNames
from bot.core.tokens import Token, Verb, format_token, replay_frame, replay_position
from gammon.replay import GameReplay
from rendering.replay import frame_view
from storage import MatchInfo, MatchRepository

_NUMBER = re.compile(r"#?([0-9]{1,9})")
_STEPS = (
    ("⏮", Verb.REPLAY_FIRST),
    ("◀", Verb.REPLAY_BACK),
    ("▶", Verb.REPLAY_FORWARD),
    ("⏭", Verb.REPLAY_LAST),
)


@dataclass(frozen=True)
class ReplayService:
    finder: MatchFinder
    matches: MatchRepository
    names: PlayerNames
    frames: ReplayFrames
    pictures: ReplayPictures
    animations: GameAnimations

    async def replay(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        wanted = _numbers(argument)
        if wanted is None:
            return context.refuse(
                _(
                    "Which game? /replay shows the last finished game of your last match "
                    "here (or of this chat's); /replay 12 that of match 12, /replay 12 3 its "
                    "game 3."
                )
            )
        match_number, game_number = wanted
        if match_number is not None:
            info = await self.finder.visible(context, match_number)
            if info is None:
                return context.refuse(
                    _("I know no match {id} of this chat or of yours.").format(id=match_number)
                )
        else:
            # The caller's last match here; a spectator's: the chat's last one.
            info = await self.matches.latest_match_for(
                context.chat.id, context.user.id
            ) or await self.matches.latest_match_in(context.chat.id)
            if info is None:
                return context.refuse(_("There is no match in this chat yet."))
        games = await self.frames.games(info)
        number = _default_game(games) if game_number is None else game_number
        if not 1 <= number <= len(games):
            return context.refuse(
                _("Match {id} has no game {number}: its games are 1 to {count}.").format(
                    id=info.id, number=number, count=len(games)
                )
                if games
                else _("Match {id} has not begun yet.").format(id=info.id)
            )
        game = games[number - 1]
        names = await self._names(context, info)
        animation = await self.animations.message(context, info, game, names)
        board = await self.step(context, info, game, 0, names)
        return [board] if animation is None else [animation, board]

    async def press(self, context: Context, token: Token) -> list[Message]:
        """A step button: the board of the frame it leads to, in place of the pressed one."""
        _ = context._
        number, index = replay_frame(token.version)
        info = await self.finder.visible(context, token.target)
        games = await self.frames.games(info) if info is not None else ()
        if info is None or not 1 <= number <= len(games):
            return context.refuse(_("That button is out of date."))
        game = games[number - 1]
        index = min(max(index, 0), len(game.frames) - 1)
        names = await self._names(context, info)
        shown = await self.step(context, info, game, index, names)
        return [in_place_of_pressed(shown)]

    async def step(
        self,
        context: Context,
        info: MatchInfo,
        game: GameReplay,
        index: int,
        names: Sequence[str],
    ) -> Message:
        """The board of frame ``index`` with the buttons to step on (for the whole chat)."""
        _ = context.for_chat
        frame = game.frames[index]
        last = len(game.frames) - 1
        targets = {
            Verb.REPLAY_FIRST: 0,
            Verb.REPLAY_BACK: max(index - 1, 0),
            Verb.REPLAY_FORWARD: min(index + 1, last),
            Verb.REPLAY_LAST: last,
        }
        buttons = tuple(
            Button(
                label,
                format_token(
                    Token(verb, "r", info.id, replay_position(game.number, targets[verb]))
                ),
            )
            for label, verb in _STEPS
        )
        headline = _("Replay of match {id}, game {number}: {position} of {count}").format(
            id=info.id, number=game.number, position=index + 1, count=last + 1
        )
        text = f"{headline}\n{frame_caption(_, frame, names)}"
        view, _last_play = frame_view(frame)
        image = await self.pictures.frame(frame, names, _, theme_of(context))
        return Message(context.request.chat, text, buttons, image=image, board=view)

    async def _names(self, context: Context, info: MatchInfo) -> list[str]:
        players = await self.names.of_info(info, context)
        return [player.display_name for player in players]


def _default_game(games: Sequence[GameReplay]) -> int:
    """The game ``/replay`` means without a number: the last one that has ended, else the
    one being played."""
    finished = [game.number for game in games if game.result is not None]
    return finished[-1] if finished else len(games)


def _numbers(argument: str) -> tuple[int | None, int | None] | None:
    """The match and game numbers of ``/replay``'s argument (``12``, ``12 3``, ``#12 game 3``,
    ``game 3``), or None when it is not of that form.

    >>> _numbers("#12 game 3"), _numbers("game 2"), _numbers(""), _numbers("12 x")
    ((12, 3), (None, 2), (None, None), None)
    """
    words = argument.lower().split()
    game: int | None = None
    if len(words) >= 2 and words[-2] == "game":
        found = _NUMBER.fullmatch(words[-1])
        if found is None:
            return None
        game = int(found.group(1))
        words = words[:-2]
    numbers = [_NUMBER.fullmatch(word) for word in words]
    if not all(numbers) or len(numbers) > (1 if game is not None else 2):
        return None
    values = [int(found.group(1)) for found in numbers if found]
    match = values[0] if values else None
    if len(values) == 2:
        game = values[1]
    return match, game
