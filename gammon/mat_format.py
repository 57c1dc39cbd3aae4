"""Matches in the Jellyfish ``.mat`` text format that GNU Backgammon and eXtreme Gammon import.

:func:`export_mat` writes a running or finished match; :func:`import_mat` reads such a file
back into the actions that replay it. Opening re-rolls and rejected resignations have no place
in the format and are left out; everything that decides the board, the cube and the score is
kept.

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
    AcceptResignation,
    Action,
    CannotMove,
    Double,
    Drop,
    Move,
    OpeningRoll,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.flow import MatchState, Phase, apply, new_match
from gammon.match_rules import MatchRules
from gammon.position import Variant

_LEFT_WIDTH = 28  # as gnubg writes it: "%3d) %-28s" then the right cell
_RIGHT_COLUMN = 5 + _LEFT_WIDTH


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


def export_mat(state: MatchState, names: Sequence[str], *, event_date: str | None = None) -> str:
    """The match so far as ``.mat`` text; ``names`` are players 0 and 1."""
    if state.rules.is_money and state.variant is Variant.BACKGAMMON:
        raise ValueError("the .mat format holds matches; money sessions have no length")
    if len(names) != 2:
        raise ValueError("a match has two player names")
    player_names = [_clean_name(name) for name in names]
    lines = _header(player_names, state.rules, event_date)
    current = new_match(state.rules)
    game_lines: list[str] = []
    entries: list[_Entry] = []

    def close_game(result_line: str | None) -> None:
        game_lines.extend(_layout(entries))
        if result_line:
            game_lines.append(result_line)
        lines.extend(game_lines)
        lines.append("")

    for action in state.actions:
        before = current
        current = apply(current, action)
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
    indent = 6 if result.winner == 0 else _RIGHT_COLUMN + 1
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
    return f"{text:<{_LEFT_WIDTH}}" if len(text) <= _LEFT_WIDTH - 2 else text + "  "


class MatFormatError(ValueError):
    """The text is not a ``.mat`` file this reader understands."""


_LENGTH = re.compile(r"^\s*(\d+)\s+point match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
_MOVE_LINE = re.compile(r"^\s*(\d+)\)(.*)$")
_WINS = re.compile(r"^(\s*)Wins\s+(\d+)\s+points?", re.IGNORECASE)
_DICE = re.compile(r"^([1-6])([1-6]):\s*(.*)$")
_DOUBLES = re.compile(r"^Doubles\s*=>\s*(\d+)$", re.IGNORECASE)


_TAG = re.compile(r'^;\s*\[(\w+)\s+"([^"]*)"\]\s*$')
_DRAW = re.compile(r"^\s*Draw\s*$", re.IGNORECASE)


def import_mat(text: str) -> tuple[MatchRules, list[Action]]:
    """Read ``.mat`` text into match rules and the actions that replay it."""
    length: int | None = None
    tags: dict[str, str] = {}
    games: list[tuple[list[_Entry], tuple[int, int] | None]] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        tag = _TAG.match(line.strip())
        if tag:
            tags[tag.group(1).lower()] = tag.group(2)
            continue
        if not line.strip() or line.lstrip().startswith(";"):
            continue
        if length is None:
            found = _LENGTH.match(line)
            if not found:
                raise MatFormatError(f"expected ' N point match', found {line.strip()!r}")
            length = int(found.group(1))
            continue
        if _GAME.match(line):
            games.append(([], None))
            continue
        if not games:
            raise MatFormatError(f"text before the first game: {line.strip()!r}")
        entries, _win = games[-1]
        wins = _WINS.match(line)
        if wins:
            winner = 0 if len(wins.group(1)) < _RIGHT_COLUMN // 2 else 1
            games[-1] = (entries, (winner, int(wins.group(2))))
            continue
        if _DRAW.match(line):
            continue  # the replay of the last roll decides it
        move_line = _MOVE_LINE.match(line)
        if move_line:
            entries.extend(_cells(move_line.group(2)))
            continue
        if ":" in line and not entries:
            continue  # the score line under "Game N"
        raise MatFormatError(f"cannot read {line.strip()!r}")
    if length is None:
        raise MatFormatError("no ' N point match' line")
    rules = _rules_from(length, tags)
    actions: list[Action] = []
    state = new_match(rules)
    for entries, win in games:
        games_before = len(state.games)
        for action in _game_actions(
            entries, lot=state.phase is Phase.OPENING, variant=rules.variant
        ):
            state = _apply(state, action, actions)
            if state.phase is Phase.MOVING and not state.legal_plays():
                state = _apply(state, CannotMove(state.player_on_roll), actions)
        if win is not None and len(state.games) == games_before:
            winner, points = win
            level = WinKind(max(1, min(3, points // state.cube_value)))
            state = _apply(state, Resign(1 - winner, level), actions)
            state = _apply(state, AcceptResignation(winner), actions)
    return rules, actions


def _rules_from(length: int, tags: dict[str, str]) -> MatchRules:
    variation = tags.get("variation", "Backgammon").lower()
    try:
        if variation == "longnardy":
            return MatchRules(
                length=length,
                variant=Variant.LONG_NARDY,
                mars=tags.get("mars", "On").lower() == "on",
                last_roll=tags.get("lastroll", "Off").lower() == "on",
                series_start=tags.get("seriesstart", "Loser").lower(),
            )
        if variation != "backgammon":
            raise MatFormatError(f"unsupported variation {tags['variation']!r}")
        return MatchRules(length=length)
    except ValueError as error:
        raise MatFormatError(str(error)) from None


def _cells(content: str) -> list[_Entry]:
    """The one or two cells of a numbered line; a lone cell far to the right is player 1's."""
    body = content[1:] if content.startswith(" ") else content
    if not body.strip():
        return []
    if body.startswith("  "):
        return [_Entry(1, body.strip())]
    parts = re.split(r"\s{2,}", body.strip(), maxsplit=1)
    return [_Entry(player, part) for player, part in enumerate(parts)]


def _apply(state: MatchState, action: Action, actions: list[Action]) -> MatchState:
    try:
        after = apply(state, action)
    except ValueError as error:
        raise MatFormatError(f"{action}: {error}") from None
    actions.append(action)
    return after


def _game_actions(entries: Sequence[_Entry], *, lot: bool, variant: Variant) -> list[Action]:
    """The actions of one game. ``lot``: the game starts with an opening roll, which in
    backgammon is the first play's roll and in long nardy only decides who starts."""
    actions: list[Action] = []
    for entry in entries:
        dice = _DICE.match(entry.text)
        if dice:
            roll = (int(dice.group(1)), int(dice.group(2)))
            play = dice.group(3).strip()
            if lot and variant is Variant.BACKGAMMON:
                high, low = max(roll), min(roll)
                actions.append(OpeningRoll((high, low) if entry.player == 0 else (low, high)))
            else:
                if lot:
                    actions.append(OpeningRoll((2, 1) if entry.player == 0 else (1, 2)))
                actions.append(Roll(entry.player, roll))
            lot = False
            if play:
                actions.append(Move(entry.player, play))
            # Bare dice are a dance, or the last roll of a running match: the replay decides.
        elif _DOUBLES.match(entry.text):
            actions.append(Double(entry.player))
        elif entry.text.lower() == "takes":
            actions.append(Take(entry.player))
        elif entry.text.lower() == "drops":
            actions.append(Drop(entry.player))
        else:
            raise MatFormatError(f"cannot read {entry.text!r}")
    return actions
