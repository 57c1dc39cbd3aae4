"""Time in a chouette with a move time limit (``/chouette time=24h``): whoever the game waits
for (:func:`bot.core.chouette.view.must_act`) is reminded at half time and in the last hour,
each reminder once (claimed in the database, whatever the number of processes), and when time
is up :meth:`bot.core.chouette.play.ChouettePlay.time_up` decides for them.

In every chouette, timed or not, the clock takes over the bot's own next write when the
process that was to make it stopped, once :data:`SETTLE_AFTER` has passed, by one process
(:meth:`bot.core.chouette.play.ChouettePlay.resume_stopped`): a game that is over but was never
settled (its last action written, not its points) gets its points, the rotation, the next game
and the messages; a game started without its opening roll (the next game starts in the
settlement's own write, the first one at /chouette start) gets it and its board.

Called by :meth:`bot.core.scheduler.Clock.tick`, with the stages it uses for matches."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Final

from bot.core.chouette.play import ChouettePlay
from bot.core.chouette.view import must_act
from bot.core.context import Context, clock_context_in, wants_private_notice
from bot.core.match.notices import private_notices
from bot.core.model import ChatRef, Message
from bot.core.text.i18n import Speech, room_locale, speech
from bot.core.text.numbers import duration
from storage import (
    AlreadyAppliedError,
    ChatRepository,
    ChouetteInfo,
    ChouetteRepository,
    ConflictError,
    NotFoundError,
    UserRepository,
)

logger = logging.getLogger(__name__)

HALF_TIME = 1
LAST_HOUR = 2
TIME_UP = 3

# A game over for this long and not settled, or started this long ago without its opening roll,
# was left by a process that stopped: the one that wrote its last action (or started it) makes
# the next write at once, well within it.
SETTLE_AFTER: Final = timedelta(minutes=1)


def stage_at(info: ChouetteInfo, now: datetime) -> int:
    """Which reminder is due at ``now`` (0: none yet)."""
    if info.deadline is None or not info.move_time_limit:
        return 0
    if now >= info.deadline:
        return TIME_UP
    if now >= info.deadline - timedelta(hours=1):
        return LAST_HOUR
    if now >= info.deadline - timedelta(seconds=info.move_time_limit) / 2:
        return HALF_TIME
    return 0


class ChouetteClock:
    def __init__(
        self,
        chouettes: ChouetteRepository,
        chats: ChatRepository,
        users: UserRepository,
        play: ChouettePlay,
    ) -> None:
        self._chouettes = chouettes
        self._chats = chats
        self._users = users
        self._play = play

    async def tick(self, now: datetime) -> list[Message]:
        messages: list[Message] = []
        left = [
            *await self._chouettes.unsettled_chouettes(now - SETTLE_AFTER),
            *await self._chouettes.unrolled_chouettes(now - SETTLE_AFTER),
        ]
        for info in left:
            try:
                messages += await self._resume(info)
            except (ConflictError, AlreadyAppliedError, NotFoundError):
                logger.info("chouette %s moved on meanwhile", info.id)
        for info in await self._chouettes.timed_chouettes():
            try:
                messages += await self._remind(info, now)
            except (ConflictError, AlreadyAppliedError, NotFoundError):
                logger.info("chouette %s changed while reminding", info.id)
        return messages

    async def _resume(self, info: ChouetteInfo) -> list[Message]:
        """Settle a game that a stopped process left over and unsettled, or roll the opening
        roll of one it started."""
        logger.warning("chouette %s: game %s left by a stopped process", info.id, info.game_number)
        context = await self._context(info)
        return context.outgoing(await self._play.resume_stopped(context, info.id, info.version))

    async def _context(self, info: ChouetteInfo) -> Context:
        """The clock acting in the chouette's chat, in the chat's language."""
        return clock_context_in(await self._chats.get_chat(info.chat_id))

    async def _remind(self, info: ChouetteInfo, now: datetime) -> list[Message]:
        stage = stage_at(info, now)
        if not stage:
            return []
        marker = await self._chouettes.reminded(info.id)
        if marker is not None and marker[0] == info.version and marker[1] >= stage:
            return []
        loaded = await self._chouettes.load(info.id)
        game = loaded.game
        if game is None or loaded.info.version != info.version:
            return []
        late = [await self._users.get_user(int(player)) for player in must_act(game)]
        if not late:
            return []
        if stage == TIME_UP:
            context = await self._context(info)
            return context.outgoing(await self._play.time_up(context, info.id, info.version))
        chat = await self._chats.get_chat(info.chat_id)
        locale = room_locale(chat)  # the whole chat reads it
        # Every process's clock ticks: the one that marks the reminder sends it.
        if not await self._chouettes.claim_reminder(info.id, info.version, stage):
            return []
        left = (info.deadline - now).total_seconds() if info.deadline else 0.0
        names = ", ".join(user.display_name for user in late)

        def reminder(_: Speech) -> str:
            return _("{names}, the chouette is waiting for you: {time} left.").format(
                names=names, time=duration(_.locale, left)
            )

        notify = wants_private_notice(*late)
        return [
            Message(
                ChatRef(chat.platform, chat.platform_chat_id),
                reminder(speech(locale)),
                mention=tuple(user.platform_user_id for user in late if not user.is_bot),
                notify=notify,
                locale=locale,
                notices=private_notices(late, notify, chat, reminder),
            )
        ]
