"""What the web pages may read of a match: the port the web server is given instead of the
core. Everything a page shows comes through here (the match by its secret address, its state,
games, analysis, dice check and .mat file, the pictures of its positions; a tournament's page,
read by :mod:`bot.core.info.tournament_page`), so the web server
imports no storage and reaches no repository; the pages read, they never write.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from bot.core.computer.analysis_view import analysis_picture
from bot.core.documents.dice_check import check_data
from bot.core.documents.match_files import MatchFiles
from bot.core.info.replays import ReplayFrames, ReplayPictures
from bot.core.info.tournament_page import TournamentPageReads
from bot.core.model import Attachment
from bot.core.people import PlayerNames
from bot.core.runtime.painter import Painter
from bot.core.text.i18n import Speech
from bot.pages.check_data import CheckData
from bot.pages.tournament_data import TournamentPageData
from engine.api import MatchAnalysis
from engine.records import analysis_from_json
from gammon.flow import MatchState
from gammon.position import Variant
from gammon.replay import GameReplay, ReplayFrame
from storage import (
    AnalysisRecord,
    AnalysisRepository,
    AnalysisStatus,
    DiceRepository,
    MatchInfo,
    MatchRepository,
    MatchStatus,
)

logger = logging.getLogger(__name__)


class AnalysisState(Enum):
    """Where a finished match's analysis stands, as a page tells it."""

    NONE = "none"  # never asked for
    UNDER_WAY = "under way"  # queued or running: the page says it is coming
    DONE = "done"
    NOT_MADE = "not made"  # failed, or skipped


@dataclass(frozen=True)
class PageMatch:
    """A match as the pages know it: found by its secret address. ``info`` is the core's own
    record of it, handed back to this port's methods and read by nobody else."""

    info: MatchInfo
    names: tuple[str, str]

    @property
    def number(self) -> int:
        return self.info.id

    @property
    def slug(self) -> str:
        return self.info.slug

    @property
    def version(self) -> int:
        return self.info.version

    @property
    def finished(self) -> bool:
        return self.info.status is not MatchStatus.ACTIVE

    @property
    def exported(self) -> bool:
        """Whether the match has a .mat file: every match but money backgammon's."""
        rules = self.info.rules
        return not (rules.is_money and rules.variant is Variant.BACKGAMMON)


@dataclass(frozen=True)
class PageAnalysis:
    state: AnalysisState
    analysis: MatchAnalysis | None  # when DONE and readable


class MatchPageReads:
    """The read model of the match pages (see the module's docstring); the composition root
    (:mod:`bot.core.bootstrap`) makes the one of a core, its host hands it to the web server."""

    def __init__(
        self,
        matches: MatchRepository,
        analyses: AnalysisRepository,
        dice: DiceRepository,
        names: PlayerNames,
        replay_frames: ReplayFrames,
        replay_pictures: ReplayPictures,
        painter: Painter,
        idle: Callable[[], bool],
        tournaments: TournamentPageReads,
    ) -> None:
        self._matches = matches
        self._analyses = analyses
        self._dice = dice
        self._names = names
        self._replay_frames = replay_frames
        self._replay_pictures = replay_pictures
        self._painter = painter
        self._files = MatchFiles(matches)
        self._tournaments = tournaments
        self.chats_idle = idle

    @property
    def pictures_enabled(self) -> bool:
        """Whether this bot draws pictures at all (the pages then show none)."""
        return self._replay_pictures.enabled

    async def find(self, slug: str) -> PageMatch | None:
        """The match at the secret address ``slug``, or None."""
        info = await self._matches.find_by_slug(slug)
        if info is None:
            return None
        players = await self._names.of_info(info)
        return PageMatch(info, (players[0].display_name, players[1].display_name))

    async def tournament_page(
        self, slug: str, speech: Speech, match_url: Callable[[str], str]
    ) -> TournamentPageData | None:
        """The page of the tournament at the secret address ``slug``, or None (see
        :meth:`TournamentPageReads.page`)."""
        return await self._tournaments.page(slug, speech, match_url)

    async def version_of(self, slug: str) -> tuple[int, int, bool] | None:
        """What a kept page depends on, read without the players: the match's number, its
        version and whether it has ended; None for an unknown address."""
        info = await self._matches.find_by_slug(slug)
        if info is None:
            return None
        return info.id, info.version, info.status is not MatchStatus.ACTIVE

    async def state(self, match: PageMatch) -> MatchState:
        return (await self._matches.load_match(match.number)).state

    async def analysis(self, match: PageMatch) -> PageAnalysis:
        return _page_analysis(await self._analyses.get(match.number), match.info)

    async def analysis_state(self, number: int) -> AnalysisState:
        record = await self._analyses.get(number)
        return _state(record)

    async def games(self, match: PageMatch) -> tuple[GameReplay, ...]:
        return await self._replay_frames.games(match.info)

    async def frame_picture(
        self, frame: ReplayFrame, names: tuple[str, str], speech: Speech
    ) -> bytes | None:
        """A replay frame's board, drawn aside (the chats' boards never wait behind it)."""
        return await self._replay_pictures.frame(frame, names, speech, aside=True)

    async def analysis_chart(self, match: PageMatch, speech: Speech) -> bytes | None:
        """The analysis chart's picture, or None without a finished analysis or pictures."""
        found = await self.analysis(match)
        if found.analysis is None or not self.pictures_enabled:
            return None
        drawing = analysis_picture(speech, match.number, found.analysis)
        return await self._painter.paint(drawing, aside=True)

    async def check_data(self, match: PageMatch) -> CheckData:
        """Everything the check page needs; the seed only once the match has ended."""
        info = match.info
        actions = await self._matches.history(info.id, info.version)
        seed = await self._dice.reveal_seed(info.id) if match.finished else None
        return await asyncio.to_thread(check_data, info, match.names, actions, seed)

    async def mat_file(self, match: PageMatch) -> Attachment | None:
        """The match as a .mat file, like ``/export``'s; None where there is none."""
        if not match.exported:
            return None
        loaded = await self._matches.load_match(match.number)
        return await self._files.mat(loaded, list(match.names))


def _state(record: AnalysisRecord | None) -> AnalysisState:
    if record is None:
        return AnalysisState.NONE
    if record.status in (AnalysisStatus.PENDING, AnalysisStatus.RUNNING):
        return AnalysisState.UNDER_WAY
    if record.status is AnalysisStatus.DONE:
        return AnalysisState.DONE
    return AnalysisState.NOT_MADE


def _page_analysis(record: AnalysisRecord | None, info: MatchInfo) -> PageAnalysis:
    """The analysis in ``record`` as a page shows it: a finished one only if it reads."""
    state = _state(record)
    if record is None or state is not AnalysisState.DONE or record.result is None:
        return PageAnalysis(state, None)
    try:
        return PageAnalysis(state, analysis_from_json(record.result))
    except ValueError:
        logger.warning("the stored analysis of match %s does not read", info.id)
        return PageAnalysis(state, None)
