"""Matches in the Jellyfish ``.mat`` text format that GNU Backgammon and eXtreme Gammon import.

:func:`export_mat` writes a running or finished match; :func:`read_mat` (and :func:`import_mat`,
without the names) reads such a file back into the actions that replay it: our own export, and
what GNU Backgammon, eXtreme Gammon and the servers write (see :func:`read_mat` for the shapes).
Opening re-rolls and rejected resignations have no place in the format and are left out;
everything that decides the board, the cube and the score is kept.

Long nardy has no standard file format, so we use the same layout as our own extension:
``; [Variation "LongNardy"]``, the tags ``Mars``, ``LastRoll`` and ``SeriesStart`` for its
options, the same move syntax in each player's own numbering, the lot left out (like backgammon's
opening re-rolls), and a ``Draw`` line for a game drawn by the last roll.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from gammon.actions import (
    CannotMove,
    Double,
    Drop,
    Move,
    OpeningRoll,
    Roll,
    Take,
)
from gammon.flow import MatchState, Phase, new_match, replay_states
from gammon.mat_import import (
    MatFormatError,
    MatLimitError,
    MatLimits,
    MatRecord,
    import_mat,
    read_mat,
)
from gammon.mat_layout import LEFT_WIDTH, RIGHT_COLUMN
from gammon.match_rules import MatchRules
from gammon.position import Variant

__all__ = [
    "MatFormatError",
    "MatLimitError",
    "MatLimits",
    "MatRecord",
    "export_mat",
    "import_mat",
    "read_mat",
]


@dataclass(frozen=True)
class _Entry:
    player: int
    text: str


_VARIATIONS = {Variant.BACKGAMMON: "Backgammon", Variant.LONG_NARDY: "LongNardy"}


def _on_off(flag: bool) -> str:
    return "On" if flag else "Off"


def _header(names: Sequence[str], rules: MatchRules, event_date: str | None) -> list[str]:
    lines = ['; [Site "gammonbot"]']
    for number, name in enumerate(names, start=1):
        lines.append(f'; [Player {number} "{_clean_name(name)}"]')
    if event_date:
        lines.append(f'; [EventDate "{event_date}"]')
    lines.append(f'; [Variation "{_VARIATIONS[rules.variant]}"]')
    if rules.variant is Variant.LONG_NARDY:
        # Our own tags: no standard records long nardy, so the options travel with the file.
        lines += [
            '; [Crawford "Off"]',
            f'; [Mars "{_on_off(rules.mars)}"]',
            f'; [LastRoll "{_on_off(rules.last_roll)}"]',
            f'; [SeriesStart "{rules.series_start.capitalize()}"]',
        ]
    else:
        lines += ['; [Crawford "On"]', '; [Jacoby "Off"]']
    lines += ["", f" {rules.length} point match", ""]
    return lines


def _clean_name(name: str) -> str:
    cleaned = re.sub(r'[\s":]+', " ", name).strip()
    return cleaned or "Player"


def export_mat(
    state: MatchState,
    names: Sequence[str],
    *,
    event_date: str | None = None,
    states: Sequence[MatchState] | None = None,
) -> str:
    """The match so far as ``.mat`` text; ``names`` are players 0 and 1. ``states``: the
    state after each of its actions, when the caller has replayed them already
    (:func:`gammon.flow.replay_states`)."""
    if state.rules.is_money and state.variant is Variant.BACKGAMMON:
        raise ValueError("the .mat format holds matches; money sessions have no length")
    if len(names) != 2:
        raise ValueError("a match has two player names")
    player_names = [_clean_name(name) for name in names]
    lines = _header(player_names, state.rules, event_date)
    after = replay_states(state.rules, state.actions) if states is None else states
    befores = [new_match(state.rules), *after][: len(after)]
    game_lines: list[str] = []
    entries: list[_Entry] = []

    def close_game(result_line: str | None) -> None:
        game_lines.extend(_layout(entries))
        if result_line:
            game_lines.append(result_line)
        lines.extend(game_lines)
        lines.append("")

    for action, before, current in zip(state.actions, befores, after, strict=True):
        if not game_lines:
            score = before.score
            game_lines.append(f" Game {before.game_number}")
            left = f"{player_names[0]} : {score[0]}"
            game_lines.append(f" {left:<33}{player_names[1]} : {score[1]}")
        if isinstance(action, OpeningRoll):
            if current.phase is Phase.MOVING:
                entries.append(_Entry(current.player_on_roll, _dice_text(current.dice)))
        elif isinstance(action, Roll):
            entries.append(_Entry(action.player, _dice_text(action.dice)))
        elif isinstance(action, Move):
            entries[-1] = _Entry(action.player, f"{entries[-1].text} {action.play}")
        elif isinstance(action, CannotMove):
            pass  # the dice stand alone: "dd:"
        elif isinstance(action, Double):
            entries.append(_Entry(action.player, f" Doubles => {before.cube_value * 2}"))
        elif isinstance(action, Take):
            entries.append(_Entry(action.player, " Takes"))
        elif isinstance(action, Drop):
            entries.append(_Entry(action.player, " Drops"))
        if len(current.games) > len(before.games):
            close_game(_result_line(current))
            game_lines, entries = [], []
    if entries or game_lines:
        close_game(None)
    return "\n".join(lines).rstrip("\n") + "\n"


def _result_line(state: MatchState) -> str:
    result = state.games[-1]
    if result.winner is None:
        return "      Draw"
    plural = "s" if result.points != 1 else ""
    match_won = " and the match" if state.phase is Phase.FINISHED else ""
    indent = 6 if result.winner == 0 else RIGHT_COLUMN + 1
    return " " * indent + f"Wins {result.points} point{plural}{match_won}"


def _dice_text(dice: tuple[int, int] | None) -> str:
    assert dice is not None
    return f"{dice[0]}{dice[1]}:"


def _layout(entries: Sequence[_Entry]) -> list[str]:
    """Entries alternate between the players; player 0 on the left, player 1 on the right."""
    rows: list[list[str]] = []
    for entry in entries:
        if entry.player == 0 or not rows or rows[-1][1]:
            rows.append(["", ""])
        rows[-1][entry.player] = entry.text
    return [
        f"{number:3d}) {_left_cell(left)}{right}" if right else f"{number:3d}) {left}"
        for number, (left, right) in enumerate(rows, start=1)
    ]


def _left_cell(text: str) -> str:
    """The left cell padded to gnubg's width, always leaving two spaces before the right one."""
    return f"{text:<{LEFT_WIDTH}}" if len(text) <= LEFT_WIDTH - 2 else text + "  "
