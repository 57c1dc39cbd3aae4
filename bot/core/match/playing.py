"""Playing: rolls, moves (with the optional preview and [Confirm]), the cube, resignations
and claims, typed or pressed. Every change goes through the :class:`MatchDriver`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.core.context import Context, last_play
from bot.core.match.board_links import BoardLinks
from bot.core.match.driver import Maker, MatchDriver
from bot.core.match.match_finder import MatchFinder, game_named
from bot.core.model import MAX_TEXT, Button, Message, Private, Slot
from bot.core.people import PlayerNames
from bot.core.refusal import Refusal
from bot.core.runtime.pictures import BoardPictures
from bot.core.runtime.time_source import TimeSource
from bot.core.text import texts
from bot.core.tokens import Token, Verb, format_token
from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ClaimWin,
    Double,
    Drop,
    Move,
    RejectResignation,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.flow import ActionError, Phase, advance
from rendering import BoardView
from storage import DiceRepository, LoadedMatch, MatchRepository, PendingMove, UserRepository

_RESIGN_LEVELS = {
    "single": WinKind.SINGLE,
    "gammon": WinKind.GAMMON,
    "backgammon": WinKind.BACKGAMMON,
}
_RESIGN_VERBS = {
    WinKind.SINGLE: Verb.RESIGN_SINGLE,
    WinKind.GAMMON: Verb.RESIGN_GAMMON,
    WinKind.BACKGAMMON: Verb.RESIGN_BACKGAMMON,
}


def _fixed(build: Callable[[int], Action]) -> Maker:
    async def make(_loaded: LoadedMatch, player: int) -> Action:
        return build(player)

    return make


def _move(play: str) -> Maker:
    return _fixed(lambda player: Move(player, play))


# The buttons that make an action from the presser's seat alone.
_SEATED: dict[str, Maker] = {
    Verb.DOUBLE: _fixed(Double),
    Verb.TAKE: _fixed(Take),
    Verb.DROP: _fixed(Drop),
    Verb.BEAVER: _fixed(Beaver),
    Verb.RESIGN_SINGLE: _fixed(lambda player: Resign(player, WinKind.SINGLE)),
    Verb.RESIGN_GAMMON: _fixed(lambda player: Resign(player, WinKind.GAMMON)),
    Verb.RESIGN_BACKGAMMON: _fixed(lambda player: Resign(player, WinKind.BACKGAMMON)),
    Verb.ACCEPT_RESIGNATION: _fixed(AcceptResignation),
    Verb.REJECT_RESIGNATION: _fixed(RejectResignation),
}


class Fallback(Protocol):
    """Where /roll, /move, /double, /take, /drop and /beaver go for a player without a match
    in a group chat (the chat's chouette game), or in a private chat for a player whose
    chouette game waits for them (``wanted``: the chouette they named): None when it is not
    theirs either."""

    async def fallback(
        self, context: Context, verb: str, argument: str
    ) -> list[Message] | None: ...

    async def in_private(
        self, context: Context, verb: str, argument: str, wanted: int | None = None
    ) -> list[Message] | None: ...


@dataclass(frozen=True)
class PlayService:
    driver: MatchDriver
    finder: MatchFinder
    matches: MatchRepository
    dice: DiceRepository
    users: UserRepository
    names: PlayerNames
    pictures: BoardPictures
    time: TimeSource
    elsewhere: Fallback | None = None
    # The deadline of the tournament pairing a match is played for (None: none), past which
    # the player who waited may claim the match as past a move's deadline.
    tournament_deadline: Callable[[int], Awaitable[datetime | None]] | None = None
    board_links: BoardLinks | None = None  # [Open board]: the presser's link to the page

    # --- commands ------------------------------------------------------------------------

    # In a private chat each of these may name the game first: /roll #12, /double #c3,
    # /take #c3 bob.

    async def roll(self, context: Context, argument: str) -> list[Message]:
        return await self._named_act(context, self._roll, "roll", argument)

    async def double(self, context: Context, argument: str) -> list[Message]:
        return await self._named_act(context, _SEATED[Verb.DOUBLE], "double", argument)

    # /take, /drop and /beaver do what the buttons do; in a match the rules refuse them when
    # no double waits for the caller. The argument names a member only in a chouette.

    async def take(self, context: Context, argument: str) -> list[Message]:
        return await self._named_act(context, _SEATED[Verb.TAKE], Verb.TAKE, argument)

    async def drop(self, context: Context, argument: str) -> list[Message]:
        return await self._named_act(context, _SEATED[Verb.DROP], Verb.DROP, argument)

    async def beaver(self, context: Context, argument: str) -> list[Message]:
        return await self._named_act(context, _SEATED[Verb.BEAVER], Verb.BEAVER, argument)

    async def _named_act(
        self, context: Context, make: Maker, verb: str, argument: str
    ) -> list[Message]:
        wanted, chouette, rest = game_named(context, argument)
        return await self._act(context, make, verb, rest, wanted, chouette)

    async def _act(
        self,
        context: Context,
        make: Maker,
        verb: str,
        argument: str,
        wanted: int | None = None,
        chouette: int | None = None,
    ) -> list[Message]:
        """The caller's match acts; in a group chat where they have none, the fallback (the
        chat's chouette) may, and in a private chat their chouette game that waits for them.
        Matches are found exactly as the driver finds them."""
        if self.elsewhere is None:
            return await self.driver.act(context, make, wanted=wanted)
        if context.request.chat.private:
            other = await self._in_private(context, verb, argument, wanted, chouette)
            return await self.driver.act(context, make, wanted=wanted) if other is None else other
        try:
            found = await self.finder.addressed(context, wanted)
        except Refusal:
            other = await self.elsewhere.fallback(context, verb, argument)
            if other is None:
                raise
            return other
        return await self.driver.act(found[0], make, found[1])

    async def _in_private(
        self,
        context: Context,
        verb: str,
        argument: str,
        wanted: int | None,
        chouette: int | None,
    ) -> list[Message] | None:
        """In a private chat, the answer of the caller's chouette game when the command
        means one; None when it means their match (a match's number always does)."""
        if self.elsewhere is None or wanted is not None:
            return None
        return await self.elsewhere.in_private(context, verb, argument, chouette)

    async def claim(self, context: Context, _argument: str) -> list[Message]:
        return await self.driver.act(context, self._claim)

    async def move(self, context: Context, text: str) -> list[Message]:
        """``/move 13/10* 6/5``, a move typed as plain text, or ``#12 13/10*`` (a match) and
        ``#c3 13/10*`` (a chouette) in private."""
        wanted, chouette, play = game_named(context, text.strip()[:MAX_TEXT])
        if not play:
            return context.refuse(context._("Write your move after /move, e.g. /move 13/10* 6/5"))
        if context.user.prefs.confirm_moves:  # a chouette's play is made at once
            if self.elsewhere is not None and context.request.chat.private:
                other = await self._in_private(context, "move", play, wanted, chouette)
                if other is not None:
                    return other
            elif self.elsewhere is not None:
                try:
                    await self.finder.addressed(context, wanted)
                except Refusal:
                    other = await self.elsewhere.fallback(context, "move", play)
                    if other is None:
                        raise
                    return other
            return await self._preview(context, play, wanted)
        return await self._act(context, _move(play), "move", play, wanted, chouette)

    async def resign(self, context: Context, argument: str) -> list[Message]:
        """Ask first: [Resign] offers the resignation, [Keep playing] forgets it."""
        _ = context._
        wanted, _chouette, rest = game_named(context, argument)  # a chouette has no resigning
        level = _RESIGN_LEVELS.get(rest.strip().lower() or "single")
        if level is None:
            return context.refuse(
                _("Resign with /resign single, /resign gammon or /resign backgammon.")
            )
        _in_match, match_id = await self.finder.addressed(context, wanted)
        info = await self.matches.match_info(match_id)
        buttons = (
            Button(
                _("Resign"), format_token(Token(_RESIGN_VERBS[level], "m", info.id, info.version))
            ),
            Button(
                _("Keep playing"),
                format_token(Token(Verb.KEEP_PLAYING, "m", info.id, info.version)),
            ),
        )
        text = _("Do you really offer to resign {level}?").format(
            level=texts.resignation_name(_, level)
        )
        return [
            Message(
                context.request.chat, text, buttons, kind=Private(context.request.actor.user_id)
            )
        ]

    # --- buttons of a match --------------------------------------------------------------

    async def press(self, context: Context, token: Token) -> list[Message]:
        """A match's button: ``token.target`` is the match, ``token.version`` its version."""
        _ = context._
        if token.verb in (Verb.CONFIRM, Verb.CHANGE):
            return await self._confirm(context, token)
        if token.verb == Verb.KEEP_PLAYING:
            return context.refuse(_("Good luck!"))
        if token.verb == Verb.BOARD_PAGE and self.board_links is not None:
            return await self.board_links.answer(context, token.target)
        if token.verb == Verb.PLAY:  # the board page's [Done]: confirmed by pressing it
            play = context.request.argument.strip()[:MAX_TEXT]
            if not play:
                return context.refuse(_("That button is out of date."))
            return await self.driver.act(context, _move(play), token.target, token.version)
        needs_more: dict[str, Maker] = {Verb.ROLL: self._roll, Verb.CLAIM: self._claim}
        make = needs_more.get(token.verb) or _SEATED.get(token.verb)
        if make is None:
            return context.refuse(_("That button is out of date."))
        return await self.driver.act(context, make, token.target, token.version)

    # --- the actions that need more than the seat ---------------------------------------

    async def _roll(self, loaded: LoadedMatch, player: int) -> Action:
        """The next dice of this match, computed by storage from the secret seed."""
        dice = await self.dice.dice_for(loaded.info.id, loaded.state.dice_events)
        return Roll(player, dice)

    async def _claim(self, loaded: LoadedMatch, player: int) -> Action:
        """Claim the match when the opponent's time is up (checked here, against the clock).
        Only a player who waited for a move or a cube decision claims: an unanswered offer to
        resign is settled by the clock as accepted, never turned into a won match."""
        if loaded.state.phase is Phase.RESIGNING:
            raise ActionError("resignation_pending", "a resignation waits for an answer")
        now = self.time()
        late = loaded.state.turn == 1 - player
        deadline = loaded.info.deadline
        if late and deadline is not None and deadline <= now:
            return ClaimWin(player)
        if late and self.tournament_deadline is not None:
            overdue = await self.tournament_deadline(loaded.info.id)
            if overdue is not None and overdue <= now:
                return ClaimWin(player)
        raise ActionError("not_claimable", "the opponent's time has not run out")

    # --- confirm-moves -------------------------------------------------------------------

    async def _preview(self, context: Context, play: str, wanted: int | None) -> list[Message]:
        """Show the board after the play, with [Confirm] and [Change]."""
        _ = context._
        _in_match, match_id = await self.finder.addressed(context, wanted)
        loaded = await self.matches.load_match(match_id)
        player = loaded.info.player_index(context.user.id)
        assert player is not None
        try:
            after, recorded = advance(loaded.state, Move(player, play))
        except ActionError as error:
            return context.refuse(texts.action_refusal(_, error))
        move = recorded[0]
        assert isinstance(move, Move)
        info = loaded.info
        await self.users.set_pending_move(
            context.user.id, PendingMove(info.id, info.version, move.play)
        )
        players = await self.names.of(loaded)
        names = [user.display_name for user in players]
        view = BoardView.from_state(after)
        highlight = last_play(loaded.state, tuple(recorded))
        image = await self.pictures.draw(context, view, names, highlight, player, private=True)
        buttons = (
            Button(_("Confirm"), format_token(Token(Verb.CONFIRM, "m", info.id, info.version))),
            Button(_("Change"), format_token(Token(Verb.CHANGE, "m", info.id, info.version))),
        )
        text = _("Your play {play}. Confirm it?").format(play=move.play)
        return [
            Message(
                context.request.chat,
                text,
                buttons,
                image=image,
                board=view,
                # One user's previews of one match replace each other where they are posted.
                kind=Private(
                    context.request.actor.user_id,
                    Slot(f"preview:{info.id}:{context.request.actor.user_id}"),
                ),
            )
        ]

    async def _confirm(self, context: Context, token: Token) -> list[Message]:
        _ = context._
        # Taken and cleared at once: of two presses of [Confirm], only one plays.
        pending = await self.users.take_pending_move(context.user.id)
        if pending is None or pending.match_id != token.target or pending.version != token.version:
            return context.refuse(_("That button is out of date."))
        if token.verb == Verb.CHANGE:
            return context.refuse(_("Type your play again with /move."))
        return await self.driver.act(context, _move(pending.play), token.target, token.version)
