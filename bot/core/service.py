"""The command layer: requests in, messages out, the database as the only truth.

Every change of a match goes through :class:`storage.MatchRepository` (version-checked) under
a per-match lock; after it the match is *driven*: automatic rolls, forced plays, dances and
opening rolls are played, then the player who must act gets a board with the right buttons.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial

from bot.core import rules_text, texts
from bot.core.i18n import DEFAULT_LOCALE, LOCALES, normalize_locale, translator
from bot.core.model import Attachment, Button, ChatRef, Message, Request
from bot.core.options import OptionError, parse_challenge_options
from bot.core.tokens import BadTokenError, Token, format_token, parse_token
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
from rendering import BoardView, LastPlay, render_board
from storage import (
    ChallengeRepository,
    ChatRecord,
    ChatRepository,
    ConflictError,
    Database,
    LoadedMatch,
    MatchRepository,
    NotFoundError,
    UserRecord,
    UserRepository,
)

logger = logging.getLogger(__name__)

Gettext = Callable[[str], str]
Maker = Callable[[LoadedMatch, int], Awaitable[Action]]
_MAX_TEXT = 500
_RESIGN_LEVELS = {
    "single": WinKind.SINGLE,
    "gammon": WinKind.GAMMON,
    "backgammon": WinKind.BACKGAMMON,
}


@dataclass(frozen=True)
class Context:
    request: Request
    user: UserRecord
    chat: ChatRecord
    locale: str
    known_users: dict[int, UserRecord] = field(default_factory=dict)  # read once per request

    @property
    def _(self) -> Gettext:
        return translator(self.locale).gettext

    def refuse(self, text: str) -> list[Message]:
        return [Message(self.request.chat, text, private_to=self.request.actor.user_id)]


class Core:
    """The bot, free of any chat platform."""

    def __init__(
        self,
        database: Database,
        *,
        render_images: bool = True,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.clock = clock
        self.users = UserRepository(database)
        self.chats = ChatRepository(database)
        self.challenges = ChallengeRepository(database)
        self.matches = MatchRepository(database)
        self.render_images = render_images
        self._locks: dict[int, asyncio.Lock] = {}
        # One rendering thread: more would only queue for the GIL, and a crowd of them makes
        # the event loop wait its turn (measured: stalls of ~100 ms with the default pool).
        self._render_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="render")

    # --- entry point ---------------------------------------------------------------------

    async def handle(self, request: Request) -> list[Message]:
        """Answer one request. Nothing unexpected escapes: it is logged and apologised for."""
        context = await self._context(request)
        try:
            if request.token is not None:
                return await self._press(context, request.token)
            if request.command is not None:
                return await self._command(context, request.command.lower(), request.argument)
            if request.text is not None:
                return await self._typed_move(context, request.text)
            return []
        except Exception:
            logger.exception(
                "request failed: %s in chat %s", request.command or "press", request.chat
            )
            return context.refuse(context._("Sorry, something went wrong. Please try again."))

    async def _context(self, request: Request) -> Context:
        actor = request.actor
        user = await self.users.upsert_user(
            actor.platform,
            actor.user_id,
            actor.name[:256] or actor.user_id,
            normalize_locale(actor.locale),
        )
        chat = await self.chats.upsert_chat(
            request.chat.platform, request.chat.chat_id, normalize_locale(request.chat.locale)
        )
        locale = (
            normalize_locale(user.preferences.get("language"))
            or normalize_locale(chat.settings.get("language"))
            or normalize_locale(actor.locale)
            or normalize_locale(chat.locale)
            or DEFAULT_LOCALE
        )
        return Context(request, user, chat, locale)

    async def _command(self, context: Context, name: str, argument: str) -> list[Message]:
        argument = argument[:_MAX_TEXT]
        handlers = {
            "challenge": self._challenge,
            "accept": self._accept_command,
            "roll": self._roll_command,
            "move": self._typed_move,
            "double": self._double_command,
            "resign": self._resign_command,
            "board": self._board_command,
            "matches": self._matches_command,
            "help": self._help,
            "start": self._help,
            "language": self._language,
            "seed": self._seed,
            "verify": self._verify,
            "export": self._export,
            "rules": self._rules,
            "settings": self._settings,
            "defaults": self._chat_defaults,
            "claim": self._claim_command,
        }
        handler = handlers.get(name)
        if handler is None:
            return context.refuse(context._("I do not know that command. /help lists them all."))
        return await handler(context, argument)

    # --- challenges ----------------------------------------------------------------------

    async def _challenge(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        words = [word for word in argument.split() if not word.startswith("@")]
        try:
            options = parse_challenge_options(
                " ".join(words), int(context.chat.settings.get("default_length", 3))
            )
        except OptionError as error:
            return context.refuse(
                _(
                    "I cannot read the option “{word}”. Example: /challenge @bob 5 nardy time=24h"
                ).format(word=error.word)
            )
        if await self.matches.active_match_for(context.chat.id, context.user.id):
            return context.refuse(_("You are already playing a match in this chat."))
        challenged = None
        if context.request.mentions:
            target = context.request.mentions[0]
            challenged = await self.users.upsert_user(target.platform, target.user_id, target.name)
            if challenged.id == context.user.id:
                return context.refuse(_("You cannot challenge yourself."))
        offer = await self.challenges.create_challenge(
            chat_id=context.chat.id,
            challenger_id=context.user.id,
            challenged_id=challenged.id if challenged else None,
            rules=options.rules,
            move_time_limit=options.move_time_limit,
        )
        await self.challenges.set_message_ref(offer.id, context.request.event_id or f"c{offer.id}")
        summary = texts.rules_summary(_, options.rules, options.move_time_limit)
        if challenged:
            text = _("{challenger} challenges {challenged} to a {summary}.").format(
                challenger=context.user.display_name,
                challenged=challenged.display_name,
                summary=summary,
            )
            mention: tuple[str, ...] = (challenged.platform_user_id,)
        else:
            text = _("{challenger} offers a {summary}. Anyone here may accept.").format(
                challenger=context.user.display_name, summary=summary
            )
            mention = ()
        buttons = (
            Button(_("Accept"), format_token(Token("accept", "c", offer.id, 0))),
            Button(_("Decline"), format_token(Token("decline", "c", offer.id, 0))),
            Button(_("Cancel"), format_token(Token("cancel", "c", offer.id, 0))),
        )
        text += " " + _("The offer expires in a day.")
        return [
            Message(
                context.request.chat, text, buttons, mention=mention, slot=f"challenge:{offer.id}"
            )
        ]

    async def _accept_command(self, context: Context, argument: str) -> list[Message]:
        offers = await self.challenges.open_challenges(context.chat.id)
        for offer in reversed(offers):
            if (
                offer.challenged_id in (None, context.user.id)
                and offer.challenger_id != context.user.id
            ):
                return await self._answer_challenge(context, "accept", offer.id)
        return context.refuse(context._("There is no open challenge for you here."))

    async def _answer_challenge(
        self, context: Context, verb: str, challenge_id: int
    ) -> list[Message]:
        _ = context._
        try:
            offer = await self.challenges.get_challenge(challenge_id)
        except NotFoundError:
            return context.refuse(_("That button is out of date."))
        if offer.chat_id != context.chat.id:
            return context.refuse(_("That button is out of date."))
        if offer.state != "open":
            return context.refuse(_("This challenge has already been answered."))
        if offer.expires_at <= self.clock():
            await self._close_challenge(offer.id, "expired")
            return context.refuse(_("This challenge has expired."))
        is_challenger = offer.challenger_id == context.user.id
        if verb == "cancel":
            if not is_challenger:
                return context.refuse(_("Only the challenger can cancel this challenge."))
            await self._close_challenge(offer.id, "cancelled")
            return [
                Message(
                    context.request.chat,
                    _("The challenge was cancelled."),
                    slot=f"challenge:{offer.id}",
                )
            ]
        if is_challenger:
            return context.refuse(_("You cannot answer your own challenge."))
        if offer.challenged_id not in (None, context.user.id):
            return context.refuse(_("This challenge is for someone else."))
        if verb == "decline":
            await self._close_challenge(offer.id, "declined")
            return [
                Message(
                    context.request.chat,
                    _("{name} declined the challenge.").format(name=context.user.display_name),
                    slot=f"challenge:{offer.id}",
                )
            ]
        if await self.matches.active_match_for(context.chat.id, context.user.id):
            return context.refuse(_("You are already playing a match in this chat."))
        if await self.matches.active_match_for(context.chat.id, offer.challenger_id):
            return context.refuse(_("The challenger is already playing a match in this chat."))
        try:
            await self.challenges.answer_challenge(offer.id, "accepted")
        except ConflictError:
            return context.refuse(_("This challenge has already been answered."))
        challenger = await self.users.get_user(offer.challenger_id)
        seeds = (
            await self._take_seed(challenger, offer.message_ref or f"challenge-{offer.id}"),
            await self._take_seed(context.user, context.request.event_id or secrets.token_hex(8)),
        )
        created = await self.matches.create_match(
            chat_id=context.chat.id,
            player_ids=(challenger.id, context.user.id),
            rules=offer.rules,
            server_seed=secrets.token_bytes(32),
            client_seeds=seeds,
            move_time_limit=offer.move_time_limit,
        )
        names = (challenger.display_name, context.user.display_name)
        start = _(
            "Match {id}: {first} vs {second}, {summary}. Dice commitment (SHA-256 of the secret "
            "server seed): {commitment}. Client seeds: “{seed0}” and “{seed1}”."
        ).format(
            id=created.info.id,
            first=names[0],
            second=names[1],
            summary=texts.rules_summary(_, offer.rules, offer.move_time_limit),
            commitment=created.info.dice_commitment,
            seed0=seeds[0],
            seed1=seeds[1],
        )
        messages = [Message(context.request.chat, start, slot=f"challenge:{offer.id}")]
        async with self._lock(created.info.id):
            messages += await self._drive(context, created.info.id)
        return messages

    async def _close_challenge(self, challenge_id: int, answer: str) -> None:
        with contextlib.suppress(ConflictError):
            await self.challenges.answer_challenge(challenge_id, answer)

    async def _take_seed(self, user: UserRecord, fallback: str) -> str:
        chosen = user.preferences.get("next_seed")
        if isinstance(chosen, str) and chosen:
            await self.users.set_preferences(user.id, {"next_seed": ""})
            return chosen
        return f"{user.platform}:{fallback}"

    # --- playing -------------------------------------------------------------------------

    def _lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    async def _my_match(self, context: Context) -> LoadedMatch | None:
        return await self.matches.active_match_for(context.chat.id, context.user.id)

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
            found = await self._my_match(context)
            if found is None:
                return context.refuse(
                    _("You have no match in this chat. Start one with /challenge.")
                )
            match_id = found.info.id
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
            return notes + await self._drive(context, match_id, last)

    async def _press(self, context: Context, raw: str) -> list[Message]:
        _ = context._
        try:
            token = parse_token(raw)
        except BadTokenError:
            return context.refuse(_("That button is out of date."))
        if token.kind == "c":
            if token.verb not in ("accept", "decline", "cancel"):
                return context.refuse(_("That button is out of date."))
            return await self._answer_challenge(context, token.verb, token.target)
        if token.kind == "u":
            return await self._toggle(context, token)
        if token.verb in ("confirm", "change"):
            return await self._confirm(context, token)
        if token.verb == "keep":
            return context.refuse(_("Good luck!"))
        if token.verb == "claim":
            return await self._act(context, self._claim, token.target, token.version)
        make = self._makers().get(token.verb)
        if make is None:
            return context.refuse(_("That button is out of date."))
        return await self._act(context, make, token.target, token.version)

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

    # --- after every change: automatic steps, then the next prompt -----------------------

    async def _names(
        self, loaded: LoadedMatch, context: Context | None = None
    ) -> tuple[UserRecord, UserRecord]:
        known = context.known_users if context is not None else {}
        found = []
        for user_id in loaded.info.player_ids:
            if user_id not in known:
                known[user_id] = await self.users.get_user(user_id)
            found.append(known[user_id])
        return (found[0], found[1])

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
        self, context: Context, match_id: int, last: LastPlay | None = None
    ) -> list[Message]:
        """Play what plays itself (opening rolls, automatic rolls, forced plays, dances), then
        prompt the player who must act."""
        _ = context._
        chat = context.request.chat
        messages: list[Message] = []
        loaded = await self.matches.load_match(match_id)
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
                name=names[actor], high=state.dice[0], low=state.dice[1]
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
            slot=f"board:{info.id}",
        )

    async def _render(
        self,
        context: Context,
        view: BoardView,
        names: list[str],
        last: LastPlay | None,
        perspective: int,
    ) -> bytes | None:
        if not self.render_images:
            return None
        _ = context._
        labels = {
            "match_to": _("Match to {length}"),
            "money": _("Money game"),
            "crawford": _("Crawford"),
            "long_nardy_to": _("Long nardy · to {length}"),
            "long_nardy_single": _("Long nardy · single games"),
            "pips": _("{pips} pips"),
            "doubles": _("{name} doubles to {value}"),
            "played": _("{name}: {play}"),
            "wins": _("{name} wins"),
            "player": _("Player {number}"),
        }
        theme = str(context.user.preferences.get("theme", "classic"))
        draw = partial(
            render_board,
            view,
            perspective=perspective,
            names=names,
            last_play=last,
            labels=labels,
            theme=theme if theme in ("classic", "dark") else "classic",
        )
        return await asyncio.get_running_loop().run_in_executor(self._render_pool, draw)

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
                attachments=self._files(loaded, names, seed),
                mention=tuple(player.platform_user_id for player in players),
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

    # --- information ---------------------------------------------------------------------

    async def _board_command(self, context: Context, _argument: str) -> list[Message]:
        loaded = await self._my_match(context)
        if loaded is None:
            return context.refuse(
                context._("You have no match in this chat. Start one with /challenge.")
            )
        players = await self._names(loaded)
        return [await self._prompt(context, loaded, players, None)]

    async def _matches_command(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        infos = await self.matches.active_matches_of(context.user.id)
        if not infos:
            return context.refuse(_("You have no active matches."))
        lines = [_("Your active matches:")]
        for info in infos:
            loaded = await self.matches.load_match(info.id)
            players = await self._names(loaded)
            me = info.player_index(context.user.id) or 0
            opponent = players[1 - me].display_name
            turn = (
                _("your turn")
                if info.turn_user_id == context.user.id
                else _("{name}'s turn").format(name=opponent)
            )
            left = ""
            if info.deadline is not None:
                hours = max(0, (info.deadline - self.clock()).total_seconds() / 3600)
                left = " · " + _("{hours} h left").format(hours=round(hours))
            lines.append(
                _("Match {id} vs {name}: {mine}–{theirs}, {turn}").format(
                    id=info.id,
                    name=opponent,
                    mine=loaded.state.score[me],
                    theirs=loaded.state.score[1 - me],
                    turn=turn,
                )
                + left
            )
        return context.refuse("\n".join(lines))

    async def _help(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        text = "\n".join(
            [
                _("gammonbot plays backgammon and long nardy in this chat."),
                _(
                    "/challenge @user [length] [nardy] [nocube] [money] [jacoby] [beaver] "
                    "[time=24h] – offer a match"
                ),
                _("/accept – accept the newest challenge for you"),
                _("/roll, /double – at the start of your turn"),
                _("/move 13/10* 6/5 – play your dice"),
                _("/resign [single|gammon|backgammon] – offer to resign"),
                _("/board – show the board again; /matches – your active matches"),
                _("/seed TEXT – your own client seed for the next match"),
                _("/claim – win the match when your opponent's time has run out"),
                _("/verify, /export – the dice transcript and the .mat file of your match"),
                _("/rules [topic] – the rules, chapter by chapter"),
                _("/settings – automatic rolls, forced moves, confirmation, board theme"),
                _("/language en|de – your language"),
                _("/defaults length N | language xx – the chat's defaults (administrators)"),
            ]
        )
        return [Message(context.request.chat, text, private_to=context.request.actor.user_id)]

    _SETTINGS: tuple[tuple[str, str, object], ...] = (
        ("autoroll", "auto_roll", True),
        ("forced", "auto_forced", True),
        ("confirmmoves", "confirm_moves", False),
        ("notify", "notify", True),
    )

    async def _settings(self, context: Context, _argument: str) -> list[Message]:
        return [self._settings_message(context, context.user.preferences)]

    def _settings_message(self, context: Context, preferences: dict[str, object]) -> Message:
        _ = context._
        labels = {
            "autoroll": _("Roll by myself when I cannot double"),
            "forced": _("Play forced moves by myself"),
            "confirmmoves": _("Confirm each move"),
            "notify": _("Private notifications"),
        }
        buttons = []
        for verb, key, default in self._SETTINGS:
            state = _("on") if preferences.get(key, default) else _("off")
            token = format_token(Token(verb, "u", context.user.id, 0))
            buttons.append(Button(f"{labels[verb]}: {state}", token))
        theme = str(preferences.get("theme", "classic"))
        buttons.append(
            Button(
                _("Board: {theme}").format(theme=_("dark") if theme == "dark" else _("classic")),
                format_token(Token("theme", "u", context.user.id, 0)),
            )
        )
        return Message(
            context.request.chat,
            _("Your settings (press to change):"),
            tuple(buttons),
            private_to=context.request.actor.user_id,
        )

    async def _toggle(self, context: Context, token: Token) -> list[Message]:
        _ = context._
        if token.target != context.user.id:
            return context.refuse(_("These are someone else's settings."))
        changed: dict[str, object]
        if token.verb == "theme":
            current = context.user.preferences.get("theme", "classic")
            changed = {"theme": "classic" if current == "dark" else "dark"}
        else:
            entry = next((item for item in self._SETTINGS if item[0] == token.verb), None)
            if entry is None:
                return context.refuse(_("That button is out of date."))
            _verb, key, default = entry
            changed = {key: not context.user.preferences.get(key, default)}
        updated = await self.users.set_preferences(context.user.id, changed)
        return [self._settings_message(context, updated.preferences)]

    async def _chat_defaults(self, context: Context, argument: str) -> list[Message]:
        """``/defaults [length N | money] [language en|de]``: a chat admin's defaults."""
        _ = context._
        words = argument.lower().split()
        if not words:
            length = context.chat.settings.get("default_length", 3)
            language = context.chat.settings.get("language") or "-"
            return context.refuse(
                _("This chat: matches of {length} points by default, language {language}.").format(
                    length=length or _("money"), language=language
                )
            )
        if not context.request.admin:
            return context.refuse(_("Only an administrator of this chat can change its defaults."))
        settings: dict[str, object] = {}
        pairs = dict(zip(words[::2], words[1::2], strict=False))
        if "length" in pairs:
            value = pairs["length"]
            if value == "money":
                settings["default_length"] = 0
            elif value.isdigit() and 1 <= int(value) <= 25:
                settings["default_length"] = int(value)
            else:
                return context.refuse(_("A match length is 1 to 25, or money."))
        if "language" in pairs:
            chosen = normalize_locale(pairs["language"])
            if chosen is None:
                return context.refuse(
                    _("Choose one of: {choices}").format(choices=", ".join(LOCALES))
                )
            settings["language"] = chosen
        if not settings:
            return context.refuse(_("Use /defaults length 5 or /defaults language de."))
        await self.chats.update_chat(context.chat.id, settings=settings)
        return [Message(context.request.chat, _("The chat's defaults are updated."))]

    async def _rules(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        chapter = rules_text.find_chapter(argument or "overview")
        if chapter is None:
            topics = ", ".join(item.topic.replace(" ", "") for item in rules_text.CHAPTERS)
            return context.refuse(_("I know these chapters: {topics}").format(topics=topics))
        title = rules_text.chapter_title(_, chapter)
        text = f"{title}\n{rules_text.chapter_text(_, chapter)}"
        view = rules_text.chapter_view(chapter)
        image = None
        if view is not None:
            highlight = rules_text.chapter_highlight(chapter)
            image = await self._render(context, view, [_("White"), _("Black")], highlight, 0)
        return [Message(context.request.chat, text, image=image, board=view)]

    async def _language(self, context: Context, argument: str) -> list[Message]:
        chosen = normalize_locale(argument.strip())
        if chosen is None:
            return context.refuse(
                context._("Choose one of: {choices}").format(choices=", ".join(LOCALES))
            )
        await self.users.set_preferences(context.user.id, {"language": chosen})
        _ = translator(chosen).gettext
        return [
            Message(
                context.request.chat,
                _("I will speak English with you."),
                private_to=context.request.actor.user_id,
            )
        ]

    async def _seed(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        seed = " ".join(argument.split())[:64]
        if not seed:
            return context.refuse(_("Give your seed after /seed, e.g. /seed lucky-7."))
        await self.users.set_preferences(context.user.id, {"next_seed": seed})
        return context.refuse(
            _("Your client seed for your next match is “{seed}”.").format(seed=seed)
        )

    async def _latest(self, context: Context) -> LoadedMatch | None:
        found = await self.matches.latest_match_for(context.chat.id, context.user.id)
        return await self.matches.load_match(found.id) if found else None

    async def _verify(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        loaded = await self._latest(context)
        if loaded is None:
            return context.refuse(_("You have no match in this chat. Start one with /challenge."))
        if loaded.info.status == "active":
            return context.refuse(
                _(
                    "Match {id} is still being played. Its dice commitment is {commitment}; "
                    "the seed is revealed when the match ends."
                ).format(id=loaded.info.id, commitment=loaded.info.dice_commitment)
            )
        players = await self._names(loaded)
        seed = await self.matches.reveal_seed(loaded.info.id)
        files = self._files(loaded, [player.display_name for player in players], seed)
        text = _("The transcript of match {id}. Check it with: gammonbot verify FILE").format(
            id=loaded.info.id
        )
        return [
            Message(
                context.request.chat,
                text,
                attachments=files[:1],
                private_to=context.request.actor.user_id,
            )
        ]

    async def _export(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        loaded = await self._latest(context)
        if loaded is None:
            return context.refuse(_("You have no match in this chat. Start one with /challenge."))
        players = await self._names(loaded)
        files = [
            file
            for file in self._files(loaded, [player.display_name for player in players], None)
            if file.filename.endswith(".mat")
        ]
        if not files:
            return context.refuse(_("Money games cannot be exported to a .mat file."))
        return [
            Message(
                context.request.chat,
                _("Match {id} for GNU Backgammon and eXtreme Gammon.").format(id=loaded.info.id),
                attachments=tuple(files),
                private_to=context.request.actor.user_id,
            )
        ]


def _last_play(before: MatchState, recorded: tuple[Action, ...]) -> LastPlay | None:
    """The highlight for a play just recorded (the mover's own numbering)."""
    from gammon import parse_play

    for action in recorded:
        if isinstance(action, Move) and before.dice is not None:
            play = parse_play(action.play, before.position, before.dice)
            return LastPlay.from_play(play, action.player)
    return None
