"""Analyses of finished matches, in the background: the queue is in the database
(:class:`storage.AnalysisRepository`), the work in the engine's low-priority worker, and the
result is posted to the match's chat when ready. The level is the one the queue names (a
player may ask for another one, :meth:`storage.AnalysisRepository.deepen`), else the analysis
level (GNU Backgammon's depth, :data:`engine.levels.ANALYSIS_LEVEL`).

:meth:`Analyst.work` takes what is pending; the host calls it every few seconds. A restart
loses nothing: an analysis left running is put back in the queue at start.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.core.computer.analysis_view import analysis_picture, analysis_text
from bot.core.computer.computer import Computer
from bot.core.model import Attachment, ChatRef, Message
from bot.core.people import PlayerNames
from bot.core.runtime.painter import Painter
from bot.core.runtime.time_source import TimeSource
from bot.core.text.direction import directed
from bot.core.text.i18n import room_locale, speech
from engine.api import Level, MatchAnalysis
from engine.levels import analysis_level
from engine.records import analysis_from_json
from storage import AnalysisRepository, ChatRepository, MatchRepository

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Analyst:
    analyses: AnalysisRepository
    matches: MatchRepository
    chats: ChatRepository
    names: PlayerNames
    computer: Computer
    painter: Painter
    time: TimeSource

    async def start(self) -> None:
        """Put back in the queue what a stopped process left running."""
        reclaimed = await self.analyses.reclaim()
        if reclaimed:
            logger.info("%d interrupted analyses queued again", reclaimed)

    async def work(self) -> list[Message]:
        """Analyse what is pending; the messages that post the results."""
        messages: list[Message] = []
        for match_id in await self.analyses.pending():
            record = await self.analyses.get(match_id)
            level = analysis_level(record.level if record is not None else "")
            if not await self.analyses.claim(match_id, level.value):
                continue  # another worker took it
            try:
                analysis = await self._analyse(match_id, level)
            except Exception as error:
                logger.exception("analysing match %s failed", match_id)
                await self.analyses.fail(match_id, f"{type(error).__name__}: {error}", self.time())
                continue
            messages += await self.announce(match_id, analysis)
        return messages

    async def _analyse(self, match_id: int, level: Level) -> MatchAnalysis:
        loaded = await self.matches.load_match(match_id)
        players = await self.names.of(loaded)
        names = (players[0].display_name, players[1].display_name)
        history = await self.matches.history(match_id)
        result = await self.computer.analyse(loaded.info.rules, history, names, level)
        analysis = analysis_from_json(result)
        rates = (analysis.players[0].error_rate, analysis.players[1].error_rate)
        await self.analyses.store(match_id, result, self.time(), error_rates=rates)
        return analysis

    async def announce(self, match_id: int, analysis: MatchAnalysis) -> list[Message]:
        """The analysis as it is posted in the match's chat, in the chat's language."""
        info = await self.matches.match_info(match_id)
        chat = await self.chats.get_chat(info.chat_id)
        locale = room_locale(chat)
        where = ChatRef(chat.platform, chat.platform_chat_id, locale=locale)
        return [directed(await analysis_message(self.painter, where, locale, match_id, analysis))]


async def analysis_message(
    painter: Painter, where: ChatRef, locale: str, match_id: int, analysis: MatchAnalysis
) -> Message:
    """The text, the picture (drawn by the painter) and the text as a file to keep."""
    _ = speech(locale)
    text = analysis_text(_, match_id, analysis)
    return Message(
        where,
        text,
        image=await painter.paint(analysis_picture(_, match_id, analysis)),
        attachments=(Attachment(f"match-{match_id}-analysis.txt", text.encode()),),
        locale=locale,
    )
