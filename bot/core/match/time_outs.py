"""Match clocks running out (:mod:`gammon.clock`, WBGF § 4.3): the time-out applied once.

Whoever notices a clock that ran out applies it: the clock's timer in any process
(:meth:`TimeOuts.due`, which every process runs every few seconds and at the nearest deadline
it knows of), or the driver when the late player's own action arrives (it becomes the
time-out). The write is version-checked like every action, so one of them records it and the
others find the match moved on. The rules decide what it means (:class:`gammon.actions.TimeOut`:
the match lost, or won for sure); the decision is logged and is an event of the match's log.
The bot (``/play … clock=…``) never loses on time: only the person's clock is applied.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Final

from bot.core.context import Context, clock_context_in
from bot.core.model import Message
from bot.core.text.i18n import Speech
from gammon.actions import TimeOut
from gammon.flow import GameEnd, Phase
from storage import ConflictError, LoadedMatch, NotFoundError

if TYPE_CHECKING:
    from bot.core.match.driver import MatchDriver

logger = logging.getLogger(__name__)


def ran_out(loaded: LoadedMatch, now: datetime) -> bool:
    """Whether the clock of the player who must act has run out at ``now``."""
    clock = loaded.info.clock
    return (
        clock is not None
        and clock.deadline is not None
        and clock.deadline <= now
        and loaded.info.status == "active"
        and loaded.state.turn is not None
    )


@dataclass(frozen=True)
class TimeOuts:
    driver: MatchDriver

    async def due(self, now: datetime | None = None) -> list[Message]:
        """Every clock that ran out by ``now``, applied, with the boards that follow."""
        moment = now or self.driver.time()
        messages: list[Message] = []
        for info in await self.driver.matches.clocks_before(moment):
            try:
                async with self.driver.locks.hold(info.id):
                    loaded = await self.driver.matches.load_match(info.id)
                    chat = await self.driver.chats.get_chat(loaded.info.chat_id)
                    context = clock_context_in(chat)
                    messages += context.outgoing(await self.apply(context, loaded) or [])
            except (ConflictError, NotFoundError):
                logger.info("match %s moved on while its clock ran out", info.id)
        return messages

    async def next_deadline(self, before: datetime) -> datetime | None:
        """The nearest clock deadline before ``before`` (for a timer), if any."""
        found = await self.driver.matches.clocks_before(before)
        deadlines = [info.clock.deadline for info in found if info.clock and info.clock.deadline]
        return min(deadlines, default=None)

    async def apply(self, context: Context, loaded: LoadedMatch) -> list[Message] | None:
        """The time-out of the player who must act, if their clock has run out (the caller
        holds the match's lock): the board after it, or None when nothing ran out. Raises
        :class:`ConflictError` when another process recorded it (or anything) first."""
        if not ran_out(loaded, self.driver.time()):
            return None
        late = loaded.state.turn
        assert late is not None  # ran_out checks it
        players = await self.driver.names.of(loaded, context)
        if players[late].is_bot:  # it plays at once; after a restart the minute tick resumes it
            return None
        appended = await self.driver.write(
            loaded, await self.driver.steps(loaded, TimeOut(late), players)
        )
        state = appended.match.state
        reason = state.games[-1].reason
        logger.info(
            "match %s: the clock of seat %s ran out at version %s; %s",
            loaded.info.id,
            late,
            loaded.info.version,
            _DECISIONS[reason],
        )
        note = _note(context.for_chat, reason, players[late].display_name)
        shown = await self.driver.presenter.after(context, appended, by_player=False, lead=[note])
        if state.phase is Phase.FINISHED:
            shown += await self.driver.tournaments.after_match(context, loaded.info.id)
        return shown


_DECISIONS: Final = {
    GameEnd.FORFEIT: "the match is lost",
    GameEnd.TIME_OUT: "the match was won for sure, so it is theirs",
    GameEnd.RESIGN: "the offer to resign counts as accepted",
}


def _note(_: Speech, reason: GameEnd, name: str) -> str:
    """What the board after a time-out says first."""
    if reason is GameEnd.RESIGN:
        return _(
            "{name} did not answer the offer to resign in time, so it counts as accepted."
        ).format(name=name)
    if reason is GameEnd.TIME_OUT:
        return _(
            "{name}'s time ran out, but the match was already won for sure: it counts as won."
        ).format(name=name)
    return _("{name}'s time ran out: the match is lost on time.").format(name=name)
