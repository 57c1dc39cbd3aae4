"""What the players see of a match: the board for whoever acts next with their buttons, its
first line saying what was just played, the replay of a game that ended, and the end of a
match with its files (the dice transcript and check page, the .mat file) and [Rematch]."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Protocol

from bot.core.context import Context, last_play
from bot.core.documents.match_files import MatchFiles
from bot.core.documents.match_pages import MatchPages
from bot.core.match import narration
from bot.core.match.attention import Attention
from bot.core.match.leads import BoardLeads
from bot.core.match.notices import private_notices
from bot.core.model import Button, Message, Public, Slot
from bot.core.text import texts
from bot.core.text.fair_dice_text import fair_dice_line
from bot.core.text.i18n import Speech
from bot.core.text.ratings import rating_line
from bot.core.tokens import Token, Verb, format_token
from gammon.flow import Phase
from rendering import BoardView, LastPlay
from storage import (
    Appended,
    DiceRepository,
    LoadedMatch,
    MatchInfo,
    MatchRepository,
    RatingRepository,
    UserRecord,
)

_WITH_BUTTONS = (Phase.ROLLING, Phase.DOUBLED, Phase.RESIGNING)

Draw = Callable[[Context, BoardView, list[str], LastPlay | None, int], Awaitable[bytes | None]]
Players = Callable[..., Awaitable[tuple[UserRecord, UserRecord]]]


class GameAnimations(Protocol):
    """A finished game as an animated picture (:class:`bot.core.info.replays.GameAnimations`:
    the replays sit above the matches, which know them only by this)."""

    async def of_game(
        self, context: Context, info: MatchInfo, number: int, names: Sequence[str]
    ) -> Message | None:
        """Game ``number`` of the match, or None without pictures."""


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
        self.leads = BoardLeads(matches)

    async def after(
        self,
        context: Context,
        appended: Appended,
        by_player: bool = True,
        lead: Sequence[str] = (),
    ) -> list[Message]:
        """What to show after an append: the board for whoever acts next (or the end), its
        first line saying what led to it; a game that ended on the way is shown as its
        replay, which says what led to its end. ``by_player``: the first step is a player's
        own action (the caller's, or the bot's), not an automatic one. ``lead``: sentences to
        say before all that."""
        _ = context.for_chat  # everyone in the chat reads it
        loaded = appended.match
        players = await self._players(loaded, context)
        names = [player.display_name for player in players]
        bots = [player.is_bot for player in players]
        steps = appended.steps
        said = [*lead, *await self.leads.before(_, loaded, steps, by_player, names, bots)]
        messages: list[Message] = []
        last: LastPlay | None = None
        final: Message | None = None  # the last game's replay, when the match ends
        for index, step in enumerate(steps):
            automatic = index > 0 or not by_player
            said += narration.step_sentences(
                _, step, names, automatic, bots, last=index == len(steps) - 1
            )
            last = last_play(step.before, step.recorded) or last
            for result in step.after.games[len(step.before.games) :]:
                replay = await self.animations.of_game(context, loaded.info, result.number, names)
                if step.after.phase is Phase.FINISHED:
                    final = replay  # it ends on the final position: the end's picture
                elif replay is not None:  # right after the game's result, which it says
                    messages.append(with_lead(replay, said))
                    said = []
        # The board this answer replaces had buttons only while a roll, a double or an offer
        # to resign waited (a move is typed): only then is there anything to strip.
        strip = steps[0].before.phase in _WITH_BUTTONS if steps else True
        if loaded.info.status != "active":
            return messages + await self.match_end(context, loaded, last, final, strip, said)
        return [*messages, await self.prompt(context, loaded, players, last, strip, said)]

    def start_lines(self, _: Speech, info: MatchInfo) -> list[str]:
        """What a match's start says after who plays what: the commitment to its dice in short
        (the seeds are fixed now: /verify shows them and the whole commitment) and where its
        web page is, if any."""
        dice = fair_dice_line(_, info.dice_commitment, self.pages.check_url(info))
        page = self.pages.page_line(_, info)
        return [dice, page] if page else [dice]

    async def prompt(
        self,
        context: Context,
        loaded: LoadedMatch,
        players: tuple[UserRecord, UserRecord],
        last: LastPlay | None,
        strip_previous: bool = True,
        lead: Sequence[str] | None = None,
    ) -> Message:
        """The board for the player who must act, with their buttons, mentioning them (unless
        they asked for it). Its first line says ``lead``, what was just played (by default
        what the board it takes the place of said: see :mod:`bot.core.match.narration`)."""
        _ = context.for_chat  # everyone in the chat reads it
        state = loaded.state
        info = loaded.info
        names = [player.display_name for player in players]
        if lead is None:  # asked for (/board): what the board it replaces said
            bots = [player.is_bot for player in players]
            lead = await self.leads.told(_, info, state, info.version, names, bots)
        said = narration.line(lead)
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
        board_page = self.pages.board_button(_, info)
        if board_page is not None:
            buttons.append(board_page)
        headline = texts.turn_headline(_, state, names, bot_to_act)
        pips = state.board_for(0).pip_counts()
        lines = [
            *([said] if said else []),
            headline,
            _("Pips: {a} {x} · {b} {y}").format(a=names[0], x=pips[0], b=names[1], y=pips[1]),
            texts.score_line(_, state, names),
            *([texts.clock_line(_, info.clock.reserves, names)] if info.clock else []),
            texts.ids_line(state),
        ]
        view = BoardView.from_state(state)
        if info.clock is not None:
            view = replace(view, clocks=info.clock.reserves)
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
            kind=Public(Slot(f"board:{info.id}", strip_previous)),
            notices=notices,
            lead=said,
        )

    async def match_end(
        self,
        context: Context,
        loaded: LoadedMatch,
        last: LastPlay | None,
        replay: Message | None = None,
        strip_previous: bool = True,
        lead: Sequence[str] = (),
    ) -> list[Message]:
        """The end: what was played last, who won, the files and how to check the dice with
        them, and [Rematch]; the picture is the last game's replay when there is one (it ends
        on the final position), else the final board."""
        _ = context.for_chat  # everyone in the chat reads it
        state = loaded.state
        info = loaded.info
        players = await self._players(loaded)
        names = [player.display_name for player in players]
        winner = state.winner
        said = narration.line(lead)
        seed = await self.dice.reveal_seed(info.id)
        check_locale = self.pages.check_locale(context)
        files = await self.files.of(loaded, names, seed, check_locale)
        lines = [*([said] if said else []), texts.match_over(_, state, names)]
        rated = await self.ratings.rated_match(info.id)
        if rated is not None:
            by_id = {player.id: player.display_name for player in players}
            lines.append(rating_line(_, context.chat_locale, rated, by_id))
        lines += self.pages.check_lines(_, info, [file.filename for file in files])
        view = BoardView.from_state(state)
        animation = replay.animation if replay is not None else None
        image = None if animation else await self._draw(context, view, names, last, winner or 0)
        mention, notify = await self.attention.call(context, info.id, *players)
        notices = private_notices(
            players, notify, context.chat, lambda said: texts.match_over(said, state, names)
        )
        again = format_token(Token(Verb.REMATCH, "m", info.id, info.version))
        return [
            Message(
                context.request.chat,
                "\n".join(lines),
                (Button(_("Rematch"), again),),
                image=image,
                animation=animation,
                board=view,
                attachments=files,
                mention=mention,
                notify=notify,
                kind=Public(Slot(f"board:{info.id}", strip_previous)),
                notices=notices,
                lead=said,
            )
        ]


def without_boards(messages: list[Message]) -> list[Message]:
    """The sentences (and replays) of a presentation without its board: when another board
    follows at once (the bot's turn), only the last one is worth showing."""
    return [message for message in messages if message.slot is None]


def with_lead(message: Message, sentences: Sequence[str]) -> Message:
    """``message`` saying ``sentences`` first, in front of what its first line said."""
    said = narration.line([*sentences, message.lead])
    if not said or said == message.lead:
        return message
    body = message.text[len(message.lead) + 1 :] if message.lead else message.text
    return replace(message, text=f"{said}\n{body}", lead=said)


def followed_by(earlier: list[Message], later: list[Message]) -> list[Message]:
    """An answer (``earlier``) followed at once by another (``later``: the bot's turn after
    it): the boards of the first are left out, since only the last board is worth showing,
    but what they said goes in front of the first public message of the second."""
    carried = [message.lead for message in earlier if message.slot is not None and message.lead]
    kept = without_boards(earlier)
    for index, message in enumerate(later):
        if carried and message.private_to is None:
            return [*kept, *later[:index], with_lead(message, carried), *later[index + 1 :]]
    if carried and earlier:
        kept.append(Message(earlier[0].chat, narration.line(carried)))
    return kept + later
