"""Playing: rolls, moves, the cube, resignations, claims, and driving a match after every
change (automatic rolls, forced plays, dances, the next prompt, the end)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from bot.core import texts
from bot.core.base import (
    _MAX_TEXT,
    _RESIGN_LEVELS,
    Context,
    CoreBase,
    Gettext,
    Maker,
    _last_play,
    wants_private_notice,
)
from bot.core.model import Attachment, Button, ChatRef, Message
from bot.core.tokens import Token, format_token
from gammon.actions import (
    AcceptResignation,
    Action,
    Beaver,
    CannotMove,
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
from gammon.fair_dice import FairDice, join_client_seeds, transcript
from gammon.flow import ActionError, MatchState, Phase, advance
from gammon.mat_format import export_mat
from rendering import BoardView, LastPlay
from storage import (
    ConflictError,
    LoadedMatch,
    NotFoundError,
    UserRecord,
)


class PlayCommands(CoreBase):
    async def _act(
        self,
        context: Context,
        make: Maker,
        match_id: int | None = None,
        version: int | None = None,
    ) -> list[Message]:
        """Apply the caller's action to their match (or the match a button names)."""
        _ = context._
        if match_id is None:
            match_id = await self.matches.active_match_id_for(context.chat.id, context.user.id)
            if match_id is None:
                return context.refuse(
                    _("You have no match in this chat. Start one with /challenge.")
                )
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
            try:
                made = await make(loaded, player)
                appended = await self.matches.append_action(
                    match_id, loaded.info.version, made, actor_id=context.user.id
                )
            except ActionError as error:
                return context.refuse(texts.action_refusal(_, error))
            except ConflictError:
                return context.refuse(_("That button is out of date."))
            last = _last_play(loaded.state, appended.recorded)
            notes = await self._describe(context, loaded, appended.match.state, appended.recorded)
            return notes + await self._drive(context, match_id, last, appended.match)

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
        """Claim the match when the opponent's time is up (checked here, against the clock)."""
        deadline = loaded.info.deadline
        if deadline is None or deadline > self.clock() or loaded.state.turn == player:
            raise ActionError("not_claimable", "the opponent's time has not run out")
        return ClaimWin(player)

    async def _roll(self, loaded: LoadedMatch, player: int) -> Action:
        """The next dice of this match, computed by storage from the secret seed."""
        dice = await self.matches.dice_for(loaded.info.id, loaded.state.dice_events)
        return Roll(player, dice)

    async def _roll_command(self, context: Context, _argument: str) -> list[Message]:
        return await self._act(context, self._roll)

    async def _claim_command(self, context: Context, _argument: str) -> list[Message]:
        return await self._act(context, self._claim)

    async def _double_command(self, context: Context, _argument: str) -> list[Message]:
        return await self._act(context, self._makers()["double"])

    async def _typed_move(self, context: Context, text: str) -> list[Message]:
        play = text.strip()[:_MAX_TEXT]
        if not play:
            return context.refuse(context._("Write your move after /move, e.g. /move 13/10* 6/5"))

        if context.user.preferences.get("confirm_moves", False):
            return await self._preview(context, play)

        async def move(_loaded: LoadedMatch, player: int) -> Action:
            return Move(player, play)

        return await self._act(context, move)

    async def _preview(self, context: Context, play: str) -> list[Message]:
        """Confirm-moves: show the board after the play, with [Confirm] and [Change]."""
        _ = context._
        loaded = await self._my_match(context)
        if loaded is None:
            return context.refuse(_("You have no match in this chat. Start one with /challenge."))
        player = loaded.info.player_index(context.user.id)
        assert player is not None
        try:
            after, recorded = advance(loaded.state, Move(player, play))
        except ActionError as error:
            return context.refuse(texts.action_refusal(_, error))
        move = recorded[0]
        assert isinstance(move, Move)
        await self.users.set_preferences(
            context.user.id,
            {
                "pending_move": {
                    "match": loaded.info.id,
                    "version": loaded.info.version,
                    "play": move.play,
                }
            },
        )
        players = await self._names(loaded)
        names = [user.display_name for user in players]
        view = BoardView.from_state(after)
        highlight = _last_play(loaded.state, tuple(recorded))
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
        pending = context.user.preferences.get("pending_move")
        await self.users.set_preferences(context.user.id, {"pending_move": None})
        if (
            not isinstance(pending, dict)
            or pending.get("match") != token.target
            or pending.get("version") != token.version
        ):
            return context.refuse(_("That button is out of date."))
        if token.verb == "change":
            return context.refuse(_("Type your play again with /move."))
        play = str(pending.get("play", ""))

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
        loaded = await self._my_match(context)
        if loaded is None:
            return context.refuse(_("You have no match in this chat. Start one with /challenge."))
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

    async def _describe(
        self,
        context: Context,
        before: LoadedMatch,
        after: MatchState,
        recorded: tuple[Action, ...],
    ) -> list[Message]:
        """Sentences about what just happened that the next board does not show by itself."""
        _ = context._
        players = await self._names(before, context)
        names = [player.display_name for player in players]
        chat = context.request.chat
        notes: list[str] = []
        for action in recorded:
            if isinstance(action, CannotMove):
                dice = after.actions[-2].dice if isinstance(after.actions[-2], Roll) else None
                roll = f"{dice[0]}-{dice[1]}" if dice else ""
                notes.append(
                    _("{name} rolled {dice} and cannot move.").format(
                        name=names[action.player], dice=roll
                    )
                )
            elif isinstance(action, Double):
                notes.append(
                    _("{name} doubles to {value}.").format(
                        name=names[action.player], value=after.cube_value * 2
                    )
                )
            elif isinstance(action, Take):
                notes.append(
                    _("{name} takes. The cube is at {value}.").format(
                        name=names[action.player], value=after.cube_value
                    )
                )
            elif isinstance(action, Beaver):
                notes.append(
                    _("{name} beavers. The cube is at {value}.").format(
                        name=names[action.player], value=after.cube_value
                    )
                )
            elif isinstance(action, Resign):
                notes.append(
                    _("{name} offers to resign {level}.").format(
                        name=names[action.player],
                        level=texts.resignation_name(_, WinKind(action.level)),
                    )
                )
            elif isinstance(action, RejectResignation):
                notes.append(
                    _("{name} rejects the resignation. Play on!").format(name=names[action.player])
                )
        for result in after.games[len(before.state.games) :]:
            notes.append(texts.game_result_text(_, result, names, after.variant))
        return [Message(chat, note) for note in notes]

    async def _drive(
        self,
        context: Context,
        match_id: int,
        last: LastPlay | None = None,
        current: LoadedMatch | None = None,
    ) -> list[Message]:
        """Play what plays itself (opening rolls, automatic rolls, forced plays, dances), then
        prompt the player who must act. ``current`` is the match as just written, if known."""
        _ = context._
        chat = context.request.chat
        messages: list[Message] = []
        loaded = current or await self.matches.load_match(match_id)
        for _step in range(500):
            state = loaded.state
            players = await self._names(loaded, context)
            names = [player.display_name for player in players]
            if loaded.info.status != "active":
                return messages + await self._match_end(context, loaded, last)
            automatic: Action | None = None
            if state.phase is Phase.OPENING:
                automatic = OpeningRoll(await self.matches.dice_for(match_id, state.dice_events))
            elif state.phase is Phase.ROLLING:
                mover = players[state.player_on_roll]
                if state.double_refusal(state.player_on_roll) is not None and mover.preferences.get(
                    "auto_roll", True
                ):
                    automatic = await self._roll(loaded, state.player_on_roll)
            elif state.phase is Phase.MOVING:
                plays = state.legal_plays()
                mover = players[state.player_on_roll]
                if len(plays) == 1 and mover.preferences.get("auto_forced", True):
                    automatic = Move(state.player_on_roll, str(plays[0]))
                    messages.append(
                        Message(
                            chat,
                            _("{name}'s only legal play, {play}, was played automatically.").format(
                                name=names[state.player_on_roll], play=str(plays[0])
                            ),
                        )
                    )
            if automatic is None:
                return [*messages, await self._prompt(context, loaded, players, last)]
            appended = await self.matches.append_action(match_id, loaded.info.version, automatic)
            if isinstance(automatic, OpeningRoll):
                messages += self._opening_notes(_, chat, appended.match.state, automatic, names)
            last = _last_play(state, appended.recorded) or last
            messages += await self._describe(
                context, loaded, appended.match.state, appended.recorded
            )
            loaded = appended.match
        raise RuntimeError(f"match {match_id} did not settle")

    def _opening_notes(
        self, _: Gettext, chat: ChatRef, state: MatchState, roll: OpeningRoll, names: list[str]
    ) -> list[Message]:
        first, second = roll.dice
        if first == second:
            text = _("Opening roll: {a} {x}, {b} {y}. A tie: rolling again.")
        elif state.variant.value == "long_nardy":
            text = _("The lot: {a} {x}, {b} {y}. {winner} takes White and starts.")
        else:
            text = _("Opening roll: {a} {x}, {b} {y}. {winner} starts with {high}-{low}.")
        winner = names[0 if first > second else 1]
        notes = [
            text.format(
                a=names[0],
                x=first,
                b=names[1],
                y=second,
                winner=winner,
                high=max(first, second),
                low=min(first, second),
            )
        ]
        if state.crawford_game and first != second:
            notes.append(_("This is the Crawford game: nobody may double."))
        return [Message(chat, note) for note in notes]

    async def _prompt(
        self,
        context: Context,
        loaded: LoadedMatch,
        players: tuple[UserRecord, UserRecord],
        last: LastPlay | None,
    ) -> Message:
        """The board for the player who must act, with their buttons, mentioning them."""
        _ = context._
        state = loaded.state
        info = loaded.info
        names = [player.display_name for player in players]
        actor = state.turn if state.turn is not None else state.player_on_roll
        buttons: list[Button] = []

        def button(label: str, verb: str) -> None:
            buttons.append(Button(label, format_token(Token(verb, "m", info.id, info.version))))

        if state.phase is Phase.ROLLING:
            headline = _("{name} to roll.").format(name=names[actor])
            button(_("Roll"), "roll")
            if state.double_refusal(actor) is None:
                button(_("Double"), "double")
        elif state.phase is Phase.MOVING:
            assert state.dice is not None
            headline = _("{name} to play {high}-{low}: /move …").format(
                name=names[actor], high=max(state.dice), low=min(state.dice)
            )
        elif state.phase is Phase.DOUBLED:
            headline = _("{name}, take or drop the double to {value}?").format(
                name=names[actor], value=state.cube_value * 2
            )
            button(_("Take"), "take")
            button(_("Drop"), "drop")
            if state.rules.is_money and state.rules.beavers:
                button(_("Beaver"), "beaver")
        else:
            offer = state.resignation
            assert offer is not None
            headline = _("{name} offers to resign {level}. {other}, accept?").format(
                name=names[offer.player],
                level=texts.resignation_name(_, offer.level),
                other=names[actor],
            )
            button(_("Accept"), "raccept")
            button(_("Reject"), "rreject")
        pips = state.board_for(0).pip_counts()
        lines = [
            headline,
            _("Pips: {a} {x} · {b} {y}").format(a=names[0], x=pips[0], b=names[1], y=pips[1]),
            texts.score_line(_, state, names),
            texts.ids_line(state),
        ]
        view = BoardView.from_state(state)
        image = await self._render(context, view, names, last, actor)
        return Message(
            context.request.chat,
            "\n".join(lines),
            tuple(buttons),
            image=image,
            board=view,
            mention=(players[actor].platform_user_id,),
            notify=wants_private_notice(players[actor]),
            slot=f"board:{info.id}",
        )

    async def _match_end(
        self, context: Context, loaded: LoadedMatch, last: LastPlay | None
    ) -> list[Message]:
        _ = context._
        state = loaded.state
        players = await self._names(loaded)
        names = [player.display_name for player in players]
        winner = state.winner
        headline = (
            _("Match over: {name} wins {a}–{b}.").format(
                name=names[winner], a=state.score[winner], b=state.score[1 - winner]
            )
            if winner is not None
            else _("The match has ended.")
        )
        seed = await self.matches.reveal_seed(loaded.info.id)
        lines = [
            headline,
            _(
                "The dice were drawn from the server seed {seed}; its SHA-256 is the commitment "
                "{commitment} published at the start. Check every roll with: gammonbot verify "
                "transcript.json"
            ).format(seed=seed.hex(), commitment=loaded.info.dice_commitment),
        ]
        view = BoardView.from_state(state)
        image = await self._render(context, view, names, last, winner or 0)
        return [
            Message(
                context.request.chat,
                "\n".join(lines),
                image=image,
                board=view,
                # Tens of milliseconds for a long match: not on the event loop's time.
                attachments=await asyncio.to_thread(self._files, loaded, names, seed),
                mention=tuple(player.platform_user_id for player in players),
                notify=wants_private_notice(*players),
                slot=f"board:{loaded.info.id}",
            )
        ]

    def _files(
        self, loaded: LoadedMatch, names: list[str], seed: bytes | None
    ) -> tuple[Attachment, ...]:
        files = []
        if seed is not None:
            dice = FairDice(seed, join_client_seeds(*loaded.info.client_seeds))
            rolls = [
                action.dice
                for action in loaded.state.actions
                if isinstance(action, OpeningRoll | Roll)
            ]
            data = json.dumps(transcript(dice, rolls), indent=1).encode()
            files.append(Attachment(f"match-{loaded.info.id}-transcript.json", data))
        if not (loaded.state.rules.is_money and loaded.state.variant.value == "backgammon"):
            mat = export_mat(loaded.state, names).encode()
            files.append(Attachment(f"match-{loaded.info.id}.mat", mat))
        return tuple(files)
