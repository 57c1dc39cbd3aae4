"""Walking through a match record, decision by decision, asking the engine about each.

See :mod:`engine.analysis` for what is judged and how.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.analysis_cube import CubeJudgement, double_equity, judge_answer, judge_double
from engine.api import (
    AnalysedDecision,
    CubeAdvice,
    CubeVerdict,
    DecisionKind,
    Level,
    Probabilities,
    Situation,
)
from engine.backgammon import roll_luck, winning_chance
from engine.backgammon_cube import cube_advice, evaluate
from engine.backgammon_deep import analysis_plays
from gammon.actions import Action, Beaver, CannotMove, Double, Drop, Move, OpeningRoll, Roll, Take
from gammon.flow import MatchState, Phase
from gammon.match_rules import MatchRules
from gammon.notation import parse_play

_ANSWERS = {Take: "take", Drop: "pass", Beaver: "beaver"}


@dataclass
class _Roll:
    """A roll waiting for its play: who rolled, its luck and its row in the .mat file."""

    player: int
    luck: float
    move: int


class _Rows:
    """The numbers of the .mat file's rows (its "move numbers"): a new row for each entry of
    player 0, and for player 1 unless the row has room on the right (see ``export_mat``)."""

    def __init__(self) -> None:
        self.game = 0
        self.rows = 0
        self.right = False

    def entry(self, game: int, player: int) -> int:
        if game != self.game:
            self.game, self.rows, self.right = game, 0, False
        if player == 0 or not self.rows or self.right:
            self.rows += 1
        self.right = player == 1
        return self.rows


class Walk:
    """The analysis so far, one action at a time: the decisions and each player's luck."""

    def __init__(
        self, level: Level, rules: MatchRules, progress: Callable[[], None] | None
    ) -> None:
        self.level = level
        self.beavers = rules.beavers and rules.is_money
        self.progress = progress
        self.decisions: list[AnalysedDecision] = []
        self.luck = [0.0, 0.0]
        self.rows = _Rows()
        self.roll: _Roll | None = None
        self.advice: CubeAdvice | None = None  # the doubler's, for the answer to the double
        self.doubler: Situation | None = None  # ... and the doubler's situation before it

    def step(self, before: MatchState, action: Action, after: MatchState) -> None:
        """Judge ``action``, which turned ``before`` into ``after``."""
        if isinstance(action, Double):
            move = self.rows.entry(before.game_number, action.player)
            self._cube_decision(before, doubled=True, move=move)
        elif isinstance(action, Roll):
            move = self.rows.entry(before.game_number, action.player)
            self._cube_decision(before, doubled=False, move=move)
            self._rolled(after, move, opening=False)
        elif isinstance(action, OpeningRoll) and after.phase is Phase.MOVING:
            move = self.rows.entry(after.game_number, after.player_on_roll)
            self._rolled(after, move, opening=True)
        elif isinstance(action, Move):
            self._checker_play(before, action)
        elif isinstance(action, CannotMove):
            self._dance(before, action.player)
        elif isinstance(action, Take | Drop | Beaver):
            self._answer(before, action)

    # --- the roll and the checker play ---------------------------------------------------------

    def _rolled(self, after: MatchState, move: int, *, opening: bool) -> None:
        assert after.dice is not None
        player = after.player_on_roll
        before = Situation.of(after, player)  # the dice aside, rolling changes nothing
        luck = roll_luck(before, after.dice, self.level, opening=opening)
        self.luck[player] += luck
        self.roll = _Roll(player, luck, move)

    def _checker_play(self, state: MatchState, action: Move) -> None:
        assert state.dice is not None
        player = state.player_on_roll
        situation = Situation.of(state, player)
        play = action.value or parse_play(action.play, state.position, state.dice)
        result_id = play.result.id()
        ranked, choices = analysis_plays(situation, state.dice, self.level, result_id)
        played = next((option for option in ranked if option.result_id == result_id), None)
        if played is None:
            raise ValueError(f"the engine did not rank the play {play} ({result_id})")
        best = ranked[0]
        chance = _chance(situation, played.equity, played.probabilities)
        # Forced only when the dice allow one play (gnubg's ``ml.cMoves > 1`` is unforced):
        # plays that all come to the same equity, as in a bear-off that wins whatever is
        # played, are still decisions.
        roll = self._take_roll(player)
        self._add(
            state,
            player,
            DecisionKind.CHECKER,
            played=played.notation,
            best=best.notation,
            loss=max(0.0, best.equity - played.equity),
            forced=choices == 1,
            luck=roll.luck,
            move=roll.move,
            win_chance=_for_player_0(chance, player),
        )

    def _dance(self, state: MatchState, player: int) -> None:
        """A roll that cannot be played: a forced decision (played and best are empty) that
        carries the roll's luck; the chances are the opponent's, who rolls next."""
        roll = self._take_roll(player)
        opponent = 1 - player
        situation = Situation.of(state, opponent)
        evaluation = evaluate(situation, self.level)
        chance = _chance(situation, evaluation.cubeful_equity, evaluation.probabilities)
        self._add(
            state,
            player,
            DecisionKind.CHECKER,
            played="",
            best="",
            loss=0.0,
            forced=True,
            luck=roll.luck,
            move=roll.move,
            win_chance=_for_player_0(chance, opponent),
        )

    def _take_roll(self, player: int) -> _Roll:
        roll, self.roll = self.roll, None
        assert roll is not None
        assert roll.player == player
        return roll

    # --- the cube -----------------------------------------------------------------------------

    def _cube_decision(self, state: MatchState, *, doubled: bool, move: int) -> None:
        player = state.player_on_roll
        if state.phase is not Phase.ROLLING or state.double_refusal(player) is not None:
            return
        situation = Situation.of(state, player)
        advice = cube_advice(situation, self.level)
        self.advice, self.doubler = advice, situation
        if advice.verdict is CubeVerdict.NO_CUBE:
            return
        judgement = judge_double(advice, doubled, self.beavers)
        equity = double_equity(advice, self.beavers) if doubled else advice.no_double
        chance = _chance(situation, equity, advice.evaluation.probabilities)
        self._cube(state, player, DecisionKind.DOUBLE, judgement, move, chance, player)

    def _answer(self, state: MatchState, action: Take | Drop | Beaver) -> None:
        advice, self.advice = self.advice, None
        situation, self.doubler = self.doubler, None
        if advice is None or situation is None:
            return  # a double the cube advice did not see (none in a valid record)
        judgement = judge_answer(advice, _ANSWERS[type(action)], self.beavers)
        move = self.rows.entry(state.game_number, action.player)
        if isinstance(action, Drop):  # the doubler has won the cube's points
            chance = _chance(situation, 1.0, Probabilities(1.0, 0.0, 0.0, 0.0, 0.0))
        else:
            chance = _chance(situation, advice.double_take, advice.evaluation.probabilities)
        doubler = state.player_on_roll
        self._cube(state, action.player, DecisionKind.TAKE, judgement, move, chance, doubler)

    def _cube(
        self,
        state: MatchState,
        player: int,
        kind: DecisionKind,
        judgement: CubeJudgement,
        move: int,
        chance: float,
        viewer: int,
    ) -> None:
        """A cube decision by ``player``; ``chance`` is ``viewer``'s chance to win after it."""
        self._add(
            state,
            player,
            kind,
            played=judgement.played,
            best=judgement.best,
            loss=judgement.loss,
            forced=not judgement.counted,
            luck=0.0,
            move=move,
            win_chance=_for_player_0(chance, viewer),
        )

    # --- recording ------------------------------------------------------------------------------

    def _add(
        self,
        state: MatchState,
        player: int,
        kind: DecisionKind,
        *,
        played: str,
        best: str,
        loss: float,
        forced: bool,
        luck: float,
        move: int,
        win_chance: float,
    ) -> None:
        """Record one decision. The IDs are gnubg's for the moment before it: the board of
        the player on roll with the Match ID (which says when a double waits for an answer),
        so the pair can be pasted into gnubg or ``gammonbot hint`` as it is."""
        self.decisions.append(
            AnalysedDecision(
                game=state.game_number,
                move=move,
                player=player,
                kind=kind,
                position_id=state.position.id(),
                match_id=state.match_id(),
                dice=state.dice,
                played=played,
                best=best,
                loss=loss,
                luck=luck,
                forced=forced,
                win_chance=win_chance,
            )
        )
        if self.progress is not None:
            self.progress()


def _chance(situation: Situation, equity: float, chances: Probabilities) -> float:
    """The decider's chance to win after a decision worth ``equity`` (cubeful, normalised to
    the cube of ``situation``) with the outcome ``chances``: in a match the match-winning
    chance, the equity taken through the match equity table as the engine converts it (so the
    score, the cube and Crawford count); in money play the cubeless chance to win the game."""
    if situation.is_money:
        return chances.win
    return min(1.0, max(0.0, winning_chance(situation, equity)))


def _for_player_0(chance: float, viewer: int) -> float:
    """Player 0's chance, from ``viewer``'s."""
    return chance if viewer == 0 else 1.0 - chance
