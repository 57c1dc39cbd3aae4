"""Information: the board again, help, the rules, and a finished match's dice transcript and
.mat file (the caller's matches: :mod:`bot.core.match.match_list`)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core import registry
from bot.core.chouette.commands import ChouetteService
from bot.core.context import Context
from bot.core.info import rules_text
from bot.core.match.driver import MatchDriver
from bot.core.match.match_finder import MatchFinder, game_named
from bot.core.match.presenter import Presenter
from bot.core.model import Message, Private
from bot.core.people import PlayerNames
from bot.core.runtime.pictures import BoardPictures
from bot.core.runtime.time_source import TimeSource
from bot.core.text.fair_dice_text import challenge_details, match_details
from storage import (
    ChallengeRecord,
    ChallengeRepository,
    DiceRepository,
    LoadedMatch,
    MatchRepository,
)


@dataclass(frozen=True)
class InfoService:
    finder: MatchFinder
    driver: MatchDriver
    matches: MatchRepository
    challenges: ChallengeRepository
    dice: DiceRepository
    names: PlayerNames
    presenter: Presenter
    pictures: BoardPictures
    time: TimeSource
    chouettes: ChouetteService | None = None  # /verify at the chat's chouette

    async def board(self, context: Context, argument: str) -> list[Message]:
        """The board again, where it was asked for (in a private chat: the match that waits
        for the caller, or the one named, ``/board #12``). A match that waits for its opening
        roll is rolled first."""
        wanted, _chouette, _rest = game_named(context, argument)  # matches only
        in_match, match_id = await self.finder.addressed(context, wanted)
        resumed, loaded = await self.driver.current(in_match, match_id)
        if resumed and in_match is context:
            return resumed
        players = await self.names.of(loaded)
        board = await self.presenter.prompt(context, loaded, players, None)
        if context.request.chat.private:  # a look for the caller: nobody else is pinged
            board = replace(board, mention=(), notify=(), notices=())
        return [*resumed, board]

    async def help(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        lines = [_("gammonbot plays backgammon and long nardy in this chat.")]
        lines += [_(command.help) for command in registry.COMMANDS if command.help]
        text = "\n".join(lines)
        return [Message(context.request.chat, text, kind=Private(context.request.actor.user_id))]

    async def rules(self, context: Context, argument: str) -> list[Message]:
        _ = context._
        chapter = rules_text.find_chapter(argument or "overview")
        if chapter is None:
            topics = ", ".join(item.topic.replace(" ", "") for item in rules_text.CHAPTERS)
            return context.refuse(_("I know these chapters: {topics}").format(topics=topics))
        _ = context.for_chat  # the chapter is posted for everyone in the chat
        title = rules_text.chapter_title(_, chapter)
        text = f"{title}\n{rules_text.chapter_text(_, chapter)}"
        view = rules_text.chapter_view(chapter)
        image = None
        if view is not None:
            highlight = rules_text.chapter_highlight(chapter)
            image = await self.pictures.draw(context, view, [_("White"), _("Black")], highlight, 0)
        return [Message(context.request.chat, text, image=image, board=view)]

    async def _latest(self, context: Context) -> LoadedMatch | None:
        found = await self.matches.latest_match_for(context.chat.id, context.user.id)
        return await self.matches.load_match(found.id) if found else None

    async def verify(self, context: Context, _argument: str) -> list[Message]:
        """The fair dice of the caller's match here, told privately: while it is played the
        commitment in full and both client seeds, after its end also the server seed and the
        files to check every roll with; before it starts, the commitment of the caller's
        open challenge (or the one they may accept). The chat's chouette instead, when the
        caller plays no match here and the chouette has not ended, or ended after the
        caller's latest match."""
        _ = context._
        loaded = await self._latest(context)
        if loaded is None or loaded.info.status != "active":  # what comes next goes first
            offer = await self._open_challenge(context)
            if offer is not None:
                details = challenge_details(
                    _, offer.id, offer.dice_commitment or "", offer.bot_level is not None
                )
                return context.refuse(details)
            if self.chouettes is not None:
                chouette = await self.chouettes.verify(context, loaded.info if loaded else None)
                if chouette is not None:
                    return chouette
        if loaded is None:
            return context.refuse(_("You have no match in this chat. Start one with /challenge."))
        info = loaded.info
        players = await self.names.of(loaded)
        names = [player.display_name for player in players]
        if info.status == "active":
            text = match_details(_, info.id, info.dice_commitment, names, info.client_seeds, None)
            page = self.presenter.pages.live_check_line(_, info)
            return context.refuse(f"{text}\n{page}" if page else text)
        seed = await self.dice.reveal_seed(info.id)
        files = await self.presenter.files.of(
            loaded, names, seed, self.presenter.pages.check_locale(context, private=True)
        )
        sent = tuple(file for file in files if not file.filename.endswith(".mat"))
        lines = [
            match_details(_, info.id, info.dice_commitment, names, info.client_seeds, seed),
            *self.presenter.pages.check_lines(_, info, [file.filename for file in sent]),
        ]
        return [
            Message(
                context.request.chat,
                "\n".join(lines),
                attachments=sent,
                kind=Private(context.request.actor.user_id),
            )
        ]

    async def _open_challenge(self, context: Context) -> ChallengeRecord | None:
        """The newest open challenge here that the caller made or may accept."""
        now = self.time()
        found = [
            await self.challenges.open_challenge_from(context.chat.id, context.user.id, None, now),
            await self.challenges.open_challenge_for(context.chat.id, context.user.id, now),
        ]
        return max((offer for offer in found if offer), key=lambda offer: offer.id, default=None)

    async def export(self, context: Context, _argument: str) -> list[Message]:
        _ = context._
        loaded = await self._latest(context)
        if loaded is None:
            return context.refuse(_("You have no match in this chat. Start one with /challenge."))
        players = await self.names.of(loaded)
        files = [
            file
            for file in await self.presenter.files.of(
                loaded, [player.display_name for player in players], None
            )
            if file.filename.endswith(".mat")
        ]
        if not files:
            return context.refuse(_("Money games cannot be exported to a .mat file."))
        return [
            Message(
                context.request.chat,
                _("Match {id} for GNU Backgammon and eXtreme Gammon.").format(id=loaded.info.id),
                attachments=tuple(files),
                kind=Private(context.request.actor.user_id),
            )
        ]
