"""Backgammon notation: gnubg's canonical output and a forgiving reader.

Output (:func:`format_play`) is GNU Backgammon's form: moves sorted from the highest start
point, one checker's consecutive steps merged unless it hit on the way, ``*`` after every hit,
identical moves collapsed, ``bar`` and ``off`` spelled out.

>>> from gammon.position import Position
>>> from gammon.movegen import legal_plays
>>> sorted(str(play) for play in legal_plays(Position.start(), (6, 5)))[:3]
['13/2', '13/7 8/3', '13/8 13/7']
>>> str(parse_play('31: 8-5, 6-5', Position.start(), (3, 1)))
'8/5 6/5'
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gammon.position import BAR, OFF, Variant

if TYPE_CHECKING:
    from gammon.play import Play
    from gammon.position import Position

MAX_INPUT_LENGTH = 200
"""Longer input is refused without being read."""

_RawStep = tuple[int, int, int, bool]


def format_point(point: int) -> str:
    """``bar`` for 25, ``off`` for 0, else the number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def format_play(play: Play) -> str:
    """The canonical text of ``play``, e.g. ``13/7*/5 6/5`` or ``8/5(2) 6/5(2)``."""
    # Nothing is hit in long nardy, so no route needs naming for a hit it did not make.
    facing = play.start.facing() if play.start.variant is Variant.BACKGAMMON else None
    chains = _chains(play._raw_steps)
    chains.sort(key=lambda chain: (-chain[0][0], -chain[-1][1], chain[-1][3]))
    texts = [_format_chain(chain, facing) for chain in chains]
    parts: list[str] = []
    index = 0
    while index < len(texts):
        repeat = 1
        while index + repeat < len(texts) and texts[index + repeat] == texts[index]:
            repeat += 1
        parts.append(texts[index] + (f"({repeat})" if repeat > 1 else ""))
        index += repeat
    return " ".join(parts)


def _chains(raw_steps: Sequence[_RawStep]) -> list[list[_RawStep]]:
    """Join steps end to start, highest start first, into one path per checker."""
    chains: list[list[_RawStep]] = []
    for step in sorted(raw_steps, key=lambda raw: -raw[0]):
        for chain in chains:
            if chain[-1][1] == step[0] and step[0] != OFF:
                chain.append(step)
                break
        else:
            chains.append([step])
    return chains


def _format_chain(chain: list[_RawStep], facing: Sequence[int] | None) -> str:
    start = chain[0][0]
    explicit = False
    if facing is not None and len(chain) == 2 and chain[0][2] != chain[1][2]:
        # With two different dice the other order lands elsewhere; if a blot sits there, the
        # bare "24/13" would not say whether it was hit, so name the landing point.
        other_landing = start - chain[1][2]
        explicit = other_landing > 0 and facing[other_landing] == 1
    if chain[-1][1] == OFF and len(chain) > 1:
        # "6/off" for 6/5/off would read as one die bearing off; keep the steps visible.
        explicit = explicit or max(step[2] for step in chain) >= start
    text = format_point(start)
    for _start, end, _die, hit in chain[:-1]:
        if hit:
            text += f"/{format_point(end)}*"
        elif explicit:
            text += f"/{format_point(end)}"
    last = chain[-1]
    return text + f"/{format_point(last[1])}" + ("*" if last[3] else "")


@dataclass(frozen=True)
class Hop:
    """A typed move from ``start`` to ``end`` by one or more dice, landing nowhere named between."""

    start: int
    end: int


@dataclass(frozen=True)
class TypedPlay:
    """What the text says, before any rule is checked: hops in typed order, optional dice."""

    hops: tuple[Hop, ...]
    dice: tuple[int, int] | None


class NotationSyntaxError(Exception):
    """Raised by :func:`read_notation`; the parser turns it into ``InvalidNotationError``."""


_DICE_PREFIX = re.compile(r"^([1-6])\s*-?\s*([1-6])\s*:")
_GLUE_AROUND = re.compile(r"\s*([/\-(])\s*")
_GLUE_BEFORE = re.compile(r"\s+([*)])")
_POINT = r"(?:bar|b|off|o|head|h|\d{1,2})"
_MOVE = re.compile(rf"^(?P<path>{_POINT}\*?(?:[/-]{_POINT}\*?)*)(?:\((?P<count>\d{{1,2}})\))?$")
_LONE_POINT = re.compile(rf"^{_POINT}\*?$")
_NAMED_POINTS = {"bar": BAR, "b": BAR, "off": OFF, "o": OFF}
_HEAD_NAMES = {"head": 24, "h": 24}


def read_notation(text: str, *, head_alias: bool = False) -> TypedPlay:
    """Read the text into hops without looking at any position.

    With ``head_alias`` (long nardy) ``h`` and ``head`` stand for point 24.

    >>> read_notation('24/18/13').hops
    (Hop(start=24, end=18), Hop(start=18, end=13))
    >>> [(hop.start, hop.end) for hop in read_notation('b/22, 6-o').hops]
    [(25, 22), (6, 0)]
    """
    if len(text) > MAX_INPUT_LENGTH:
        raise NotationSyntaxError(f"input longer than {MAX_INPUT_LENGTH} characters")
    body = text.strip().lower()
    dice: tuple[int, int] | None = None
    prefix = _DICE_PREFIX.match(body)
    if prefix:
        dice = (int(prefix.group(1)), int(prefix.group(2)))
        body = body[prefix.end() :]
    body = body.replace(",", " ").replace(";", " ")
    body = _GLUE_BEFORE.sub(r"\1", _GLUE_AROUND.sub(r"\1", body))
    tokens = body.split()
    if not tokens:
        raise NotationSyntaxError("no move found")
    hops: list[Hop] = []
    lone: list[str] = []
    for token in tokens:
        if _LONE_POINT.match(token):
            lone.append(token)
            if len(lone) == 2:
                hops.extend(_hops_from_path(lone, 1, head_alias))
                lone = []
            continue
        if lone:
            raise NotationSyntaxError(f"{lone[0]!r} has no destination")
        match = _MOVE.match(token)
        if not match:
            raise NotationSyntaxError(f"cannot read {token!r}")
        count = int(match.group("count") or 1)
        if not 1 <= count <= 4:
            raise NotationSyntaxError(f"a move repeats 1 to 4 times, not {count}")
        hops.extend(_hops_from_path(re.split(r"[/-]", match.group("path")), count, head_alias))
    if lone:
        raise NotationSyntaxError(f"{lone[0]!r} has no destination")
    return TypedPlay(tuple(hops), dice)


def _hops_from_path(parts: list[str], count: int, head_alias: bool) -> list[Hop]:
    points = [_read_point(part.rstrip("*"), head_alias) for part in parts]
    if len(points) < 2:
        raise NotationSyntaxError(f"{parts[0]!r} has no destination")
    if points[0] == OFF:
        raise NotationSyntaxError("a move cannot start from 'off'")
    if OFF in points[1:-1]:
        raise NotationSyntaxError("'off' can only end a move")
    if BAR in points[1:]:
        raise NotationSyntaxError("'bar' can only start a move")
    hops = [Hop(start, end) for start, end in itertools.pairwise(points)]
    return hops * count


def _read_point(part: str, head_alias: bool) -> int:
    if part in _NAMED_POINTS:
        return _NAMED_POINTS[part]
    if part in _HEAD_NAMES:
        if not head_alias:
            raise NotationSyntaxError(f"{part!r} (the head) exists only in long nardy")
        return _HEAD_NAMES[part]
    if not part.isdigit():
        raise NotationSyntaxError(f"{part!r} is not a point")
    point = int(part)
    if point > BAR:
        raise NotationSyntaxError(
            f"there is no point {point}: points are 1 to 24, bar (25), off (0)"
        )
    return point


def parse_play(text: str, position: Position, dice: Sequence[int]) -> Play:
    """Match typed notation against the legal plays (see :mod:`gammon.play_parser`)."""
    from gammon.play_parser import match_play

    return match_play(text, position, dice)
