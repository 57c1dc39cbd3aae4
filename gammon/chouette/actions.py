"""What chouette players do: the cube actions, and checker play wrapped with who made it.

Every action names the acting player (the caller's player id), so acting out of role can be
refused: only the box turns or answers the box's side of a cube, only a member their own.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from gammon.actions import Action


class Answer(enum.StrEnum):
    """The answer to a double; ``beaver`` (take and at once redouble, keeping the cube) only
    when the chouette plays beavers."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


@dataclass(frozen=True)
class BoxDoubles:
    """The box, before rolling, doubles the named members (some or all at once)."""

    player: str
    members: tuple[str, ...]
    kind: ClassVar[str] = "box_doubles"

    def __init__(self, player: str, members: Sequence[str]) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "members", tuple(members))


@dataclass(frozen=True)
class MemberAnswers:
    """A member answers the box's double on their own cube."""

    player: str
    answer: Answer
    kind: ClassVar[str] = "member_answers"

    def __post_init__(self) -> None:
        object.__setattr__(self, "answer", Answer(self.answer))


@dataclass(frozen=True)
class MemberDoubles:
    """A member, before the team rolls, doubles the box on their own cube."""

    player: str
    kind: ClassVar[str] = "member_doubles"


@dataclass(frozen=True)
class BoxAnswers:
    """The box answers one member's double."""

    player: str
    member: str
    answer: Answer
    kind: ClassVar[str] = "box_answers"

    def __post_init__(self) -> None:
        object.__setattr__(self, "answer", Answer(self.answer))


@dataclass(frozen=True)
class BoardAction:
    """Checker play on the one board: an :class:`~gammon.actions.OpeningRoll`,
    :class:`~gammon.actions.Roll`, :class:`~gammon.actions.Move` or
    :class:`~gammon.actions.CannotMove`, made by the box (board player 0) or the acting captain
    (board player 1)."""

    player: str
    action: Action
    kind: ClassVar[str] = "board"


ChouetteAction = BoxDoubles | MemberAnswers | MemberDoubles | BoxAnswers | BoardAction
