"""What players (and the dice) do in a match: plain, serialisable action values.

The full record of a match is its rules plus the list of these actions, dice included;
:func:`gammon.flow.replay` rebuilds any state from it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from gammon.play import Play


class WinKind(enum.IntEnum):
    """How a game is won; the value is the multiple of the cube it scores."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True)
class OpeningRoll:
    """One die each to decide who starts: ``dice[0]`` is player 0's, ``dice[1]`` player 1's."""

    dice: tuple[int, int]
    kind: ClassVar[str] = "opening_roll"


@dataclass(frozen=True)
class Roll:
    player: int
    dice: tuple[int, int]
    kind: ClassVar[str] = "roll"


@dataclass(frozen=True)
class Move:
    """A checker play in notation; recorded in gnubg's canonical form.

    ``value`` is the parsed play once the rules have read it (see :func:`gammon.flow.advance`),
    so nobody parses the recorded text again; it is not part of the stored record, and two
    moves are equal by their text alone."""

    player: int
    play: str
    value: Play | None = field(default=None, compare=False, repr=False, metadata={"stored": False})
    kind: ClassVar[str] = "move"


@dataclass(frozen=True)
class CannotMove:
    """The roll cannot be played at all; recorded automatically."""

    player: int
    kind: ClassVar[str] = "cannot_move"


@dataclass(frozen=True)
class Double:
    player: int
    kind: ClassVar[str] = "double"


@dataclass(frozen=True)
class Take:
    player: int
    kind: ClassVar[str] = "take"


@dataclass(frozen=True)
class Drop:
    player: int
    kind: ClassVar[str] = "drop"


@dataclass(frozen=True)
class Beaver:
    """Take and at once redouble, keeping the cube (money play, when enabled)."""

    player: int
    kind: ClassVar[str] = "beaver"


@dataclass(frozen=True)
class Resign:
    player: int
    level: WinKind
    kind: ClassVar[str] = "resign"


@dataclass(frozen=True)
class AcceptResignation:
    player: int
    kind: ClassVar[str] = "accept_resignation"


@dataclass(frozen=True)
class RejectResignation:
    player: int
    kind: ClassVar[str] = "reject_resignation"


@dataclass(frozen=True)
class ClaimWin:
    """The opponent ran out of time: ``player`` claims the match (a forfeit). Whether the time
    has run out is the caller's business; the rules only record the outcome."""

    player: int
    kind: ClassVar[str] = "claim_win"


@dataclass(frozen=True)
class TimeOut:
    """``player``'s clock ran out (:mod:`gammon.clock`). The rules decide what it means
    (WBGF § 4.3 iii): the match is lost, unless it was won for sure (:mod:`gammon.sure_win`)."""

    player: int
    kind: ClassVar[str] = "time_out"


Action = (
    OpeningRoll
    | Roll
    | Move
    | CannotMove
    | Double
    | Take
    | Drop
    | Beaver
    | Resign
    | AcceptResignation
    | RejectResignation
    | ClaimWin
    | TimeOut
)

ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        OpeningRoll,
        Roll,
        Move,
        CannotMove,
        Double,
        Take,
        Drop,
        Beaver,
        Resign,
        AcceptResignation,
        RejectResignation,
        ClaimWin,
        TimeOut,
    )
}


_FIELDS: dict[type[Action], tuple[str, ...]] = {
    cls: tuple(item.name for item in fields(cls) if item.metadata.get("stored", True))
    for cls in ACTION_TYPES.values()
}


def action_to_dict(action: Action) -> dict[str, Any]:
    """A JSON-ready dict: ``{"type": "move", "player": 0, "play": "8/5 6/5"}``."""
    data: dict[str, Any] = {"type": action.kind}
    for name in _FIELDS[type(action)]:
        value = getattr(action, name)
        if isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, enum.IntEnum):
            value = int(value)
        data[name] = value
    return data


def action_from_dict(data: dict[str, Any]) -> Action:
    """The inverse of :func:`action_to_dict`; raises ``ValueError`` on anything else."""
    cls = ACTION_TYPES.get(data.get("type")) if isinstance(data, dict) else None  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"not an action: {data!r}")
    values: dict[str, Any] = {}
    for name in _FIELDS[cls]:
        if name not in data:
            raise ValueError(f"{data['type']} needs {name!r}: {data!r}")
        value = data[name]
        if name == "player":
            if value not in (0, 1) or isinstance(value, bool):
                raise ValueError(f"player is 0 or 1: {data!r}")
        elif name == "dice":
            if not isinstance(value, list | tuple) or len(value) != 2:
                raise ValueError(f"dice are two numbers: {data!r}")
            value = (int(value[0]), int(value[1]))
        elif name == "level":
            value = WinKind(value)
        elif name == "play" and not isinstance(value, str):
            raise ValueError(f"play is text: {data!r}")
        values[name] = value
    return cls(**values)
