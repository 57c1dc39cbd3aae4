"""What plays by itself in a match: the opening roll, a roll when doubling is not possible (if
the player wants that), the only legal play (if wanted)."""

from __future__ import annotations

from gammon.actions import Action, Move, OpeningRoll, Roll
from gammon.flow import FollowUp, MatchState, Phase, Roller
from storage import UserRecord


def follow_up(players: tuple[UserRecord, UserRecord]) -> FollowUp:
    """What plays by itself in a state: opening rolls, a roll when doubling is not possible
    (if the player wants that), the only legal play (if wanted)."""

    def follow(state: MatchState, roller: Roller) -> Action | None:
        mover = state.player_on_roll
        if state.phase is Phase.OPENING:
            return OpeningRoll(roller(state.dice_events))
        if state.phase is Phase.ROLLING:
            if state.double_refusal(mover) is not None and players[mover].prefs.auto_roll:
                return Roll(mover, roller(state.dice_events))
        elif state.phase is Phase.MOVING and players[mover].prefs.auto_forced:
            plays = state.legal_plays()
            if len(plays) == 1:
                return Move(mover, str(plays[0]), plays[0])
        return None

    return follow
