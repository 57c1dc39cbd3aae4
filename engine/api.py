"""The engine's vocabulary: plain, picklable values that cross the process boundary.

Everything the rest of the bot knows about computer play is here. A :class:`Situation` is a
backgammon decision point seen from the player who decides (the player on roll: the one who
moves, or who may double; for a take decision it is still the doubler's view, because the cube
action is one analysis answered by both sides). Equities are from that player's view,
normalised to the cube (money: points per cube; match: EMG, equivalent money game).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gammon.flow import MatchState
from gammon.position import Position


class Level(enum.StrEnum):
    """How strongly the bot plays, from GNU Backgammon's presets' spirit: noise and depth."""

    BEGINNER = "beginner"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"
    WORLD_CLASS = "world_class"


DEFAULT_LEVEL = Level.EXPERT


class CubeOwner(enum.IntEnum):
    """Who owns the cube, seen from the deciding player."""

    CENTRED = 0
    DECIDER = 1
    OPPONENT = 2


@dataclass(frozen=True)
class Situation:
    """A backgammon position with everything that decides its equity.

    ``position`` is seen from the deciding player (their checkers are ``position.player``).
    ``away`` is the points each still needs (decider first); ``(0, 0)`` is money play.
    ``cube_enabled`` false means no doubling cube at all (cubeless play).
    """

    position: Position
    cube_value: int = 1
    cube_owner: CubeOwner = CubeOwner.CENTRED
    away: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beavers: bool = False
    cube_enabled: bool = True

    @property
    def is_money(self) -> bool:
        return self.away == (0, 0)

    @classmethod
    def of(cls, state: MatchState, player: int) -> Situation:
        """The situation of ``player`` in a backgammon match state (any phase)."""
        rules = state.rules
        if state.cube_owner is None:
            owner = CubeOwner.CENTRED
        else:
            owner = CubeOwner.DECIDER if state.cube_owner == player else CubeOwner.OPPONENT
        if rules.is_money:
            away = (0, 0)
        else:
            away = (
                rules.length - state.score[player],
                rules.length - state.score[1 - player],
            )
        return cls(
            position=state.board_for(player),
            cube_value=state.cube_value,
            cube_owner=owner,
            away=away,
            crawford=state.crawford_game,
            jacoby=rules.jacoby,
            beavers=rules.beavers,
            cube_enabled=rules.uses_cube,
        )


@dataclass(frozen=True)
class Probabilities:
    """Cubeless outcome chances for the deciding player, each 0..1; gammons include
    backgammons (GNU Backgammon's convention)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def lose(self) -> float:
        return 1.0 - self.win


@dataclass(frozen=True)
class Evaluation:
    """A position before the decider rolls: chances, cubeless and cubeful equity."""

    probabilities: Probabilities
    cubeless_equity: float
    cubeful_equity: float


@dataclass(frozen=True)
class RankedPlay:
    """One legal play with its equity after the move and how much worse than the best it is
    (``loss`` ≥ 0; 0 for the best). ``notation`` is gnubg's canonical notation of
    :func:`gammon.format_play`; ``result_id`` the Position ID after the play (from the side
    that moves next)."""

    notation: str
    result_id: str
    equity: float
    loss: float
    probabilities: Probabilities


class CubeVerdict(enum.StrEnum):
    """The proper cube action, as GNU Backgammon names it (:mod:`engine.cube_rule` decides)."""

    NO_DOUBLE = "no_double"  # no double, take (or beaver)
    DOUBLE_TAKE = "double_take"
    DOUBLE_PASS = "double_pass"
    DOUBLE_BEAVER = "double_beaver"
    TOO_GOOD_TAKE = "too_good_take"  # too good to double; a double would be taken
    TOO_GOOD_PASS = "too_good_pass"  # too good to double; a double would be passed
    NO_CUBE = "no_cube"  # the decider may not double now (Crawford, dead cube, owned, off)


@dataclass(frozen=True)
class CubeAdvice:
    """The cube action before the decider rolls, with the three cubeful equities (decider's
    view, normalised to the current cube): no double, double/take, double/pass (1.0 in money
    play); ``double_take`` is the take's (the cube turned, on the taker's side). ``double``:
    the decider should double; ``take``: the opponent should keep a double (take it, or beaver
    it); ``beaver``: the opponent should beaver (money play with beavers only)."""

    verdict: CubeVerdict
    no_double: float
    double_take: float
    double_pass: float
    double: bool
    take: bool
    beaver: bool
    evaluation: Evaluation


@dataclass(frozen=True)
class Decision:
    """What the bot does now. ``action`` is one of ``"roll"``, ``"double"``, ``"take"``,
    ``"drop"``, ``"beaver"``, ``"move"`` (``play`` holds the notation), ``"accept"`` or
    ``"reject"`` (a resignation offer)."""

    action: str
    play: str | None = None


class DecisionKind(enum.StrEnum):
    CHECKER = "checker"  # a checker play
    DOUBLE = "double"  # whether to double (before a roll)
    TAKE = "take"  # whether to take a double


@dataclass(frozen=True)
class AnalysedDecision:
    """One decision of a recorded match. ``loss`` is the equity it gave away (≥ 0, normalised
    to the cube: EMG in matches), ``luck`` (checker decisions only) the luck of the roll that
    preceded it, in the same unit. ``played`` and ``best`` are notation for checker plays and
    a verdict (``"double"``, ``"no double"``, ``"take"``, ``"pass"``, ``"beaver"``) for cube
    decisions. ``forced`` decisions count for neither the error rate nor the error totals:
    a roll with one legal play or none, and a no double that was not close (see
    :mod:`engine.analysis` for GNU Backgammon's definition the count follows).
    ``position_id``/``match_id`` show the moment before the decision from the deciding
    player's view."""

    game: int
    move: int  # the move number within the game, 1-based, as in the .mat file
    player: int
    kind: DecisionKind
    position_id: str
    match_id: str
    dice: tuple[int, int] | None
    played: str
    best: str
    loss: float
    luck: float
    forced: bool
    win_chance: float  # player 0's chance to win after the decision (see MatchAnalysis.chance)


@dataclass(frozen=True)
class PlayerAnalysis:
    """One player's figures: totals of equity lost, the error rate (PR: the mean loss per
    non-forced decision × 500, half of GNU Backgammon's error rate in mEMG), luck (the sum
    of each of their rolls' luck) and the three largest errors."""

    name: str
    checker_decisions: int
    checker_error: float
    cube_decisions: int
    cube_error: float
    error_rate: float
    luck: float
    largest_errors: tuple[AnalysedDecision, ...]


class Chance(enum.StrEnum):
    """What the decisions' ``win_chance`` measures: the match-winning chance in a match
    (the cubeful equity through the match equity table), the cubeless chance to win the game
    in money play (and in analyses made before matches had the former)."""

    MATCH = "match"
    GAME = "game"


@dataclass(frozen=True)
class MatchAnalysis:
    level: Level
    players: tuple[PlayerAnalysis, PlayerAnalysis]
    decisions: tuple[AnalysedDecision, ...]
    chance: Chance = Chance.MATCH


@dataclass(frozen=True)
class HintPlay:
    """One play: its notation (gnubg's canonical form), its equity after the move and the
    difference to the best play's equity (0 for the best, negative for the others)."""

    notation: str
    equity: float
    difference: float


@dataclass(frozen=True)
class CubeHint:
    """The cube action: the verdict, its name as gnubg writes it ("Double, take", "No
    redouble, take", ...) and the three cubeful equities from the doubler's view, normalised
    to the cube as it is (``double_take`` is the take's, as gnubg lists it; a beaver is worth
    twice that). ``take`` and ``beaver`` answer a double, also one already offered."""

    verdict: CubeVerdict
    action: str
    no_double: float
    double_take: float
    double_pass: float
    double: bool
    take: bool
    beaver: bool


@dataclass(frozen=True)
class Hint:
    """The plays for ``dice`` (empty when the roll cannot be played), or, without dice, the
    cube action. Plain values: a hint crosses from a worker process to the bot."""

    dice: tuple[int, int] | None
    plays: tuple[HintPlay, ...]
    cube: CubeHint | None

    @property
    def kind(self) -> str:
        return "cube" if self.dice is None else "plays"
