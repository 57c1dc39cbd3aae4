"""Joining and leaving a chouette: at once between games, when it ends during a game (a
request the other kind takes back), under the chouette's lock against the session as it is
now. Whether a seat is left for a join during a game is counted by the database, in the
transaction that writes the request (:meth:`storage.ChouetteRepository.request`), so two
processes never promise the last seat twice."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core.chouette import texts as chouette_texts
from bot.core.chouette.rounds import TRIES, ChouetteRounds
from bot.core.context import Context
from bot.core.model import Message
from bot.core.runtime.locks import MatchLocks
from bot.core.runtime.time_source import TimeSource
from gammon.chouette import ChouetteError
from storage import ChouetteInfo, ChouetteRepository, ChouetteStatus, ConflictError

JOIN, LEAVE = "join", "leave"  # what a player asks for during a game (ChouetteRepository.request)


class ChouetteJoining:
    def __init__(
        self,
        chouettes: ChouetteRepository,
        rounds: ChouetteRounds,
        locks: MatchLocks,
        time: TimeSource,
    ) -> None:
        self.chouettes = chouettes
        self.rounds = rounds
        self.locks = locks
        self.time = time

    async def join(self, context: Context, info: ChouetteInfo) -> list[Message]:
        return await self._seat_change(context, info.id, self._join)

    async def leave(self, context: Context, info: ChouetteInfo) -> list[Message]:
        return await self._seat_change(context, info.id, self._leave)

    async def _seat_change(
        self,
        context: Context,
        chouette_id: int,
        change: Callable[[Context, ChouetteInfo], Awaitable[list[Message]]],
    ) -> list[Message]:
        """``change`` under the chouette's lock, against the session as it is now; again
        whenever another process changed it meanwhile. Once the session has ended (a moment
        ago, in another process), :meth:`ChouetteRounds.ended`."""
        async with self.locks.hold(chouette_id):
            for _try in range(TRIES):
                info = await self.chouettes.info(chouette_id)
                if info.status is ChouetteStatus.ENDED:
                    return await self.rounds.ended(context, chouette_id)
                try:
                    return await change(context, info)
                except ConflictError:
                    continue
        return context.refuse(context._("Sorry, something went wrong. Please try again."))

    async def _join(self, context: Context, info: ChouetteInfo) -> list[Message]:
        _ = context.for_chat
        user, name = context.user.id, context.user.display_name
        if info.status is ChouetteStatus.PLAYING:
            seated = info.is_seated(user)
            if seated and (user, LEAVE) not in await self.chouettes.requests(info.id):
                return context.refuse(context._("You already sit at this chouette."))
            try:  # counted in the database against every request before it, in any process
                made = await self.chouettes.request(info.id, user, JOIN, now=self.time())
            except ChouetteError as error:  # the table would seat more than eight
                if seated:
                    return context.refuse(
                        context._(
                            "Your seat is promised to a player who asked to join: you leave "
                            "the table when this game ends."
                        )
                    )
                return context.refuse(chouette_texts.refusal(context._, error))
            if seated:
                return [
                    Message(context.request.chat, _("{name} stays at the table.").format(name=name))
                ]
            if not made:
                return context.refuse(
                    context._("You asked already: you sit down when this game ends.")
                )
            text = _("{name} sits down at the end of the line when this game ends.")
            return [Message(context.request.chat, text.format(name=name))]
        try:
            await self.chouettes.join(info.id, user, info.version, now=self.time())
        except ChouetteError as error:
            return context.refuse(chouette_texts.refusal(context._, error))
        text = _("{name} sits down at the chouette.").format(name=name)
        return [Message(context.request.chat, text)]

    async def _leave(self, context: Context, info: ChouetteInfo) -> list[Message]:
        _ = context.for_chat
        user, name = context.user.id, context.user.display_name
        if info.status is ChouetteStatus.PLAYING:
            requests = await self.chouettes.requests(info.id)
            if not info.is_seated(user):
                if (user, JOIN) not in requests:
                    return context.refuse(context._("You do not sit at this chouette."))
                await self.chouettes.request(info.id, user, LEAVE, now=self.time())
                text = _("{name} will not sit down after all.")
                return [Message(context.request.chat, text.format(name=name))]
            if (user, LEAVE) in requests:
                return context.refuse(
                    context._("You asked already: you leave the table when this game ends.")
                )
            await self.chouettes.request(info.id, user, LEAVE, now=self.time())
            text = _("{name} leaves the table when this game ends.")
            return [Message(context.request.chat, text.format(name=name))]
        if not info.is_seated(user):
            return context.refuse(context._("You do not sit at this chouette."))
        await self.chouettes.leave(info.id, user, info.version, now=self.time())
        return [Message(context.request.chat, _("{name} leaves the table.").format(name=name))]
