"""The match context around a position, as GNU Backgammon's Match ID carries it.

>>> match = Match.from_id('QYkqASAAIAAA')
>>> (match.length, match.score, match.cube_value, match.cube_owner, match.dice)
(9, (2, 4), 2, 0, (5, 2))
>>> match.id()
'QYkqASAAIAAA'
>>> Match.from_id('cAkAAAAAAAAA').is_money()
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from gammon._bits import decode_key, encode_key

_ID_BYTES: Final = 9
_ID_CHARS: Final = 12
_USED_BITS: Final = 67


class GameState(enum.IntEnum):
    """Where the current game stands (gnubg's game state field)."""

    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


class Resignation(enum.IntEnum):
    """A resignation on offer: the number of points the resigner offers per cube value."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


# (field, first bit, width) in gnubg's Match ID, bit 0 being the lowest bit of byte 0.
_LAYOUT: Final = (
    ("cube_log", 0, 4),
    ("cube_owner", 4, 2),
    ("player_on_roll", 6, 1),
    ("crawford", 7, 1),
    ("game_state", 8, 3),
    ("turn", 11, 1),
    ("double_offered", 12, 1),
    ("resignation", 13, 2),
    ("die1", 15, 3),
    ("die2", 18, 3),
    ("length", 21, 15),
    ("score0", 36, 15),
    ("score1", 51, 15),
    ("no_jacoby", 66, 1),
)
_CENTRED: Final = 3
_MAX_FIELD: Final = (1 << 15) - 1


@dataclass(frozen=True, slots=True)
class Match:
    """Cube, score and turn of a match; ``length`` 0 means money play (unlimited).

    ``player_on_roll`` owns the dice; ``turn`` is the player who must act now (they differ
    while a double or resignation waits for an answer). ``cube_owner`` is ``None`` when the
    cube is centred. ``dice`` is ``None`` until the player on roll has rolled. ``jacoby``
    is gnubg's Jacoby flag (bit 66, set when the rule is off): gnubg clears it for a money
    session with the Jacoby rule and sets it in matches, where the rule never applies; IDs
    written before gnubg had the bit read as ``True``. Each field is taken as it is, as
    gnubg's IDs carry it; whether they fit together is
    :func:`gammon.match_consistency.inconsistency`'s to say.
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    turn: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] | None = None
    jacoby: bool = True

    def __post_init__(self) -> None:
        value = self.cube_value
        if not isinstance(value, int) or value < 1 or value & (value - 1) or value > 1 << 15:
            raise ValueError(f"the cube shows a power of two from 1 to 32768, not {value!r}")
        if self.cube_owner not in (None, 0, 1):
            raise ValueError(f"cube_owner is None (centred), 0 or 1, not {self.cube_owner!r}")
        for name in ("player_on_roll", "turn"):
            if getattr(self, name) not in (0, 1):
                raise ValueError(f"{name} is 0 or 1, not {getattr(self, name)!r}")
        if not 0 <= self.length <= _MAX_FIELD:
            raise ValueError(f"match length out of range: {self.length}")
        if len(self.score) != 2 or not all(0 <= points <= _MAX_FIELD for points in self.score):
            raise ValueError(f"score out of range: {self.score}")
        if self.dice is not None and (
            len(self.dice) != 2 or not all(1 <= die <= 6 for die in self.dice)
        ):
            raise ValueError(f"dice are two numbers 1 to 6, or None: {self.dice!r}")
        object.__setattr__(self, "game_state", GameState(self.game_state))
        object.__setattr__(self, "resignation", Resignation(self.resignation))

    def is_money(self) -> bool:
        """True for unlimited (money) play."""
        return self.length == 0

    @classmethod
    def from_id(cls, match_id: str) -> Match:
        """Read a GNU Backgammon Match ID (12 characters)."""
        key = decode_key(match_id, _ID_BYTES, _ID_CHARS, "Match ID")
        if key >> _USED_BITS:
            raise ValueError(f"not a valid Match ID (unused bits set): {match_id!r}")
        fields = {name: (key >> first) & ((1 << width) - 1) for name, first, width in _LAYOUT}
        if fields["cube_owner"] == 2:
            raise ValueError(f"not a valid Match ID (cube owner 2): {match_id!r}")
        if fields["game_state"] > GameState.DROPPED:
            raise ValueError(
                f"not a valid Match ID (game state {fields['game_state']}): {match_id!r}"
            )
        die1, die2 = fields["die1"], fields["die2"]
        if (die1 == 0) != (die2 == 0) or die1 > 6 or die2 > 6:
            raise ValueError(f"not a valid Match ID (dice {die1}-{die2}): {match_id!r}")
        return cls(
            length=fields["length"],
            score=(fields["score0"], fields["score1"]),
            cube_value=1 << fields["cube_log"],
            cube_owner=None if fields["cube_owner"] == _CENTRED else fields["cube_owner"],
            player_on_roll=fields["player_on_roll"],
            turn=fields["turn"],
            crawford=bool(fields["crawford"]),
            game_state=GameState(fields["game_state"]),
            double_offered=bool(fields["double_offered"]),
            resignation=Resignation(fields["resignation"]),
            dice=(die1, die2) if die1 else None,
            jacoby=not fields["no_jacoby"],
        )

    def id(self) -> str:
        """The GNU Backgammon Match ID, exactly as gnubg writes it."""
        die1, die2 = self.dice if self.dice is not None else (0, 0)
        fields = {
            "cube_log": self.cube_value.bit_length() - 1,
            "cube_owner": _CENTRED if self.cube_owner is None else self.cube_owner,
            "player_on_roll": self.player_on_roll,
            "crawford": int(self.crawford),
            "game_state": int(self.game_state),
            "turn": self.turn,
            "double_offered": int(self.double_offered),
            "resignation": int(self.resignation),
            "die1": die1,
            "die2": die2,
            "length": self.length,
            "score0": self.score[0],
            "score1": self.score[1],
            "no_jacoby": int(not self.jacoby),
        }
        key = 0
        for name, first, _width in _LAYOUT:
            key |= fields[name] << first
        return encode_key(key, _ID_BYTES)
