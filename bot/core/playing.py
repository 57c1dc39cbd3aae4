"""Playing: rolls, moves, the cube, resignations, claims, and driving a match after every
change (automatic rolls, forced plays, dances, the next prompt, the end)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from bot.core import texts
from bot.core.base import _MAX_TEXT, _RESIGN_LEVELS, CoreBase, Maker
from bot.core.context import Context, last_play
from bot.core.model import Actor, Button, ChatRef, Message, Request
from bot.core.tokens import Token, format_token
from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ClaimWin,
    Double,
    Drop,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.flow import ActionError, FollowUp, MatchState, Phase, Roller, advance, plan
from rendering import BoardView
from storage import (
    Appended,
    ConflictError,
    LoadedMatch,
    MatchInfo,
    NotFoundError,
    PendingMove,
    UserRecord,
)

# "#12 13/10* 6/5": a move for match 12, typed in a private chat.
_NUMBERED = re.compile(r"^#([0-9]{1,9})\s+(.*)$", re.DOTALL)


def _any_dice(nonce: int) -> tuple[int, int]:
    """Dice for asking whether something would play by itself, without reading the seed."""
    return (2, 1)


class PlayCommands(CoreBase):
    async def _act(
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
            found = await self._addressed_match(context, wanted)
            if isinstance(found, list):
                return found
            context, match_id = found
        elif origin.private:
            context = await self._in_match_chat(context, match_id)
        answer = await self._act_on(context, make, match_id, version)
        if context.request.chat == origin:
            return answer
        return self._answer_in_private(context, origin, match_id, answer)

    async def _addressed_match(
        self, context: Context, wanted: int | None = None
    ) -> tuple[Context, int] | list[Message]:
        """The match a command without a button means, with the context to act in it: the
        caller's match in this chat or, in a private chat, their match that waits for them
        (``wanted``: the one they named), acted on as if in that match's chat."""
        _ = context._
        if not context.request.chat.private:
            match_id = await self.matches.active_match_id_for(context.chat.id, context.user.id)
            if match_id is None:
                return context.refuse(
                    _("You have no match in this chat. Start one with /challenge.")
                )
            return context, match_id
        mine = await self.matches.active_matches_of(context.user.id)
        if wanted is not None:
            mine = [info for info in mine if info.id == wanted]
            if not mine:
                return context.refuse(
                    _("You have no active match {id}. /matches lists yours.").format(id=wanted)
                )
        waiting = [info for info in mine if info.turn_user_id == context.user.id] or mine
        if not waiting:
            return context.refuse(
                _("You have no active match. Start one with /challenge in a group chat.")
            )
        if len(waiting) > 1:
            numbers = ", ".join(f"#{info.id}" for info in waiting)
            return context.refuse(
                _(
                    "Several of your matches wait for you ({numbers}). Put the match number "
                    "first, e.g. #{example} 13/10* 6/5, or play in the match's chat."
                ).format(numbers=numbers, example=waiting[0].id)
            )
        return await self._in_chat_of(context, waiting[0]), waiting[0].id

    async def _in_match_chat(self, context: Context, match_id: int) -> Context:
        """A button pressed in a private chat acts in its match's chat, for that match's
        players (anyone else is refused by the usual checks)."""
        try:
            info = await self.matches.match_info(match_id)
        except NotFoundError:
            return context
        if info.player_index(context.user.id) is None:
            return context
        return await self._in_chat_of(context, info)

    async def _in_chat_of(self, context: Context, info: MatchInfo) -> Context:
        """The context of the request as if it had been made in the match's own chat."""
        chat = await self.chats.get_chat(info.chat_id)
        where = ChatRef(chat.platform, chat.platform_chat_id, private=False, locale=chat.locale)
        return replace(context, request=replace(context.request, chat=where), chat=chat)

    def _answer_in_private(
        self, context: Context, private: ChatRef, match_id: int, answer: list[Message]
    ) -> list[Message]:
        """Refusals go back to the private chat the command came from; everything else is
        posted in the match's chat, and the private chat gets a receipt."""
        actor = context.request.actor.user_id
        mine = [replace(message, chat=private) for message in answer if message.private_to == actor]
        public = [message for message in answer if message.private_to != actor]
        if public:
            receipt = context._("Done in match {id}: the board is in the match's chat.").format(
                id=match_id
            )
            mine.append(Message(private, receipt, private_to=actor))
        return public + mine

    async def _act_on(
        self, context: Context, make: Maker, match_id: int, version: int | None
    ) -> list[Message]:
        _ = context._
        async with self._lock(match_id):
            try:
                loaded = await self.matches.load_match(match_id)
            except NotFoundError:
                return context.refuse(_("That button is out of date."))
            if loaded.info.chat_id != context.chat.id:
                return context.refuse(_("That button is out of date."))
            player = loaded.info.player_index(context.user.id)
            if player is None:
                return context.refuse(_("This is not your match."))
            if loaded.info.status != "active":
                return context.refuse(_("The match is over."))
            if version is not None and version != loaded.info.version:
                return context.refuse(_("That button is out of date."))
            resumed, loaded = await self._resume(context, loaded)
            for attempt in range(2):
                try:
                    made = await make(loaded, player)
                    players = await self._names(loaded, context)
                    appended = await self._append(loaded, made, players, context.user.id)
                except ActionError as error:
                    return resumed + context.refuse(texts.action_refusal(_, error))
                except ConflictError:
                    # Another process changed the match first and nothing of ours was written.
                    # A button was made for the old version; a typed command is tried once more
                    # against the match as it is now, so its answer names the real reason.
                    if version is not None or attempt:
                        return resumed + context.refuse(_("That button is out of date."))
                    loaded = await self.matches.load_match(match_id)
                    if loaded.info.status != "active":
                        return context.refuse(_("The match is over."))
                    continue
                notes = [message for message in resumed if message.slot is None]
                return notes + await self.presenter.after(context, appended)
            raise AssertionError("unreachable")

    async def _resume(
        self, context: Context, loaded: LoadedMatch
    ) -> tuple[list[Message], LoadedMatch]:
        """Play what waits to play by itself before anyone may act: a match stored before
        its opening roll (by a version that wrote the roll separately) is rolled now."""
        players = await self._names(loaded, context)
        follow = self._follow_up(players)
        if follow(loaded.state, _any_dice) is None:
            return [], loaded
        try:
            appended = await self._append(loaded, None, players)
        except ConflictError:
            loaded = await self.matches.load_match(loaded.info.id)
            return [], loaded
        return await self.presenter.after(context, appended, by_player=False), appended.match

    async def _append(
        self,
        loaded: LoadedMatch,
        action: Action | None,
        players: tuple[UserRecord, UserRecord],
        actor_id: int | None = None,
    ) -> Appended:
        """Apply the rules once, here: ``action`` (if any) and what plays by itself after it,
        then have storage write all of it in one transaction at the version it was planned
        from. Raises ``ActionError`` (not allowed now) or ``ConflictError`` (too late)."""
        roller = await self.dice.roller(loaded.info.id)
        steps = plan(loaded.state, action, self._follow_up(players), roller)
        return await self.matches.append(
            loaded.info.id,
            loaded.info.version,
            steps,
            actor_id=actor_id if action is not None else None,
            now=self.clock(),
        )

    def _follow_up(self, players: tuple[UserRecord, UserRecord]) -> FollowUp:
        """What plays by itself in a state: opening rolls, a roll when doubling is not
        possible (if the player wants that), the only legal play (if wanted)."""

        def follow(state: MatchState, roller: Roller) -> Action | None:
            mover = state.player_on_roll
            if state.phase is Phase.OPENING:
                return OpeningRoll(roller(state.dice_events))
            if state.phase is Phase.ROLLING:
                if state.double_refusal(mover) is not None and players[mover].prefs.auto_roll:
                    return Roll(mover, roller(state.dice_events))
            elif state.phase is Phase.MOVING and players[mover].prefs.auto_forced:
                plays = state.legal_plays()
                if len(plays) == 1:
                    return Move(mover, str(plays[0]))
            return None

        return follow

    async def settle_unanswered_resignation(self, match_id: int, locale: str) -> list[Message]:
        """An offer to resign whose answerer let the time run out counts as accepted: the game
        ends as offered and the match goes on. (Claiming the match instead would let a player
        who offers to lose a game win the match by the opponent's absence.)"""
        async with self._lock(match_id):
            loaded = await self.matches.load_match(match_id)
            state = loaded.state
            deadline = loaded.info.deadline
            if (
                loaded.info.status != "active"
                or state.phase is not Phase.RESIGNING
                or state.turn is None
                or deadline is None
                or deadline > self.clock()
            ):
                return []
            players = await self._names(loaded)
            late = players[state.turn]
            chat = await self.chats.get_chat(loaded.info.chat_id)
            where = ChatRef(chat.platform, chat.platform_chat_id, locale=chat.locale)
            actor = Actor(late.platform, late.platform_user_id, late.display_name)
            context = Context(Request(actor, where), late, chat, locale)
            try:
                appended = await self._append(loaded, AcceptResignation(state.turn), players)
            except ConflictError:
                return []  # answered at this moment after all
            note = context._(
                "{name} did not answer the offer to resign in time, so it counts as accepted."
            ).format(name=late.display_name)
            return [Message(where, note), *await self.presenter.after(context, appended)]

    def _makers(self) -> dict[str, Maker]:
        def fixed(build: Callable[[int], Action]) -> Maker:
            async def make(_loaded: LoadedMatch, player: int) -> Action:
                return build(player)

            return make

        return {
            "roll": self._roll,
            "double": fixed(Double),
            "take": fixed(Take),
            "drop": fixed(Drop),
            "beaver": fixed(Beaver),
            "resign1": fixed(lambda player: Resign(player, WinKind.SINGLE)),
            "resign2": fixed(lambda player: Resign(player, WinKind.GAMMON)),
            "resign3": fixed(lambda player: Resign(player, WinKind.BACKGAMMON)),
            "raccept": fixed(AcceptResignation),
            "rreject": fixed(RejectResignation),
        }

    async def _claim(self, loaded: LoadedMatch, player: int) -> Action:
        """Claim the match when the opponent's time is up (checked here, against the clock).
        Only a player who waited for a move or a cube decision claims: an unanswered offer to
        resign is settled by the clock as accepted, never turned into a won match."""
        if loaded.state.phase is Phase.RESIGNING:
            raise ActionError("resignation_pending", "a resignation waits for an answer")
        deadline = loaded.info.deadline
        if deadline is None or deadline > self.clock() or loaded.state.turn != 1 - player:
            raise ActionError("not_claimable", "the opponent's time has not run out")
        return ClaimWin(player)

    async def _roll(self, loaded: LoadedMatch, player: int) -> Action:
        """The next dice of this match, computed by storage from the secret seed."""
        dice = await self.dice.dice_for(loaded.info.id, loaded.state.dice_events)
        return Roll(player, dice)

    async def _roll_command(self, context: Context, _argument: str) -> list[Message]:
        return await self._act(context, self._roll)

    async def _claim_command(self, context: Context, _argument: str) -> list[Message]:
        return await self._act(context, self._claim)

    async def _double_command(self, context: Context, _argument: str) -> list[Message]:
        return await self._act(context, self._makers()["double"])

    async def _typed_move(self, context: Context, text: str) -> list[Message]:
        play = text.strip()[:_MAX_TEXT]
        wanted = None
        numbered = _NUMBERED.match(play)
        if numbered and context.request.chat.private:
            wanted, play = int(numbered.group(1)), numbered.group(2).strip()
        if not play:
            return context.refuse(context._("Write your move after /move, e.g. /move 13/10* 6/5"))

        if context.user.prefs.confirm_moves:
            return await self._preview(context, play, wanted)

        async def move(_loaded: LoadedMatch, player: int) -> Action:
            return Move(player, play)

        return await self._act(context, move, wanted=wanted)

    async def _preview(self, context: Context, play: str, wanted: int | None) -> list[Message]:
        """Confirm-moves: show the board after the play, with [Confirm] and [Change]."""
        _ = context._
        found = await self._addressed_match(context, wanted)
        if isinstance(found, list):
            return found
        loaded = await self.matches.load_match(found[1])
        player = loaded.info.player_index(context.user.id)
        assert player is not None
        try:
            after, recorded = advance(loaded.state, Move(player, play))
        except ActionError as error:
            return context.refuse(texts.action_refusal(_, error))
        move = recorded[0]
        assert isinstance(move, Move)
        pending = PendingMove(loaded.info.id, loaded.info.version, move.play)
        await self.users.set_pending_move(context.user.id, pending)
        players = await self._names(loaded)
        names = [user.display_name for user in players]
        view = BoardView.from_state(after)
        highlight = last_play(loaded.state, tuple(recorded))
        image = await self._render(context, view, names, highlight, player)
        token = Token("confirm", "m", loaded.info.id, loaded.info.version)
        buttons = (
            Button(_("Confirm"), format_token(token)),
            Button(
                _("Change"), format_token(Token("change", "m", loaded.info.id, loaded.info.version))
            ),
        )
        text = _("Your play {play}. Confirm it?").format(play=move.play)
        return [
            Message(
                context.request.chat,
                text,
                buttons,
                image=image,
                board=view,
                private_to=context.request.actor.user_id,
            )
        ]

    async def _confirm(self, context: Context, token: Token) -> list[Message]:
        _ = context._
        # Taken and cleared at once: of two presses of [Confirm], only one plays.
        pending = await self.users.take_pending_move(context.user.id)
        if pending is None or pending.match_id != token.target or pending.version != token.version:
            return context.refuse(_("That button is out of date."))
        if token.verb == "change":
            return context.refuse(_("Type your play again with /move."))
        play = pending.play

        async def move(_loaded: LoadedMatch, player: int) -> Action:
            return Move(player, play)

        return await self._act(context, move, token.target, token.version)

    async def _resign_command(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        level = _RESIGN_LEVELS.get(argument.strip().lower() or "single")
        if level is None:
            return context.refuse(
                _("Resign with /resign single, /resign gammon or /resign backgammon.")
            )
        found = await self._addressed_match(context)
        if isinstance(found, list):
            return found
        loaded = await self.matches.load_match(found[1])
        verb = {
            WinKind.SINGLE: "resign1",
            WinKind.GAMMON: "resign2",
            WinKind.BACKGAMMON: "resign3",
        }[level]
        buttons = (
            Button(
                _("Resign"), format_token(Token(verb, "m", loaded.info.id, loaded.info.version))
            ),
            Button(
                _("Keep playing"),
                format_token(Token("keep", "m", loaded.info.id, loaded.info.version)),
            ),
        )
        text = _("Do you really offer to resign {level}?").format(
            level=texts.resignation_name(_, level)
        )
        return [
            Message(context.request.chat, text, buttons, private_to=context.request.actor.user_id)
        ]
