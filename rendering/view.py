"""What a board picture shows, independent of how the match is stored.

A :class:`BoardView` is built from a match state (:meth:`BoardView.from_state`) or from GNU
Backgammon IDs (:meth:`BoardView.from_ids`); the renderer reads nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gammon import Match, Play, Position, Variant
from gammon.actions import OpeningRoll
from gammon.flow import MatchState, Phase
from gammon.match import GameState
from gammon.match_consistency import check_consistent
from gammon.notation import NotationSyntaxError, read_notation


@dataclass(frozen=True)
class LastPlay:
    """The play to highlight, one path per checker in the mover's own numbering: ``(start,
    end, hit points)`` with 25 for the bar and 0 for off; ``text`` is shown in the band."""

    mover: int
    paths: tuple[tuple[int, int, tuple[int, ...]], ...]
    text: str

    @classmethod
    def from_play(cls, play: Play, mover: int) -> LastPlay:
        hops = [(step.start, step.end, step.hit) for step in play.steps]
        return cls(mover, _joined(sorted(hops, key=lambda hop: -hop[0])), str(play))

    @classmethod
    def from_text(cls, text: str, mover: int, variant: Variant = Variant.BACKGAMMON) -> LastPlay:
        """From notation, without checking legality; ``*`` marks hits."""
        try:
            typed = read_notation(text, head_alias=variant is Variant.LONG_NARDY)
        except NotationSyntaxError as error:
            raise ValueError(f"cannot read the last play {text!r}: {error}") from None
        hit_points = _starred_points(text)
        hops = [(hop.start, hop.end, hop.end in hit_points) for hop in typed.hops]
        return cls(mover, _joined(hops), text.strip())


def _joined(hops: list[tuple[int, int, bool]]) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Chain hops that continue one another into one path per checker."""
    starts: list[int] = []
    ends: list[int] = []
    hits: list[tuple[int, ...]] = []
    for start, end, hit in hops:
        for index, path_end in enumerate(ends):
            if path_end == start and start != 0:
                ends[index] = end
                hits[index] += (end,) if hit else ()
                break
        else:
            starts.append(start)
            ends.append(end)
            hits.append((end,) if hit else ())
    return tuple(zip(starts, ends, hits, strict=True))


def _starred_points(text: str) -> set[int]:
    """Points marked as hit: the number right before each ``*``."""
    return {int(point) for point in re.findall(r"(\d{1,2})\s*\*", text)}


@dataclass(frozen=True)
class BoardView:
    """Everything one picture shows. ``sides[p]`` are player p's 26 counts in p's numbering.

    ``turn`` is who must act; ``on_roll`` whose ``dice`` these are. ``opening_dice`` are the
    one-die-each rolls of an opening (or of long nardy's lot), player 0's first. ``light`` is
    the player with the light checkers (White in long nardy).
    """

    variant: Variant
    sides: tuple[tuple[int, ...], tuple[int, ...]]
    turn: int | None = None
    on_roll: int | None = None
    dice: tuple[int, int] | None = None
    opening_dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    cube_visible: bool = True
    double_offered: bool = False
    score: tuple[int, int] = (0, 0)
    length: int = 0
    crawford: bool = False
    light: int = 0
    winner: int | None = None
    clocks: tuple[int, int] | None = None  # a match clock's reserves (ms), shown in the bands

    def pips(self) -> tuple[int, int]:
        return (_pips(self.sides[0]), _pips(self.sides[1]))

    @classmethod
    def from_state(cls, state: MatchState) -> BoardView:
        moving = state.phase is Phase.MOVING
        opening = _opening_dice(state, moving)
        return cls(
            variant=state.variant,
            sides=(state.board_for(0).player, state.board_for(1).player),
            turn=state.turn,
            on_roll=state.player_on_roll if moving else None,
            dice=state.dice if moving and opening is None else None,
            opening_dice=opening,
            cube_value=state.cube_value,
            cube_owner=state.cube_owner,
            cube_visible=state.rules.uses_cube and not state.crawford_game,
            double_offered=state.phase is Phase.DOUBLED,
            score=state.score,
            length=state.rules.length,
            crawford=state.crawford_game,
            light=state.white if state.white is not None else 0,
            winner=state.winner,
        )

    @classmethod
    def from_ids(
        cls,
        position_id: str,
        match_id: str | None = None,
        variant: Variant | str = Variant.BACKGAMMON,
    ) -> BoardView:
        """From a GNU Backgammon Position ID (and Match ID). Without a Match ID the side on
        roll is player 0, with no dice and a centred cube. A Match ID whose fields contradict
        each other is refused (``ValueError``), not drawn as a moment no match reaches."""
        kind = Variant(variant)
        position = Position.from_id(position_id, kind)
        match = check_consistent(Match.from_id(match_id)) if match_id else None
        on_roll = match.player_on_roll if match else 0
        sides = (
            (position.player, position.opponent)
            if on_roll == 0
            else (position.opponent, position.player)
        )
        if match is None:
            return cls(variant=kind, sides=sides, turn=0, cube_visible=kind is Variant.BACKGAMMON)
        return cls(
            variant=kind,
            sides=sides,
            turn=match.turn,
            on_roll=on_roll,
            dice=match.dice,
            cube_value=match.cube_value,
            cube_owner=match.cube_owner,
            cube_visible=kind is Variant.BACKGAMMON and not match.crawford,
            double_offered=match.double_offered,
            score=match.score,
            length=match.length,
            crawford=match.crawford,
            winner=None if match.game_state is not GameState.OVER else _leader(match),
        )


def _leader(match: Match) -> int | None:
    if match.score[0] == match.score[1]:
        return None
    return 0 if match.score[0] > match.score[1] else 1


def _pips(side: tuple[int, ...]) -> int:
    return sum(point * side[point] for point in range(1, 26))


def _opening_dice(state: MatchState, moving: bool) -> tuple[int, int] | None:
    """The dice of an opening roll waiting to be played, or None. A state read back from a
    snapshot carries no history, so without it the position tells: in backgammon the opening
    roll is the only roll played from the starting position, and never a double."""
    if state.actions:
        last = state.actions[-1]
        return last.dice if isinstance(last, OpeningRoll) else None
    dice = state.dice
    if not moving or dice is None or dice[0] == dice[1] or state.variant is not Variant.BACKGAMMON:
        return None
    return dice if state.position == Position.start() else None
