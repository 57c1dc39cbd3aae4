"""A chouette from game to game: the opening roll of a game, a finished game settled and
stored, the players who asked to join or leave during it seated or let go, and the next game
started in the same write while three or more remain."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.core.chouette import texts as chouette_texts
from bot.core.chouette.narration import opening_line
from bot.core.chouette.view import ChouetteView, Seated, by_key
from bot.core.context import Context
from bot.core.model import Message, Public, Slot
from bot.core.runtime.time_source import TimeSource
from gammon.actions import OpeningRoll
from gammon.chouette import (
    BoardAction,
    ChouetteAction,
    ChouetteGame,
    Side,
    advance,
    next_table,
    rotate,
    settle,
    settle_forfeit,
)
from gammon.flow import Phase
from rendering import LastPlay
from storage import (
    AlreadyAppliedError,
    ChouetteInfo,
    ChouetteRepository,
    ChouetteStatus,
    ConflictError,
    UserRepository,
)

# How many times a command is tried against the table as it is now, each time another
# process's write came between reading the table and writing to it (a seat taken, the client
# seed fixed, a play): each lost try is someone else's write made, so the next try sees it.
TRIES: Final = 8


class ChouetteRounds:
    def __init__(
        self,
        chouettes: ChouetteRepository,
        users: UserRepository,
        view: ChouetteView,
        time: TimeSource,
    ) -> None:
        self.chouettes = chouettes
        self.users = users
        self.view = view
        self.time = time

    async def seated(self, context: Context, user_ids: Sequence[int]) -> Seated:
        """The users by id, each read at most once per request."""
        known = context.known_users
        known.setdefault(context.user.id, context.user)
        for user_id in user_ids:
            if user_id not in known:
                known[user_id] = await self.users.get_user(user_id)
        return {user_id: known[user_id] for user_id in user_ids}

    async def names(self, context: Context, user_ids: Sequence[int]) -> dict[int, str]:
        return {
            user_id: user.display_name
            for user_id, user in (await self.seated(context, user_ids)).items()
        }

    async def board(
        self,
        context: Context,
        info: ChouetteInfo,
        game: ChouetteGame,
        totals: dict[int, int],
        last: LastPlay | None = None,
    ) -> Message:
        """The board message, with everyone on the scoreboard named (also those who left)."""
        users = await self.seated(context, list(dict.fromkeys([*info.seats, *totals])))
        return await self.view.board(context, info, game, users, totals, last)

    async def current(self, context: Context, chouette_id: int) -> list[Message]:
        """The board as it is now (a request handled before, or beaten by another process's
        write, gets it); :meth:`ended` once the session has ended."""
        loaded = await self.chouettes.load(chouette_id)
        if loaded.info.status is ChouetteStatus.ENDED:
            return await self.ended(context, chouette_id)
        if loaded.game is None:
            return context.refuse(context._("No chouette game is being played here."))
        return [await self.board(context, loaded.info, loaded.game, loaded.totals)]

    async def ended(self, context: Context, chouette_id: int) -> list[Message]:
        """The answer to a command that came after the session's end (another process's end
        a moment before, or a second press of [End the session]): that it has ended, with
        its final scores; the end's own message in the chat has the rest. Nothing for the
        clock (nobody asked it: the end's message says it all)."""
        if context.user.is_bot:
            return []
        _ = context._
        loaded = await self.chouettes.load(chouette_id)
        names = await self.names(context, [*loaded.info.seats, *loaded.totals])
        lines = [
            _("This chouette has ended already. Open a new table with /chouette."),
            chouette_texts.scores_line(_, loaded.totals, names),
        ]
        return context.refuse("\n".join(lines))

    async def opened(
        self, context: Context, info: ChouetteInfo, acted: bool = False
    ) -> list[Message]:
        """:meth:`opening`, or the table as it is when another process wrote the opening roll
        first (a player's [Roll] there, or its clock): one roll is written, and this answer
        still goes out. Once the session has ended meanwhile, :meth:`ended`."""
        try:
            return await self.opening(context, info, acted)
        except (ConflictError, AlreadyAppliedError):
            return await self.current(context, info.id)

    async def opening(
        self, context: Context, info: ChouetteInfo, acted: bool = False
    ) -> list[Message]:
        """Roll the opening roll of the game that just started (again after a tie) and show
        the board. ``acted``: the caller's command is what makes it (the game had been left
        before its opening roll), written as theirs. Raises :class:`ConflictError` when the
        session moved on meanwhile (another process rolled it, or ended the session)."""
        _ = context.for_chat
        loaded = await self.chouettes.load(info.id)
        game = loaded.game
        if game is None:  # ended since the game started
            raise ConflictError(f"chouette {info.id}: no game is being played")
        users = await self.seated(context, info.seats)
        names = by_key(users)
        recorded: list[ChouetteAction] = []
        nonce = info.dice_nonce
        notes = [
            _("Game {number}: {order}").format(
                number=info.game_number,
                order=chouette_texts.order_line(
                    _, info.seats, await self.names(context, info.seats)
                ),
            )
        ]
        while game.board.phase is Phase.OPENING:
            dice = await self.chouettes.dice_for(info.id, nonce)
            nonce += 1
            game, made = advance(game, BoardAction(game.table.box, OpeningRoll(dice)))
            recorded += made
            notes.append(opening_line(_, game, dice, names))
        await self.chouettes.append(
            info.id,
            loaded.info.version,
            recorded,
            context.user.id if acted else None,
            (context.request.event_id or None) if acted else None,
            now=self.time(),
            then=None,  # an opening roll ends no game
        )
        shown = await self.chouettes.info(info.id)
        return [
            Message(context.request.chat, "\n".join(notes)),
            await self.board(context, shown, game, loaded.totals),
        ]

    async def finish(
        self, context: Context, info: ChouetteInfo, version: int, game: ChouetteGame
    ) -> list[Message]:
        """The game ``game`` (written up to ``version``) is over: settle it, store it, seat
        those waiting, and start the next game while three or more remain."""
        _ = context.for_chat
        points = {int(player): won for player, won in settle(game).items()}
        order = [int(player) for player in next_table(game).order]
        users = await self.seated(context, info.seats)
        result = chouette_texts.result_line(_, game, by_key(users))
        return await self._close(context, info, version, points, order, result)

    async def forfeit(
        self, context: Context, info: ChouetteInfo, version: int, game: ChouetteGame, late: Side
    ) -> list[Message]:
        """The side ``late`` ran out of time to roll or move: it loses the game as a single
        game on every cube still in play (dropped cubes pay what they paid), and the rotation
        goes as if the other side had won on the board (unless the captain's cube was
        decided already). The game's log is left as it is, unfinished."""
        points = {int(player): won for player, won in settle_forfeit(game, late).items()}
        winner = game.rotation_winner or (Side.TEAM if late is Side.BOX else Side.BOX)
        order = [int(player) for player in rotate(game.table, winner).order]
        return await self._close(context, info, version, points, order, None)

    async def _close(
        self,
        context: Context,
        info: ChouetteInfo,
        version: int,
        points: dict[int, int],
        order: list[int],
        result: str | None,
    ) -> list[Message]:
        """Store the game's ``points``, seat those waiting, and start the next game while
        three or more remain."""
        _ = context.for_chat
        names = await self.names(context, info.seats)
        # The next game starts in the same write: a /chouette start at this moment, in any
        # process, finds it being played, and the settlement's messages all go out.
        ended = await self.chouettes.finish_game(
            info.id, version, points, order, start_next=True, now=self.time()
        )
        lines = [] if result is None else [result]
        lines.append(chouette_texts.settlement_line(_, points, names))
        lines += await self.moved(context, order, ended.seats)
        loaded = await self.chouettes.load(ended.id)
        names = await self.names(context, [*ended.seats, *loaded.totals])
        lines.append(chouette_texts.scores_line(_, loaded.totals, names))
        if ended.status is not ChouetteStatus.PLAYING:  # fewer than three are left
            lines.append(
                _(
                    "Fewer than three players are left: /chouette join to sit down, "
                    "/chouette start to play on, or /chouette end."
                )
            )
            return [
                Message(
                    context.request.chat, "\n".join(lines), kind=Public(Slot(f"chouette:{info.id}"))
                )
            ]
        return [Message(context.request.chat, "\n".join(lines)), *await self.opened(context, ended)]

    # --- joining and leaving during a game ----------------------------------------------------

    async def moved(
        self, context: Context, before: Sequence[int], after: Sequence[int]
    ) -> list[str]:
        """A line for each player who got up or sat down as the game ended (their requests,
        applied by :meth:`ChouetteRepository.finish_game`)."""
        _ = context.for_chat
        names = await self.names(context, [*before, *after])
        lines = [
            _("{name} leaves the table.").format(name=names[user_id])
            for user_id in before
            if user_id not in after
        ]
        lines += [
            _("{name} sits down at the end of the line.").format(name=names[user_id])
            for user_id in after
            if user_id not in before
        ]
        return lines
