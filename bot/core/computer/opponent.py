"""The bot as a player: when a match against it waits for the bot, it decides (in the
engine's workers), acts through the same rules and dice as any player, and says what it did.

Everything the bot does until a person must act again is planned step by step and written
in one version-checked append, so the players see one answer: the board after the bot's
turn. The bot has no clock of its own; a turn interrupted by a restart is played when the
clock finds it (:meth:`ComputerOpponent.resume`).
"""

from __future__ import annotations

import logging
import zlib
from dataclasses import dataclass
from functools import partial

from bot.core.computer.computer import Computer
from bot.core.context import Context
from bot.core.events import match_then
from bot.core.match.automatic import follow_up
from bot.core.match.presenter import Presenter
from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.people import PlayerNames
from bot.core.runtime.locks import MatchLocks
from bot.core.runtime.time_source import TimeSource
from bot.core.text.i18n import resolve_locale, room_locale
from engine.acting import action_for
from engine.api import DEFAULT_LEVEL, Level
from gammon.flow import Step, plan
from storage import (
    ChatRepository,
    ConflictError,
    DiceRepository,
    LoadedMatch,
    MatchRepository,
    UserRecord,
)

logger = logging.getLogger(__name__)

# Decisions in one answer at most: a whole game can pass without the person (the bot wins
# the opening roll after accepting a resignation, and so on), but never forever.
MAX_DECISIONS = 64


def bot_seat(players: tuple[UserRecord, UserRecord]) -> int | None:
    """The seat the bot plays in this match, if any."""
    for seat, player in enumerate(players):
        if player.is_bot:
            return seat
    return None


@dataclass(frozen=True)
class ComputerOpponent:
    computer: Computer
    matches: MatchRepository
    dice: DiceRepository
    chats: ChatRepository
    names: PlayerNames
    presenter: Presenter
    time: TimeSource

    async def answer(self, context: Context, loaded: LoadedMatch) -> list[Message]:
        """Play the bot's turn if the match waits for it. The caller holds the match's lock."""
        if loaded.info.bot_level is None or loaded.info.status != "active":
            return []
        players = await self.names.of(loaded, context)
        seat = bot_seat(players)
        if seat is None or loaded.state.turn != seat:
            return []
        try:
            steps = await self._plan_turn(loaded, players, seat)
        except Exception:
            # What the person did is stored and answered all the same; the clock plays the
            # bot's turn at its next tick.
            logger.exception("the bot's turn in match %s failed", loaded.info.id)
            return []
        if not steps:
            return []
        try:
            appended = await self.matches.append(
                loaded.info.id,
                loaded.info.version,
                steps,
                actor_id=players[seat].id,
                now=self.time(),
                then=match_then(loaded.info, loaded.state, steps),
            )
        except ConflictError:
            return []  # someone acted at the same moment; the next answer comes from them
        return await self.presenter.after(context, appended)

    async def _plan_turn(
        self, loaded: LoadedMatch, players: tuple[UserRecord, UserRecord], seat: int
    ) -> list[Step]:
        level = Level(loaded.info.bot_level or DEFAULT_LEVEL)
        roller = await self.dice.roller(loaded.info.id)
        follow = follow_up(players)
        state = loaded.state
        steps: list[Step] = []
        for count in range(MAX_DECISIONS):
            if state.turn != seat:
                break
            seed = zlib.crc32(f"{loaded.info.id}:{loaded.info.version}:{count}".encode())
            decision = await self.computer.decide(state, seat, level, seed)
            action = action_for(state, decision, seat, partial(roller, state.dice_events))
            planned = plan(state, action, follow, roller)
            steps += planned
            state = planned[-1].after
        return steps

    async def resume(self, match_id: int, locks: MatchLocks) -> list[Message]:
        """The bot's turn in a match whose answer was interrupted (found by the clock)."""
        async with locks.hold(match_id):
            loaded = await self.matches.load_match(match_id)
            players = await self.names.of(loaded)
            seat = bot_seat(players)
            if seat is None:
                return []
            chat = await self.chats.get_chat(loaded.info.chat_id)
            human = players[1 - seat]
            where = ChatRef(chat.platform, chat.platform_chat_id, locale=chat.locale)
            actor = Actor(human.platform, human.platform_user_id, human.display_name)
            locale = resolve_locale(human, chat)
            context = Context(Request(actor, where), human, chat, locale, room_locale(chat))
            return context.outgoing(await self.answer(context, loaded))
