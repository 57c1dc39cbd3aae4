"""Driving a match: a match as a table of the one driver (:mod:`bot.core.tables`: the lock,
versions, repeats and the retry), with the rules applied once (:func:`gammon.flow.plan`),
what plays by itself after it (opening rolls, automatic rolls, forced plays, dances) and the
messages that follow, all written in one version-checked append together with what it sets
off (:mod:`bot.core.events`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.core.context import Context, clock_context_in
from bot.core.events import match_then
from bot.core.match.automatic import follow_up
from bot.core.match.match_finder import MatchFinder, answer_in_private
from bot.core.match.presenter import Presenter, followed_by
from bot.core.match.time_outs import TimeOuts
from bot.core.model import Message
from bot.core.people import PlayerNames
from bot.core.refusal import Refusal
from bot.core.runtime.locks import MatchLocks
from bot.core.runtime.time_source import TimeSource
from bot.core.tables import Admitted, TableDriver
from bot.core.text import texts
from gammon.actions import AcceptResignation, Action
from gammon.flow import ActionError, Phase, Step, plan
from storage import (
    Appended,
    ChatRepository,
    ConflictError,
    DiceRepository,
    LoadedMatch,
    MatchRepository,
    UserRecord,
)

# What the caller does, made from the match as it is now and the caller's seat.
Maker = Callable[[LoadedMatch, int], Awaitable[Action]]


def _any_dice(nonce: int) -> tuple[int, int]:
    """Dice for asking whether something would play by itself, without reading the seed."""
    return (2, 1)


class Opponent(Protocol):
    """The bot at the board (:class:`bot.core.computer.opponent.ComputerOpponent`: the computer
    plays matches, so the matches know it only by this)."""

    async def answer(self, context: Context, loaded: LoadedMatch) -> list[Message]:
        """Play the bot's turn if the match waits for it (the caller holds the lock)."""


class AfterMatch(Protocol):
    """What follows a match's end beyond the match (the tournament it was played for)."""

    async def after_match(self, context: Context, match_id: int) -> list[Message]:
        """Said after the end of the match ``match_id``."""


@dataclass(frozen=True)
class MatchDriver:
    matches: MatchRepository
    dice: DiceRepository
    chats: ChatRepository
    names: PlayerNames
    presenter: Presenter
    finder: MatchFinder
    locks: MatchLocks
    time: TimeSource
    opponent: Opponent
    tournaments: AfterMatch  # a tournament's match ends: its next pairings

    async def act(
        self,
        context: Context,
        make: Maker,
        match_id: int | None = None,
        version: int | None = None,
        *,
        wanted: int | None = None,
    ) -> list[Message]:
        """Apply the caller's action to their match (or the match a button names). In a
        private chat, the caller's match that waits for them is meant, wherever it is played:
        the match's chat gets the board, the private chat the refusals and a short receipt."""
        origin = context.request.chat
        if match_id is None:
            context, match_id = await self.finder.addressed(context, wanted)
        elif origin.private:
            context = await self.finder.in_match_chat(context, match_id)
        move = _MatchMove(self, make)
        answer = await TableDriver(self.locks).act(context, move, match_id, version)
        if context.request.chat.same_chat(origin):  # a match played in this private chat
            return answer
        return answer_in_private(context, origin, match_id, answer)

    async def already_applied(self, context: Context, match_id: int) -> list[Message]:
        """The board as it is now, for a request handled before: its first answer may never
        have been sent (the process that handled it died)."""
        loaded = await self.matches.load_match(match_id)
        if loaded.info.status != "active":
            return context.refuse(context._("The match is over."))
        players = await self.names.of(loaded, context)
        return [await self.presenter.prompt(context, loaded, players, None)]

    async def current(self, context: Context, match_id: int) -> tuple[list[Message], LoadedMatch]:
        """The match as it is now, after what waited to play by itself (and its messages)."""
        async with self.locks.hold(match_id):
            loaded = await self.matches.load_match(match_id)
            return await self.resume(context, loaded)

    async def resume(
        self, context: Context, loaded: LoadedMatch
    ) -> tuple[list[Message], LoadedMatch]:
        """Play what waits to play by itself before anyone may act: a match stored before
        its opening roll (by a version that wrote the roll separately) is rolled now."""
        players = await self.names.of(loaded, context)
        if follow_up(players)(loaded.state, _any_dice) is None:
            return [], loaded
        try:
            appended = await self._append(loaded, None, players)
        except ConflictError:
            return [], await self.matches.load_match(loaded.info.id)
        return await self.presenter.after(context, appended, by_player=False), appended.match

    async def _append(
        self,
        loaded: LoadedMatch,
        action: Action | None,
        players: tuple[UserRecord, UserRecord],
    ) -> Appended:
        """Apply the rules once, here: ``action`` (if any, the bot's own) and what plays by
        itself after it, then have storage write all of it in one transaction at the version
        it was planned from. Raises ``ActionError`` (not allowed now) or ``ConflictError``
        (too late)."""
        return await self.write(loaded, await self.steps(loaded, action, players))

    async def steps(
        self, loaded: LoadedMatch, action: Action | None, players: tuple[UserRecord, UserRecord]
    ) -> list[Step]:
        """``action`` (if any) and what plays by itself after it, by the rules."""
        roller = await self.dice.roller(loaded.info.id)
        return plan(loaded.state, action, follow_up(players), roller)

    async def write(
        self,
        loaded: LoadedMatch,
        steps: list[Step],
        actor_id: int | None = None,
        event_id: str | None = None,
    ) -> Appended:
        """``steps`` written at the version they were planned from, with what they set off
        (:mod:`bot.core.events`) in the same transaction."""
        return await self.matches.append(
            loaded.info.id,
            loaded.info.version,
            steps,
            actor_id=actor_id,
            now=self.time(),
            event_id=event_id or None,
            then=match_then(loaded.info, loaded.state, steps),
        )

    async def settle_unanswered_resignation(self, match_id: int) -> list[Message]:
        """An offer to resign whose answerer let the time run out counts as accepted: the game
        ends as offered and the match goes on. (Claiming the match instead would let a player
        who offers to lose a game win the match by the opponent's absence.) The clock accepts
        it as the bot, not in the late player's name: the board after it calls whoever it waits
        for, the late player too."""
        async with self.locks.hold(match_id):
            loaded = await self.matches.load_match(match_id)
            state = loaded.state
            deadline = loaded.info.deadline
            if (
                loaded.info.status != "active"
                or state.phase is not Phase.RESIGNING
                or state.turn is None
                or deadline is None
                or deadline > self.time()
            ):
                return []
            players = await self.names.of(loaded)
            late = players[state.turn]
            context = clock_context_in(await self.chats.get_chat(loaded.info.chat_id))
            try:
                appended = await self._append(loaded, AcceptResignation(state.turn), players)
            except ConflictError:
                return []  # answered at this moment after all
            note = context.for_chat._(
                "{name} did not answer the offer to resign in time, so it counts as accepted."
            ).format(name=late.display_name)
            shown = await self.presenter.after(context, appended, by_player=False, lead=[note])
            return context.outgoing(shown)


@dataclass(frozen=True)
class _MatchMove:
    """A match as a table (:class:`bot.core.tables.Table`) for one action made by ``make``."""

    driver: MatchDriver
    make: Maker

    async def load(self, context: Context, table_id: int) -> LoadedMatch:
        # Read already when the command was matched to it (once: a retry reads anew).
        found = context.found_matches.pop(table_id, None)
        if found is not None:
            return found
        # The players too, in the same trip to the database: the answer names them.
        loaded, by_id = await self.driver.matches.load_match_with_players(table_id)
        self.driver.names.know(context, by_id.values())
        return loaded

    def version(self, loaded: LoadedMatch) -> int:
        return loaded.info.version

    async def check(self, context: Context, loaded: LoadedMatch) -> list[Message] | None:
        _ = context._
        if loaded.info.chat_id != context.chat.id:
            return context.refuse(_("That button is out of date."))
        if loaded.info.player_index(context.user.id) is None:
            return context.refuse(_("This is not your match."))
        if loaded.info.status != "active":
            return context.refuse(_("The match is over."))
        return None

    async def admit(self, context: Context, loaded: LoadedMatch) -> Admitted[LoadedMatch]:
        # An action after the player's clock ran out is the time-out instead.
        try:
            timed_out = await TimeOuts(self.driver).apply(context, loaded)
        except ConflictError:  # another process recorded it (or something) first
            return Admitted(loaded, instead=await self.current(context, loaded.info.id))
        if timed_out is not None:
            return Admitted(loaded, instead=timed_out)
        resumed, loaded = await self.driver.resume(context, loaded)
        return Admitted(loaded, resumed)

    async def plan(self, context: Context, loaded: LoadedMatch) -> list[Step]:
        player = loaded.info.player_index(context.user.id)
        assert player is not None  # checked
        try:
            action = await self.make(loaded, player)
            return await self.driver.steps(
                loaded, action, await self.driver.names.of(loaded, context)
            )
        except ActionError as error:
            raise Refusal(texts.action_refusal(context._, error)) from None

    async def append(self, context: Context, loaded: LoadedMatch, planned: list[Step]) -> Appended:
        return await self.driver.write(loaded, planned, context.user.id, context.request.event_id)

    async def present(
        self,
        context: Context,
        admitted: Admitted[LoadedMatch],
        planned: list[Step],
        written: Appended,
    ) -> list[Message]:
        answer = followed_by(admitted.lead, await self.driver.presenter.after(context, written))
        if written.match.state.phase is Phase.FINISHED:
            answer += await self.driver.tournaments.after_match(context, written.match.info.id)
        # In a match against the bot, its turn follows at once, under the same lock; the
        # board after it is the one to see (the bot's "thinking" board is skipped, what it
        # said goes first on the board after the bot's turn).
        turn = await self.driver.opponent.answer(context, written.match)
        return followed_by(answer, turn) if turn else answer

    async def current(self, context: Context, table_id: int) -> list[Message]:
        return await self.driver.already_applied(context, table_id)

    async def applied(self, table_id: int, event_id: str) -> bool:
        return await self.driver.matches.applied(table_id, event_id)
