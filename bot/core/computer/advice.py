"""Advice from the engine: ``/hint`` for the decision in front of a player, ``/analysis`` of a
finished match.

Hints are given in matches against the bot, and in matches between people only when the
challenge allowed them (``/challenge @bob hints``: accepting it is agreeing to it). They are for
the caller's own decision only, and answered to the caller alone where the platform allows.
Each player has one hint at a time and a few a minute (:mod:`bot.core.computer.hint_limits`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.core.computer.analyst import analysis_message
from bot.core.computer.computer import Computer
from bot.core.computer.hint_limits import HintLimits, HintRefusal, StillComputing
from bot.core.computer.hint_text import hint_text
from bot.core.context import Context
from bot.core.match.match_finder import MatchFinder, game_named
from bot.core.model import Message, Private
from bot.core.runtime.painter import Painter
from bot.core.runtime.time_source import TimeSource
from bot.core.text import texts
from bot.core.text.i18n import Speech
from engine.api import Level, Situation
from engine.levels import ANALYSIS_LEVELS
from engine.records import analysis_from_json
from gammon.flow import MatchState, Phase
from gammon.position import Variant
from storage import (
    AnalysisRepository,
    AnalysisStatus,
    MatchRepository,
)

HINT_LEVEL = Level.WORLD_CLASS
_MATCH_NUMBER = re.compile(r"#?([0-9]{1,9})")
_LEVEL_WORDS = {level.value: level for level in ANALYSIS_LEVELS} | {"worldclass": Level.WORLD_CLASS}
_FINISHED = (AnalysisStatus.DONE, AnalysisStatus.FAILED)


@dataclass(frozen=True)
class AdviceService:
    finder: MatchFinder
    matches: MatchRepository
    analyses: AnalysisRepository
    computer: Computer
    painter: Painter
    limits: HintLimits
    time: TimeSource

    async def hint(self, context: Context, argument: str) -> list[Message]:
        """The caller's decision in their match here or, in a private chat, in the match that
        waits for them (``/hint #12``: the one named)."""
        _ = context._
        wanted, _chouette, _rest = game_named(context, argument)  # a chouette has no hints
        _context, match_id = await self.finder.addressed(context, wanted)
        # Read already when the finder matched the command to it (in a group chat).
        loaded = context.found_matches.pop(match_id, None) or await self.matches.load_match(
            match_id
        )
        info, state = loaded.info, loaded.state
        if info.bot_level is None and not info.hints:
            return context.refuse(
                _(
                    "Hints are for matches against the bot (/play) and for matches whose "
                    "challenge allowed them (/challenge @bob hints)."
                )
            )
        if state.variant is Variant.LONG_NARDY:
            return context.refuse(_("Hints are for backgammon: no engine advises on long nardy."))
        seat = info.player_index(context.user.id)
        if seat is None or state.turn != seat:
            return context.refuse(_("Hints are for your own decision: wait until it is your turn."))
        refusal = _refusal(_, state, seat)
        if refusal is not None:
            return context.refuse(refusal)
        if state.phase is Phase.DOUBLED:  # the take: the doubler's cube action, answered
            situation = Situation.of(state, 1 - seat)
            dice = None
        else:
            situation = Situation.of(state, seat)
            dice = state.dice if state.phase is Phase.MOVING else None
        limited = self.limits.start(context.user.id)
        if limited is not None:
            return context.refuse(_limit_refusal(_, limited))
        try:
            advice = await self.computer.hint(situation, dice, HINT_LEVEL)
        finally:
            self.limits.finish(context.user.id)
        text = hint_text(_, advice, taker=state.phase is Phase.DOUBLED)
        return [Message(context.request.chat, text, kind=Private(context.request.actor.user_id))]

    async def analysis(self, context: Context, argument: str) -> list[Message]:
        """A finished match's analysis (``/analysis 12``; alone: the caller's last match), at
        the level it was made; ``/analysis 12 expert`` asks for the quick one (``world_class``
        for GNU Backgammon's depth again, or for a match analysed before it was the default),
        which is queued (the result posted when ready) unless it is there already."""
        _ = context._
        asked = _analysis_request(argument)
        if asked is None:
            return context.refuse(
                _(
                    "Which match? /analysis alone means your last one; or /analysis 12, "
                    "and /analysis 12 world_class for a deeper look."
                )
            )
        wanted, level = asked
        if wanted is not None:
            info = await self.finder.visible(context, wanted)
        else:
            info = await self.matches.latest_finished_for(context.chat.id, context.user.id)
        if info is None:
            return context.refuse(
                _("I know no finished match of yours with that number in this chat.")
                if wanted
                else _("You have no finished match in this chat yet.")
            )
        record = await self.analyses.get(info.id)
        if record is None:
            return context.refuse(
                _("Match {id} is not finished yet: it is analysed when it ends.").format(id=info.id)
            )
        if record.status in (AnalysisStatus.PENDING, AnalysisStatus.RUNNING):
            return context.refuse(
                _("Match {id} is being analysed; the result will be posted here.").format(
                    id=info.id
                )
            )
        if record.status is AnalysisStatus.SKIPPED:
            return context.refuse(
                _(
                    "Match {id} has no analysis: long nardy has no engine to analyse it, and "
                    "matches that ended before analyses existed were left out."
                ).format(id=info.id)
            )
        if (
            level is not None
            and level.value != record.level
            and record.status in _FINISHED
            and await self.analyses.deepen(info.id, level.value, self.time())
        ):
            return context.refuse(
                _(
                    "Match {id} is being analysed at the level {level}; the result will be "
                    "posted here."
                ).format(id=info.id, level=texts.level_name(_, level.value))
            )
        if record.status is AnalysisStatus.FAILED or record.result is None:
            return context.refuse(_("Match {id} could not be analysed.").format(id=info.id))
        analysis = analysis_from_json(record.result)
        chat = context.request.chat
        return [await analysis_message(self.painter, chat, context.chat_locale, info.id, analysis)]


def _analysis_request(argument: str) -> tuple[int | None, Level | None] | None:
    """The match number and level of ``/analysis [match] [level]`` (each ``None`` when left
    out); ``None`` when a word is neither."""
    number: int | None = None
    level: Level | None = None
    for word in argument.split():
        found = _MATCH_NUMBER.fullmatch(word)
        named = _LEVEL_WORDS.get(word.lower().replace("-", "_"))
        if found is not None and number is None:
            number = int(found.group(1))
        elif named is not None and level is None:
            level = named
        else:
            return None
    return number, level


def _limit_refusal(_: Speech, refusal: HintRefusal) -> str:
    if isinstance(refusal, StillComputing):
        return _("Your previous hint is still being computed: it comes in a moment.")
    return _.ngettext(
        "Hints are limited to {limit} a minute: ask again in {count} second.",
        "Hints are limited to {limit} a minute: ask again in {count} seconds.",
        refusal.seconds,
    ).format(limit=refusal.per_minute, count=refusal.seconds)


def _refusal(_: Speech, state: MatchState, seat: int) -> str | None:
    """Why there is nothing to advise on now, if so."""
    if state.phase is Phase.RESIGNING:
        return _("Answer the offer to resign first.")
    if state.phase is Phase.ROLLING and state.double_refusal(seat) is not None:
        return _("There is no cube decision before this roll: /roll, then ask again.")
    return None
