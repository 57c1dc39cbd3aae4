"""Matches in the Jellyfish ``.mat`` text format that GNU Backgammon and eXtreme Gammon import.

:func:`export_mat` writes a running or finished match or money session, row for row as GNU
Backgammon 1.07 lays its own out (:mod:`gammon.mat_layout`); :func:`read_mat` (and
:func:`import_mat`, without the names) reads such a file back into the actions that replay it:
our own export, and what GNU Backgammon, eXtreme Gammon and the servers write (see
:func:`read_mat` for the shapes). Opening re-rolls, resignation offers and rejected
resignations have no place in the format and are left out; everything that decides the board,
the cube and the score is kept.

Long nardy has no standard file format, so we use the same layout as our own extension:
``; [Variation "LongNardy"]``, the tags ``Mars``, ``LastRoll`` and ``SeriesStart`` for its
options, the same move syntax in each player's own numbering, the lot left out (like backgammon's
opening re-rolls), and a ``Draw`` line for a game drawn by the last roll.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from gammon import mat_layout as cells
from gammon.actions import Action, Beaver, CannotMove, Double, Move, OpeningRoll, Roll, Take
from gammon.flow import GameEnd, GameResult, MatchState, Phase, new_match, replay_states
from gammon.mat_import import (
    MatFormatError,
    MatLimitError,
    MatLimits,
    MatRecord,
    import_mat,
    read_mat,
)
from gammon.match_rules import MatchRules
from gammon.movegen import legal_plays
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


_VARIATIONS = {Variant.BACKGAMMON: "Backgammon", Variant.LONG_NARDY: "LongNardy"}


def _on_off(flag: bool) -> str:
    return "On" if flag else "Off"


def _header(names: Sequence[str], rules: MatchRules, event_date: str | None) -> list[str]:
    lines = ['; [Site "gammonbot"]']
    for number, name in enumerate(names, start=1):
        lines.append(f'; [Player {number} "{name}"]')
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
    elif rules.is_money:
        # eXtreme Gammon's tags; gnubg reads past them and plays by its own settings.
        lines += [f'; [Jacoby "{_on_off(rules.jacoby)}"]', f'; [Beaver "{_on_off(rules.beavers)}"]']
    else:
        lines.append('; [Crawford "On"]')
    return [*lines, "", f" {rules.length} point match", ""]


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
    """The match or money session so far as ``.mat`` text; ``names`` are players 0 and 1.
    ``states``: the state after each of its actions, when the caller has replayed them
    already (:func:`gammon.flow.replay_states`). Raises ``ValueError`` for a session with
    automatic doubles, which the format cannot show."""
    if state.rules.automatic_doubles:
        raise ValueError("the .mat format has no place for automatic doubles")
    if len(names) != 2:
        raise ValueError("a match has two player names")
    player_names = [_clean_name(name) for name in names]
    lines = _header(player_names, state.rules, event_date)
    after = replay_states(state.rules, state.actions) if states is None else states
    befores = [new_match(state.rules), *after][: len(after)]
    games = _GameRecords()
    for action, before, current in zip(state.actions, befores, after, strict=True):
        games.add(action, before, current)
    body = [
        f" Game {game.number}\n {f'{player_names[0]} : {game.score[0]}':<31}"
        f"{player_names[1]} : {game.score[1]}\n{cells.lay_out(game.records)}"
        for game in games.finish()
    ]
    return "\n".join(lines) + "\n" + "".join(body)


@dataclass
class _Game:
    number: int
    score: tuple[int, int]
    records: list[cells.Record] = field(default_factory=list)


class _GameRecords:
    """The actions as the records of each game: a roll joins its play; opening re-rolls,
    resignation offers and rejected resignations have no record."""

    def __init__(self) -> None:
        self.games: list[_Game] = []
        self.open = False  # the last game has not ended
        self.rolled: cells.Rolled | None = None  # dice not yet played

    def add(self, action: Action, before: MatchState, current: MatchState) -> None:
        if not self.open:
            self.games.append(_Game(before.game_number, before.score))
            self.open = True
        records = self.games[-1].records
        if isinstance(action, OpeningRoll):
            if current.phase is Phase.MOVING and current.dice is not None:
                self.rolled = cells.Rolled(current.player_on_roll, current.dice)
        elif isinstance(action, Roll):
            self.rolled = cells.Rolled(action.player, action.dice)
        elif isinstance(action, Move | CannotMove) and self.rolled is not None:
            play = action.play if isinstance(action, Move) else ""
            records.append(cells.Play(self.rolled.player, self.rolled.dice, play))
            self.rolled = None
        elif isinstance(action, Double):
            records.append(cells.Offer(action.player, before.cube_value * 2))
        elif isinstance(action, Beaver):
            records.append(cells.Offer(action.player, before.cube_value * 4, beaver=True))
        elif isinstance(action, Take):
            records.append(cells.Take(action.player))
        if len(current.games) > len(before.games):
            if self.rolled is not None and not _leaves_a_choice(before):
                self.rolled = None
            records.extend(self._end(current.games[-1]))
            self.open, self.rolled = False, None

    def _end(self, result: GameResult) -> list[cells.Record]:
        """A drop, a resignation (or forfeit) after any dice not played, or the line after
        the last play."""
        if result.winner is None:
            return [cells.Result(None, 0)]
        loser = 1 - result.winner
        if result.reason is GameEnd.DROP:
            return [cells.Drop(loser, result.points)]
        if result.reason in (GameEnd.RESIGN, GameEnd.FORFEIT, GameEnd.TIME_OUT):
            return [*self._unplayed(), cells.Resigned(loser, _stated_points(result))]
        return [cells.Result(result.winner, _stated_points(result))]

    def _unplayed(self) -> list[cells.Record]:
        return [self.rolled] if self.rolled is not None else []

    def finish(self) -> list[_Game]:
        if self.open:
            self.games[-1].records.extend(self._unplayed())
        return self.games


def _leaves_a_choice(state: MatchState) -> bool:
    """Whether the dice rolled before a resignation (or a forfeit) allow more than one play.
    Bare dice are a roll still to play only then: GNU Backgammon plays the only legal play of
    bare dice itself, which could even bear off the resigner's last checker, so the dice of a
    forced roll are left out, the resignation coming before the roll."""
    if state.dice is None:
        return False
    return len(legal_plays(state.position, state.dice)) != 1


def _stated_points(result: GameResult) -> int:
    """The points a "Wins" line states. After the last checker borne off, as gnubg writes
    them: the kind of win times the cube (readers score the game from the board, and gnubg
    applies the Jacoby rule there itself). After a resignation, the points it scored: gnubg
    reads them as the kind resigned and does not apply the Jacoby rule to a resignation,
    so a gammon resigned on a centred cube under that rule says one point, as we score it."""
    if result.reason is GameEnd.BEAR_OFF and result.kind is not None:
        return int(result.kind) * result.cube_value
    return result.points
