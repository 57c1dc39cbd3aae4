"""Why a chouette action or table change is refused: stable codes, like :mod:`gammon.flow`'s."""

from __future__ import annotations

import enum

from gammon.flow import ActionError, Refusal


class ChouetteRefusal(enum.StrEnum):
    """The chouette's own refusal codes (a board refusal keeps :class:`gammon.flow.Refusal`)."""

    # Seating and the table between games.
    TOO_FEW_PLAYERS = "too_few_players"
    TABLE_FULL = "table_full"
    ALREADY_SEATED = "already_seated"
    NOT_SEATED = "not_seated"
    INVALID_PLAYER = "invalid_player"
    TIE_UNRESOLVED = "tie_unresolved"
    INVALID_DICE = "invalid_dice"
    # Acting in a game.
    GAME_OVER = "game_over"
    NOT_FINISHED = "not_finished"
    NOT_IN_TEAM = "not_in_team"  # the named player is not a team member in this game
    OUT_OF_ROLE = "out_of_role"  # e.g. a member doubling for the box, or a non-captain rolling
    NOT_YOUR_TURN = "not_your_turn"
    OPENING_ROLL_FIRST = "opening_roll_first"
    ALREADY_ROLLED = "already_rolled"
    ALREADY_DOUBLED = "already_doubled"  # the box doubles once per turn
    ALREADY_DROPPED = "already_dropped"  # that member's cube is out of this game
    NOT_CUBE_OWNER = "not_cube_owner"
    DOUBLE_PENDING = "double_pending"
    NO_DOUBLE_PENDING = "no_double_pending"
    INVALID_MEMBERS = "invalid_members"  # none named, or a name twice
    BEAVER_DISABLED = "beaver_disabled"
    UNSUPPORTED_ACTION = "unsupported_action"
    NOT_ZERO_SUM = "not_zero_sum"


class ChouetteError(ValueError):
    """A refused chouette action. ``reason`` is a :class:`ChouetteRefusal`, or the board's
    :class:`gammon.flow.Refusal` (then ``board_error`` is the board's :class:`ActionError`)."""

    def __init__(self, reason: str, message: str, board_error: ActionError | None = None) -> None:
        super().__init__(message)
        self.reason: ChouetteRefusal | Refusal = (
            board_error.reason if board_error is not None else ChouetteRefusal(reason)
        )
        self.board_error = board_error


def board_refusal(error: ActionError) -> ChouetteError:
    """The board's refusal, as a chouette refusal with the board's code."""
    return ChouetteError(error.reason, str(error), board_error=error)
