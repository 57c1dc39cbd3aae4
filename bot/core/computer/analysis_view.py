"""How a match analysis reads in a chat (and on the match's web page): a line of figures per
player, their largest errors numbered across both players (player 0's first), and a picture of
the match's flow whose markers carry the same numbers.

Each error names the moment before it by GNU Backgammon's Position ID and Match ID (dice,
score, cube and whose turn), so it can be pasted into gnubg or eXtreme Gammon. Nothing that
rounds to zero is shown: no "−0.000", no cube figures without a cube decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Final

from bot.core.text import texts
from bot.core.text.dice_names import roll_text
from bot.core.text.i18n import Speech
from bot.core.text.numbers import decimal, signed
from engine.api import AnalysedDecision, Chance, DecisionKind, MatchAnalysis, PlayerAnalysis
from rendering import ChartError, ChartLabels, draw_analysis_chart

EQUITY_DIGITS: Final = 3
_SHOWN: Final = 0.5 * 10**-EQUITY_DIGITS  # the smallest equity that does not print as 0.000


@dataclass(frozen=True)
class ListedError:
    """One of the errors the analysis names: ``number`` (1-based, across both players) is
    the marker's number in the picture too."""

    number: int
    decision: AnalysedDecision


def shown(equity: float) -> bool:
    """Whether ``equity`` prints as something other than 0.000."""
    return abs(equity) >= _SHOWN


def listed_errors(analysis: MatchAnalysis) -> tuple[tuple[ListedError, ...], ...]:
    """Each player's largest errors that are worth printing, numbered 1, 2, ... in the order
    the text lists them: player 0's, then player 1's."""
    numbered: list[tuple[ListedError, ...]] = []
    count = 0
    for player in analysis.players:
        errors = [error for error in player.largest_errors if shown(error.loss)]
        numbered.append(
            tuple(ListedError(count + index, error) for index, error in enumerate(errors, 1))
        )
        count += len(errors)
    return tuple(numbered)


def loss_text(_: Speech, loss: float) -> str:
    return "−" + decimal(_.locale, loss, EQUITY_DIGITS)


def decision_text(_: Speech, decision: AnalysedDecision) -> str:
    """What was played and what was best, without the IDs: "game 1, move 3, 6-1: played
    13/7 8/7, best 8/2* 6/2 (−0.040)"."""
    if decision.kind is DecisionKind.CHECKER and decision.dice is not None:
        return _("game {game}, move {move}, {roll}: played {played}, best {best} ({loss})").format(
            game=decision.game,
            move=decision.move,
            roll=roll_text(_.locale, decision.dice),
            played=decision.played,
            best=decision.best,
            loss=loss_text(_, decision.loss),
        )
    return _("game {game}, move {move}, cube: {played}, best {best} ({loss})").format(
        game=decision.game,
        move=decision.move,
        played=cube_word(_, decision.played),
        best=cube_word(_, decision.best),
        loss=loss_text(_, decision.loss),
    )


def ids_text(_: Speech, decision: AnalysedDecision) -> str:
    return _("Position ID {position}, Match ID {match}").format(
        position=decision.position_id, match=decision.match_id
    )


def cube_word(_: Speech, verdict: str) -> str:
    """A cube decision as the engine names it, in the reader's language."""
    words = {
        "double": _("double"),
        "no double": _("no double"),
        "take": _("take"),
        "pass": _("pass"),
        "beaver": _("beaver"),
    }
    return words.get(verdict, verdict)


def checker_figures(_: Speech, player: PlayerAnalysis) -> str | None:
    """The equity lost in checker play and over how many decisions; None without any."""
    count = player.checker_decisions
    if not count:
        return None
    if shown(player.checker_error):
        return _.ngettext(
            "checker play {loss} in {count} decision",
            "checker play {loss} in {count} decisions",
            count,
        ).format(loss=loss_text(_, player.checker_error), count=count)
    return _.ngettext(
        "checker play without error in {count} decision",
        "checker play without error in {count} decisions",
        count,
    ).format(count=count)


def cube_figures(_: Speech, player: PlayerAnalysis) -> str | None:
    """The equity lost in cube decisions and over how many; None without any."""
    count = player.cube_decisions
    if not count:
        return None
    if shown(player.cube_error):
        return _.ngettext(
            "cube {loss} in {count} decision", "cube {loss} in {count} decisions", count
        ).format(loss=loss_text(_, player.cube_error), count=count)
    return _.ngettext(
        "cube without error in {count} decision",
        "cube without error in {count} decisions",
        count,
    ).format(count=count)


def error_rate_text(_: Speech, player: PlayerAnalysis) -> str | None:
    if not player.checker_decisions + player.cube_decisions:
        return None
    return _("error rate {rate} (PR)").format(rate=decimal(_.locale, player.error_rate, 1))


def luck_text(_: Speech, player: PlayerAnalysis) -> str | None:
    if not shown(player.luck):
        return None
    return _("luck {luck}").format(luck=signed(_.locale, player.luck, EQUITY_DIGITS))


def player_figures(_: Speech, player: PlayerAnalysis) -> tuple[str, ...]:
    """The player's figures worth stating: error rate, checker play, cube, luck."""
    parts = (
        error_rate_text(_, player),
        checker_figures(_, player),
        cube_figures(_, player),
        luck_text(_, player),
    )
    return tuple(part for part in parts if part is not None) or (_("no decision to judge"),)


def _player_line(_: Speech, player: PlayerAnalysis) -> str:
    figures = " · ".join(player_figures(_, player))
    return _("{name}: {figures}").format(name=player.name, figures=figures)


def analysis_text(_: Speech, match_id: int, analysis: MatchAnalysis) -> str:
    lines = [
        _("Analysis of match {id} (level {level}):").format(
            id=match_id, level=texts.level_name(_, analysis.level.value)
        )
    ]
    for player, errors in zip(analysis.players, listed_errors(analysis), strict=True):
        lines.append(_player_line(_, player))
        lines += [
            f"  {error.number}. {decision_text(_, error.decision)}, {ids_text(_, error.decision)}"
            for error in errors
        ]
    lines.append(_("Error rate: the average equity lost per decision × 500; lower is better."))
    return "\n".join(lines)


def chance_axis(_: Speech, analysis: MatchAnalysis, name: str) -> str:
    """What the picture's line shows: the chance to win the match, or the game (money play,
    and analyses stored before match chances)."""
    if analysis.chance is Chance.MATCH:
        return _("{name}'s chance to win the match").format(name=name)
    return _("{name}'s chance to win the game").format(name=name)


def analysis_picture(_: Speech, match_id: int, analysis: MatchAnalysis) -> partial[bytes]:
    """The picture's drawing, for the painter's process: drawing it here would hold the
    event loop for tens of milliseconds."""
    decisions = analysis.decisions
    starts = [
        index
        for index, decision in enumerate(decisions)
        if index == 0 or decision.game != decisions[index - 1].game
    ]
    index_of = {decision: index for index, decision in enumerate(decisions)}
    errors = [
        ChartError(
            index_of.get(error.decision, -1),
            error.decision.player,
            error.decision.loss,
            error.number,
        )
        for player_errors in listed_errors(analysis)
        for error in player_errors
    ]
    names = (analysis.players[0].name, analysis.players[1].name)
    labels = ChartLabels(
        title=_("Match {id}: {first} vs {second}").format(
            id=match_id, first=names[0], second=names[1]
        ),
        y_axis=chance_axis(_, analysis, names[0]),
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
