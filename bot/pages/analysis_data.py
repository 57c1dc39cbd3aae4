"""A stored match analysis as the match page shows it: the same sentences and numbering as the
analysis posted in the chat (:mod:`bot.core.computer.analysis_view`), in the page's language."""

from __future__ import annotations

from bot.core.computer.analysis_view import (
    chance_axis,
    decision_text,
    listed_errors,
    player_figures,
)
from bot.core.text import texts
from bot.pages.page_data import AnalysedError, AnalysedPlayer, AnalysisSummary
from bot.pages.page_text import PageText
from engine.api import MatchAnalysis


def analysis_summary(
    text: PageText, analysis: MatchAnalysis, chart_url: str | None
) -> AnalysisSummary:
    _ = text.speech
    players = tuple(
        AnalysedPlayer(
            name=player.name,
            figures=player_figures(_, player),
            errors=tuple(
                AnalysedError(
                    number=error.number,
                    description=decision_text(_, error.decision),
                    position_id=error.decision.position_id,
                    match_id=error.decision.match_id,
                )
                for error in errors
            ),
        )
        for player, errors in zip(analysis.players, listed_errors(analysis), strict=True)
    )
    return AnalysisSummary(
        level=texts.level_name(_, analysis.level.value),
        players=(players[0], players[1]),
        chart_url=chart_url,
        chart_text=chance_axis(_, analysis, analysis.players[0].name),
    )
