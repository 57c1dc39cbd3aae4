"""What the players see of a match: a sentence for each thing that happened that the board does
not show by itself, the board for whoever acts next with their buttons, and the end of a match
with its revealed seed, transcript and .mat file."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core import texts
from bot.core.attention import Attention
from bot.core.context import Context, last_play
from bot.core.dice_names import roll_text
from bot.core.i18n import Speech
from bot.core.match_files import MatchFiles
from bot.core.match_pages import MatchPages
from bot.core.model import Button, ChatRef, Message
from bot.core.notices import private_notices
from bot.core.replays import GameAnimations
from bot.core.standings import rating_line
from bot.core.tokens import Token, format_token
from gammon.actions import (
    Beaver,
    CannotMove,
    Double,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.flow import MatchState, Phase, Step
from rendering import BoardView, LastPlay
from storage import (
    Appended,
    DiceRepository,
    LoadedMatch,
    MatchRepository,
    RatingRepository,
    UserRecord,
)

_WITH_BUTTONS = (Phase.ROLLING, Phase.DOUBLED, Phase.RESIGNING)

Draw = Callable[[Context, BoardView, list[str], LastPlay | None, int], Awaitable[bytes | None]]
Players = Callable[..., Awaitable[tuple[UserRecord, UserRecord]]]


class Presenter:
    """Turns match states into messages. Given exactly what it uses: how to draw a board, how
    to find the players, the dice (for the seed at the end) and the matches (for the record)."""

    def __init__(
        self,
        draw: Draw,
        players: Players,
        dice: DiceRepository,
        matches: MatchRepository,
        animations: GameAnimations,
        pages: MatchPages,
        attention: Attention,
        ratings: RatingRepository,
    ) -> None:
        self._draw = draw
        self._players = players
        self.dice = dice
        self.matches = matches
        self.animations = animations
        self.pages = pages
        self.attention = attention
        self.ratings = ratings
        self.files = MatchFiles(matches)

    async def after(
        self, context: Context, appended: Appended, by_player: bool = True
    ) -> list[Message]:
        """What to show after an append: a sentence for each thing that happened that the
        board does not show by itself, then the board for whoever acts next (or the end).
        ``by_player``: the first step is the caller's own action, not an automatic one."""
        _ = context.for_chat  # everyone in the chat reads it
        chat = context.request.chat
        loaded = appended.match
        players = await self._players(loaded, context)
        names = [player.display_name for player in players]
        messages: list[Message] = []
        last: LastPlay | None = None
        final: Message | None = None  # the last game's replay, when the match ends
        for index, step in enumerate(appended.steps):
            first = step.recorded[0]
            if isinstance(first, Move) and players[first.player].is_bot:
                messages.append(Message(chat, self.bot_move_note(_, step, first, names)))
            elif (index > 0 or not by_player) and isinstance(first, Move):
                messages.append(
                    Message(
                        chat,
                        _("{name}'s only legal play, {play}, was played automatically.").format(
                            name=names[first.player], play=first.play
                        ),
                    )
                )
            if isinstance(first, OpeningRoll):
                messages += self.opening_notes(_, chat, step.after, first, names)
            last = last_play(step.before, step.recorded) or last
            messages += self.describe(context, step, names)
            for result in step.after.games[len(step.before.games) :]:
                replay = await self.animations.of_game(context, loaded.info, result.number, names)
                if step.after.phase is Phase.FINISHED:
                    final = replay  # it ends on the final position: the end's picture
                elif replay is not None:
                    messages.append(replay)  # right after the game's result
        # The board this answer replaces had buttons only while a roll, a double or an offer
        # to resign waited (a move is typed): only then is there anything to strip.
        strip = appended.steps[0].before.phase in _WITH_BUTTONS if appended.steps else True
        if loaded.info.status != "active":
            return messages + await self.match_end(context, loaded, last, final, strip)
        return [*messages, await self.prompt(context, loaded, players, last, strip)]

    def describe(self, context: Context, step: Step, names: list[str]) -> list[Message]:
        """Sentences about what one step did that the next board does not show by itself."""
        _ = context.for_chat  # everyone in the chat reads it
        after = step.after
        chat = context.request.chat
        notes: list[str] = []
        # The roll a CannotMove follows is recorded in the same step: the state's history may
        # start later (a loaded state has none).
        for previous, action in zip((None, *step.recorded), step.recorded, strict=False):
            if isinstance(action, CannotMove):
                dice = previous.dice if isinstance(previous, Roll) else None
                roll = roll_text(_.locale, dice) if dice else ""
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
        for result in after.games[len(step.before.games) :]:
            notes.append(texts.game_result_text(_, result, names, after.variant))
        return [Message(chat, note) for note in notes]

    @staticmethod
    def bot_move_note(_: Speech, step: Step, move: Move, names: list[str]) -> str:
        dice = step.before.dice
        assert dice is not None  # a move is made with the dice rolled
        return _("{name} rolled {roll} and played {play}.").format(
            name=names[move.player], roll=roll_text(_.locale, dice), play=move.play
        )

    def opening_notes(
        self, _: Speech, chat: ChatRef, state: MatchState, roll: OpeningRoll, names: list[str]
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

    async def prompt(
        self,
        context: Context,
        loaded: LoadedMatch,
        players: tuple[UserRecord, UserRecord],
        last: LastPlay | None,
        strip_previous: bool = True,
    ) -> Message:
        """The board for the player who must act, with their buttons, mentioning them (unless
        they asked for it)."""
        _ = context.for_chat  # everyone in the chat reads it
        state = loaded.state
        info = loaded.info
        names = [player.display_name for player in players]
        actor = state.turn if state.turn is not None else state.player_on_roll
        buttons: list[Button] = []

        def button(label: str, verb: str) -> None:
            buttons.append(Button(label, format_token(Token(verb, "m", info.id, info.version))))

        if state.phase is Phase.ROLLING:
            button(_("Roll"), "roll")
            if state.double_refusal(actor) is None:
                button(_("Double"), "double")
        elif state.phase is Phase.DOUBLED:
            button(_("Take"), "take")
            button(_("Drop"), "drop")
            if state.rules.is_money and state.rules.beavers:
                button(_("Beaver"), "beaver")
        elif state.phase is Phase.RESIGNING:
            button(_("Accept"), "raccept")
            button(_("Reject"), "rreject")
        bot_to_act = players[actor].is_bot
        if bot_to_act:  # it answers at once: nothing to press, nobody to ping
            buttons.clear()
        headline = texts.turn_headline(_, state, names, bot_to_act)
        pips = state.board_for(0).pip_counts()
        lines = [
            headline,
            _("Pips: {a} {x} · {b} {y}").format(a=names[0], x=pips[0], b=names[1], y=pips[1]),
            texts.score_line(_, state, names),
            texts.ids_line(state),
        ]
        view = BoardView.from_state(state)
        image = await self._draw(context, view, names, last, actor)
        mention, notify = await self.attention.call(context, info.id, players[actor])
        notices = private_notices(
            players,
            notify,
            context.chat,
            lambda said: texts.turn_headline(said, state, names, bot_to_act),
        )
        return Message(
            context.request.chat,
            "\n".join(lines),
            tuple(buttons),
            image=image,
            board=view,
            mention=mention,
            notify=notify,
            slot=f"board:{info.id}",
            strip_previous=strip_previous,
            notices=notices,
        )

    async def match_end(
        self,
        context: Context,
        loaded: LoadedMatch,
        last: LastPlay | None,
        replay: Message | None = None,
        strip_previous: bool = True,
    ) -> list[Message]:
        """The end: who won, the revealed seed, the files; the picture is the last game's
        replay when there is one (it ends on the final position), else the final board."""
        _ = context.for_chat  # everyone in the chat reads it
        state = loaded.state
        players = await self._players(loaded)
        names = [player.display_name for player in players]
        winner = state.winner
        headline = texts.match_over(_, state, names)
        seed = await self.dice.reveal_seed(loaded.info.id)
        lines = [
            headline,
            _(
                "The dice were drawn from the server seed {seed}; its SHA-256 is the commitment "
                "{commitment} published at the start. Check every roll with: gammonbot verify "
                "transcript.json"
            ).format(seed=seed.hex(), commitment=loaded.info.dice_commitment),
            self.pages.check_line(_, loaded.info),
        ]
        rated = await self.ratings.rated_match(loaded.info.id)
        if rated is not None:
            by_id = {player.id: player.display_name for player in players}
            lines.insert(1, rating_line(_, context.chat_locale, rated, by_id))
        view = BoardView.from_state(state)
        animation = replay.animation if replay is not None else None
        image = None if animation else await self._draw(context, view, names, last, winner or 0)
        check_locale = self.pages.check_locale(context)
        mention, notify = await self.attention.call(context, loaded.info.id, *players)
        notices = private_notices(
            players, notify, context.chat, lambda said: texts.match_over(said, state, names)
        )
        return [
            Message(
                context.request.chat,
                "\n".join(lines),
                image=image,
                animation=animation,
                board=view,
                attachments=await self.files.of(loaded, names, seed, check_locale),
                mention=mention,
                notify=notify,
                slot=f"board:{loaded.info.id}",
                strip_previous=strip_previous,
                notices=notices,
            )
        ]


def without_boards(messages: list[Message]) -> list[Message]:
    """The sentences (and replays) of a presentation without its board: when another board
    follows at once (the bot's turn), only the last one is worth showing."""
    return [message for message in messages if message.slot is None]
