"""Time in asynchronous play: challenges expire, players are reminded, late players forfeit.

:meth:`Clock.tick` is called at start and every minute. Everything it knows is in the
database (deadlines and which reminder went out for which version), so a restart loses nothing
and repeats nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.core.chouette.clock import ChouetteClock
from bot.core.context import wants_private_notice
from bot.core.match.notices import private_notices
from bot.core.model import Button, ChatRef, Message, Public, Slot
from bot.core.text.direction import directed
from bot.core.text.i18n import Speech, room_locale, speech
from bot.core.text.numbers import duration
from bot.core.tokens import Token, format_token
from storage import (
    ChallengeRepository,
    ChatRepository,
    ConflictError,
    MatchInfo,
    MatchRepository,
    NotFoundError,
    UserRepository,
)

logger = logging.getLogger(__name__)

HALF_TIME = 1
LAST_HOUR = 2
TIME_UP = 3


@dataclass(frozen=True)
class ClockPort:
    """What the clock uses, handed to it by the composition root (:mod:`bot.core.bootstrap`):
    the repositories it reads, how to settle an unanswered resignation and how to resume the
    bot's interrupted turn (the match driver's and the computer opponent's, behind the locks
    of the match), what now is, and the chouettes' clock."""

    challenges: ChallengeRepository
    chats: ChatRepository
    users: UserRepository
    matches: MatchRepository
    settle: Callable[[int], Awaitable[list[Message]]]
    resume: Callable[[int], Awaitable[list[Message]]]
    now: Callable[[], datetime]
    chouettes: ChouetteClock
    tournaments: Callable[[], Awaitable[list[Message]]]  # pairings nobody announced
    # Match clocks (bot.core.match.time_outs): those that ran out by a moment, applied, and
    # the nearest deadline before a moment.
    time_outs: Callable[[datetime], Awaitable[list[Message]]] | None = None
    next_deadline: Callable[[datetime], Awaitable[datetime | None]] | None = None


class Clock:
    """Asynchronous play's deadlines, through its :class:`ClockPort` alone."""

    def __init__(self, port: ClockPort) -> None:
        self._challenges = port.challenges
        self._chats = port.chats
        self._users = port.users
        self._matches = port.matches
        self._settle = port.settle
        self._resume = port.resume
        self._now = port.now
        self._chouettes = port.chouettes
        self._tournaments = port.tournaments
        self._time_outs = port.time_outs
        self._next_deadline = port.next_deadline
        self.now = port.now

    async def clocks(self, now: datetime | None = None) -> list[Message]:
        """The match clocks that ran out by ``now``, applied (every few seconds and at the
        nearest deadline: :meth:`next_clock`)."""
        if self._time_outs is None:
            return []
        return [directed(message) for message in await self._time_outs(now or self._now())]

    async def next_clock(self, within: timedelta) -> datetime | None:
        """The nearest match clock deadline from now to ``within`` from now, if any."""
        if self._next_deadline is None:
            return None
        return await self._next_deadline(self._now() + within)

    async def tick(self, now: datetime | None = None) -> list[Message]:
        moment = now or self._now()
        messages: list[Message] = []
        for offer in await self._challenges.due_challenges(moment):
            try:
                await self._challenges.answer_challenge(offer.id, "expired")
            except ConflictError:
                continue
            chat = await self._chats.get_chat(offer.chat_id)
            challenger = await self._users.get_user(offer.challenger_id)
            locale = room_locale(chat)
            _ = speech(locale)
            messages.append(
                Message(
                    ChatRef(chat.platform, chat.platform_chat_id),
                    _("The challenge from {name} has expired.").format(
                        name=challenger.display_name
                    ),
                    kind=Public(Slot(f"challenge:{offer.id}")),
                    locale=locale,
                )
            )
        for info in await self._matches.bot_turn_matches():  # interrupted by a restart
            try:
                messages += await self._resume(info.id)
            except Exception:
                logger.exception("the bot's turn in match %s failed", info.id)
        for info in await self._matches.timed_matches():
            try:
                messages += await self._remind(info, moment)
            except (ConflictError, NotFoundError):
                logger.info("match %s changed while reminding", info.id)
        messages += await self._chouettes.tick(moment)
        messages += await self._tournaments()
        messages += await self.clocks(moment)
        return [directed(message) for message in messages]

    async def _remind(self, info: MatchInfo, now: datetime) -> list[Message]:
        if info.deadline is None or info.move_time_limit is None or info.turn_user_id is None:
            return []
        limit = timedelta(seconds=info.move_time_limit)
        if now >= info.deadline:
            stage = TIME_UP
        elif now >= info.deadline - timedelta(hours=1):
            stage = LAST_HOUR
        elif now >= info.deadline - limit / 2:
            stage = HALF_TIME
        else:
            return []
        marker = info.board_messages.get("reminded", {})
        if marker.get("version") == info.version and marker.get("stage", 0) >= stage:
            return []
        chat = await self._chats.get_chat(info.chat_id)
        late = await self._users.get_user(info.turn_user_id)
        if stage == TIME_UP:
            # A resignation left unanswered is settled as accepted (the answerer was on the
            # clock; nobody claims a match by offering to lose a game).
            settled = await self._settle(info.id)
            if settled:
                return settled
        # Every process's clock ticks: the one that marks the reminder sends it.
        if not await self._matches.claim_reminder(info.id, info.version, stage):
            return []
        waiting_id = info.player_ids[1] if info.player_ids[0] == late.id else info.player_ids[0]
        waiting = await self._users.get_user(waiting_id)
        where = ChatRef(chat.platform, chat.platform_chat_id)
        locale = room_locale(chat)  # the whole chat reads it
        _ = speech(locale)
        if stage == TIME_UP:
            claim = format_token(Token("claim", "m", info.id, info.version))

            def time_up(_: Speech) -> str:
                return _(
                    "{late} has run out of time in match {id}. {waiting} may claim the match."
                ).format(late=late.display_name, id=info.id, waiting=waiting.display_name)

            notify = wants_private_notice(waiting, late)
            return [
                Message(
                    where,
                    time_up(_),
                    (Button(_("Claim win"), claim),),
                    mention=(waiting.platform_user_id, late.platform_user_id),
                    notify=notify,
                    kind=Public(Slot(f"claim:{info.id}")),
                    locale=locale,
                    notices=private_notices((waiting, late), notify, chat, time_up),
                )
            ]
        left = (info.deadline - now).total_seconds()

        def reminder(_: Speech) -> str:
            return _("{name}, it is your turn in match {id}: {time} left.").format(
                name=late.display_name, id=info.id, time=duration(_.locale, left)
            )

        notify = wants_private_notice(late)
        return [
            Message(
                where,
                reminder(_),
                mention=(late.platform_user_id,),
                notify=notify,
                locale=locale,
                notices=private_notices((late,), notify, chat, reminder),
            )
        ]
