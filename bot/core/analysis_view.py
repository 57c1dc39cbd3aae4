"""How a match analysis reads in a chat: a few lines per player and a picture of the match's
flow (player 0's chance to win the game after every decision, the largest errors marked)."""

from __future__ import annotations

from functools import partial

from bot.core import texts
from bot.core.dice_names import roll_text
from bot.core.i18n import Speech
from bot.core.numbers import decimal, signed
from bot.core.painter import Drawing
from engine.api import AnalysedDecision, DecisionKind, MatchAnalysis, PlayerAnalysis
from rendering import ChartError, ChartLabels, draw_analysis_chart


def _decision_line(_: Speech, decision: AnalysedDecision) -> str:
    if decision.kind is DecisionKind.CHECKER and decision.dice is not None:
        roll = roll_text(_.locale, decision.dice)
        return _(
            "game {game}, move {move}, {roll}: played {played}, best {best} (−{loss}), "
            "Position ID {position}"
        ).format(
            game=decision.game,
            move=decision.move,
            roll=roll,
            played=decision.played,
            best=decision.best,
            loss=decimal(_.locale, decision.loss, 3),
            position=decision.position_id,
        )
    return _(
        "game {game}, move {move}, cube: {played}, best {best} (−{loss}), Position ID "
        "{position}, Match ID {match}"
    ).format(
        game=decision.game,
        move=decision.move,
        played=_cube_word(_, decision.played),
        best=_cube_word(_, decision.best),
        loss=decimal(_.locale, decision.loss, 3),
        position=decision.position_id,
        match=decision.match_id,
    )


def _cube_word(_: Speech, verdict: str) -> str:
    """A cube decision as the engine names it, in the reader's language."""
    words = {
        "double": _("double"),
        "no double": _("no double"),
        "take": _("take"),
        "pass": _("pass"),
        "beaver": _("beaver"),
    }
    return words.get(verdict, verdict)


def _player_lines(_: Speech, player: PlayerAnalysis) -> list[str]:
    lines = [
        _(
            "{name}: error rate {rate} (PR) · checker play −{checker} (decisions: {moves}) · "
            "cube −{cube} (decisions: {cubes}) · luck {luck}"
        ).format(
            name=player.name,
            rate=decimal(_.locale, player.error_rate, 1),
            checker=decimal(_.locale, player.checker_error, 3),
            moves=player.checker_decisions,
            cube=decimal(_.locale, player.cube_error, 3),
            cubes=player.cube_decisions,
            luck=signed(_.locale, player.luck, 3),
        )
    ]
    lines += [f"  • {_decision_line(_, error)}" for error in player.largest_errors]
    return lines


def analysis_text(_: Speech, match_id: int, analysis: MatchAnalysis) -> str:
    lines = [
        _("Analysis of match {id} (level {level}):").format(
            id=match_id, level=texts.level_name(_, analysis.level.value)
        )
    ]
    for player in analysis.players:
        lines += _player_lines(_, player)
    lines.append(_("Error rate: the average equity lost per decision × 500; lower is better."))
    return "\n".join(lines)


def analysis_picture(_: Speech, match_id: int, analysis: MatchAnalysis) -> Drawing:
    """The picture's drawing, for the painter's process: drawing it here would hold the
    event loop for tens of milliseconds."""
    decisions = analysis.decisions
    starts = [
        index
        for index, decision in enumerate(decisions)
        if index == 0 or decision.game != decisions[index - 1].game
    ]
    largest = {error for player in analysis.players for error in player.largest_errors}
    errors = [
        ChartError(index, decision.player, decision.loss)
        for index, decision in enumerate(decisions)
        if decision in largest
    ]
    names = (analysis.players[0].name, analysis.players[1].name)
    labels = ChartLabels(
        title=_("Match {id}: {first} vs {second}").format(
            id=match_id, first=names[0], second=names[1]
        ),
        y_axis=_("{name}'s chance to win the game").format(name=names[0]),
        x_axis=_("decisions"),
        game=_("Game {number}"),
    )
    return partial(
        draw_analysis_chart,
        [decision.win_chance for decision in decisions],
        starts,
        errors,
        names,
        labels,
    )
