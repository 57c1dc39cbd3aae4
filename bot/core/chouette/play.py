"""Playing a chouette game: rolls, plays and cube actions, typed or pressed, as a table of the
one driver (:mod:`bot.core.tables`: the chouette's lock, versions, repeats and the retry, the
same as a match's), with the rules applied once and the actions appended at the version they
were planned from; an action that came after the session's end is told that it has ended, a
finished game is settled and the next one started. Also the clock's time-up."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from bot.core.chouette import texts as chouette_texts
from bot.core.chouette.narration import describe
from bot.core.chouette.rounds import ChouetteRounds
from bot.core.chouette.view import ChouetteView, by_key, must_act
from bot.core.context import Context, last_play
from bot.core.events import chouette_then
from bot.core.model import Message
from bot.core.refusal import Refusal
from bot.core.runtime.locks import MatchLocks
from bot.core.runtime.time_source import TimeSource
from bot.core.tables import Admitted, TableDriver
from gammon.chouette import (
    Answer,
    BoardAction,
    BoxAnswers,
    ChouetteAction,
    ChouetteError,
    ChouetteGame,
    MemberAnswers,
    Side,
    advance,
)
from gammon.flow import Phase
from storage import (
    ChouetteInfo,
    ChouetteRepository,
    ChouetteStatus,
    ConflictError,
    LoadedChouette,
)

# The caller's action, made from the game as it is now, the caller's player id and the
# session's next dice event.
Make = Callable[[ChouetteGame, str, int], Awaitable[ChouetteAction]]


class ChouettePlay:
    def __init__(
        self,
        chouettes: ChouetteRepository,
        rounds: ChouetteRounds,
        view: ChouetteView,
        locks: MatchLocks,
        time: TimeSource,
    ) -> None:
        self.chouettes = chouettes
        self.rounds = rounds
        self.view = view
        self.locks = locks
        self.time = time

    async def act(
        self, context: Context, make: Make, chouette_id: int, version: int | None = None
    ) -> list[Message]:
        move = _ChouetteMove(self, make)
        return await TableDriver(self.locks).act(context, move, chouette_id, version)

    async def time_up(self, context: Context, chouette_id: int, version: int) -> list[Message]:
        """The clock: the session is still at ``version`` and its deadline has passed. Every
        double waiting for an answer counts as dropped (by the member, or by the box); else
        the box or the acting captain, who was to roll or move, loses the game as a single
        game on every cube still in play. Nothing when the session moved on meanwhile (the
        write is conditional on ``version``: of several processes one acts)."""
        async with self.locks.hold(chouette_id):
            loaded = await self.chouettes.load(chouette_id)
            info, game = loaded.info, loaded.game
            deadline = info.deadline
            if (
                info.version != version
                or info.status is not ChouetteStatus.PLAYING
                or game is None
                or game.finished
                or deadline is None
                or deadline > self.time()
            ):
                return []
            _ = context.for_chat
            users = await self.rounds.seated(context, info.seats)
            names = by_key(users)
            box = game.table.box
            if game.pending:
                after, recorded = game, []
                for cube in game.pending:
                    answer: ChouetteAction = (
                        BoxAnswers(box, cube.member, Answer.DROP)
                        if cube.offered_by is Side.TEAM
                        else MemberAnswers(cube.member, Answer.DROP)
                    )
                    after, made = advance(after, answer)
                    recorded += made
                late = ", ".join(names[player] for player in must_act(game))
                written = await self.chouettes.append(
                    chouette_id,
                    version,
                    recorded,
                    None,
                    f"time-up:{version}",
                    now=self.time(),
                    then=chouette_then(chouette_id, info.game_number, after.finished),
                )
                note = _("{names} did not answer in time: it counts as a drop.").format(names=late)
                return [
                    Message(context.request.chat, note),
                    *await self.after(context, info, game, after, recorded, written),
                ]
            side = game.side_on_turn
            if side is None:
                return []
            if side is Side.BOX:
                note = _(
                    "{name} (box) has run out of time and loses this game as a single game "
                    "on every cube still in play."
                ).format(name=names[box])
            else:
                note = _(
                    "{name} has run out of time: the team loses this game as a single game "
                    "on every cube still in play."
                ).format(name=chouette_texts.playing_captain(_, game, names))
            return [
                Message(context.request.chat, note),
                *await self.rounds.forfeit(context, info, version, game, side),
            ]

    async def resume_stopped(
        self, context: Context, chouette_id: int, version: int
    ) -> list[Message]:
        """The clock: the process that wrote the session's game up to ``version`` stopped
        before the bot's next write. A game over with its points not yet written is settled as
        the player's next action would settle it: the points, the rotation, the next game and
        their messages; a game started without its opening roll gets it, and its board.
        Nothing when the session moved on meanwhile; of several processes one writes it (the
        write is conditional on ``version``), and only that one says so."""
        async with self.locks.hold(chouette_id):
            loaded = await self.chouettes.load(chouette_id)
            info, game = loaded.info, loaded.game
            if info.version != version or info.status is not ChouetteStatus.PLAYING:
                return []
            if game is not None and game.finished:
                return await self.rounds.finish(context, info, version, game)
            if game is not None and game.board.phase is Phase.OPENING:
                return await self.rounds.opening(context, info)
            return []

    async def settle(
        self, context: Context, info: ChouetteInfo, game: ChouetteGame
    ) -> list[Message]:
        """A player acts on a game that is over and not settled: settle it first. Another
        process (its clock, say) may have settled it a moment ago: then the table as it is."""
        try:
            return await self.rounds.finish(context, info, info.version, game)
        except ConflictError:
            return await self.rounds.current(context, info.id)

    async def after(
        self,
        context: Context,
        info: ChouetteInfo,
        before: ChouetteGame,
        after: ChouetteGame,
        recorded: list[ChouetteAction],
        version: int,
    ) -> list[Message]:
        _ = context.for_chat
        users = await self.rounds.seated(context, info.seats)
        names = by_key(users)
        notes = [
            Message(context.request.chat, note) for note in describe(_, after, recorded, names)
        ]
        if after.finished:
            try:
                return notes + await self.rounds.finish(context, info, version, after)
            except ConflictError:  # another process settled it a moment ago: its messages
                return notes + await self.rounds.current(context, info.id)
        board_actions = tuple(a.action for a in recorded if isinstance(a, BoardAction))
        last = last_play(before.board, board_actions)
        totals = (await self.chouettes.load(info.id)).totals
        shown = replace(info, version=version)
        return [*notes, await self.rounds.board(context, shown, after, totals, last)]


@dataclass(frozen=True)
class _Planned:
    """An action the rules recorded, and the game after it."""

    action: ChouetteAction
    after: ChouetteGame
    recorded: list[ChouetteAction]


@dataclass(frozen=True)
class _ChouetteMove:
    """A chouette session as a table (:class:`bot.core.tables.Table`) for one action."""

    play: ChouettePlay
    make: Make

    async def load(self, context: Context, table_id: int) -> LoadedChouette:
        return await self.play.chouettes.load(table_id)

    def version(self, loaded: LoadedChouette) -> int:
        return loaded.info.version

    async def check(self, context: Context, loaded: LoadedChouette) -> list[Message] | None:
        if loaded.info.chat_id != context.chat.id:
            return context.refuse(context._("That button is out of date."))
        if loaded.info.status is ChouetteStatus.ENDED:
            return await self.play.rounds.ended(context, loaded.info.id)
        return None

    async def admit(self, context: Context, loaded: LoadedChouette) -> Admitted[LoadedChouette]:
        _ = context._
        info, game = loaded.info, loaded.game
        if info.status is not ChouetteStatus.PLAYING or game is None:
            return Admitted(
                loaded, instead=context.refuse(_("No chouette game is being played here."))
            )
        if not info.is_seated(context.user.id):
            refusal = _("You do not sit at this chouette. Join with /chouette join.")
            return Admitted(loaded, instead=context.refuse(refusal))
        if game.finished:  # stopped between the last play and the settlement
            return Admitted(loaded, instead=await self.play.settle(context, info, game))
        if game.board.phase is Phase.OPENING:  # stopped before the opening roll
            return Admitted(
                loaded, instead=await self.play.rounds.opened(context, info, acted=True)
            )
        return Admitted(loaded)

    async def plan(self, context: Context, loaded: LoadedChouette) -> _Planned:
        game = loaded.game
        assert game is not None  # admitted
        action: ChouetteAction | None = None
        try:
            action = await self.make(game, str(context.user.id), loaded.info.dice_nonce)
            after, recorded = advance(game, action)
        except ChouetteError as error:
            raise Refusal(chouette_texts.refusal(context._, error, action)) from None
        return _Planned(action, after, recorded)

    async def append(self, context: Context, loaded: LoadedChouette, planned: _Planned) -> int:
        return await self.play.chouettes.append(
            loaded.info.id,
            loaded.info.version,
            planned.recorded,
            context.user.id,
            context.request.event_id or None,
            now=self.play.time(),
            then=chouette_then(loaded.info.id, loaded.info.game_number, planned.after.finished),
        )

    async def present(
        self,
        context: Context,
        admitted: Admitted[LoadedChouette],
        planned: _Planned,
        written: int,
    ) -> list[Message]:
        info, game = admitted.loaded.info, admitted.loaded.game
        assert game is not None  # admitted
        return await self.play.after(context, info, game, planned.after, planned.recorded, written)

    async def current(self, context: Context, table_id: int) -> list[Message]:
        return await self.play.rounds.current(context, table_id)

    async def applied(self, table_id: int, event_id: str) -> bool:
        return await self.play.chouettes.applied(table_id, event_id)
