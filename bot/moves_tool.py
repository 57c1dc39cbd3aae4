"""``gammonbot moves``: legal plays and play checking as JSON lines, for scripts and checks.

Each request line is ``{"position_id": ..., "dice": [d1, d2]}``, optionally with ``"text"``
and ``"variant"`` (``"backgammon"``, the default, or ``"long_nardy"``: then the Position ID
holds each side in its own numbering, the bar slot empty).
Each answer is one JSON line; a bad request is answered with an error and the tool carries on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from gammon import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidNotationError,
    Position,
    Variant,
    legal_plays,
    parse_play,
)

_ERROR_KINDS: tuple[tuple[type[ValueError], str], ...] = (
    (InvalidNotationError, "invalid"),
    (IllegalPlayError, "illegal"),
    (AmbiguousPlayError, "ambiguous"),
)


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"error": {"kind": kind, "message": message}}


def answer(line: str) -> dict[str, Any]:
    """The answer to one request line."""
    if not line.strip():
        return _error("malformed", "empty line: expected a JSON object")
    try:
        request = json.loads(line)
    except ValueError as error:
        return _error("malformed", f"not a JSON object: {error}")
    if not isinstance(request, dict):
        return _error("malformed", "the request must be a JSON object")
    position_id = request.get("position_id")
    dice = request.get("dice")
    text = request.get("text")
    variant = request.get("variant", Variant.BACKGAMMON.value)
    if variant not in {kind.value for kind in Variant}:
        known = ", ".join(kind.value for kind in Variant)
        return _error("malformed", f"variant must be one of: {known}")
    if not isinstance(position_id, str):
        return _error("malformed", "position_id must be a string (a GNU Backgammon Position ID)")
    if not isinstance(dice, list) or len(dice) != 2 or not all(type(die) is int for die in dice):
        return _error("malformed", "dice must be a list of two integers, e.g. [3, 1]")
    if text is not None and not isinstance(text, str):
        return _error("malformed", "text must be a string")
    try:
        position = Position.from_id(position_id, variant)
        roll = (dice[0], dice[1])
        if text is None:
            plays = legal_plays(position, roll)
            return {
                "plays": [{"play": str(play), "position_id": play.result.id()} for play in plays]
            }
        play = parse_play(text, position, roll)
    except ValueError as error:
        for error_type, kind in _ERROR_KINDS:
            if isinstance(error, error_type):
                return _error(kind, str(error))
        return _error("malformed", str(error))
    return {"play": str(play), "position_id": play.result.id()}


def serve(lines: Iterable[str], out: IO[str]) -> None:
    """Answer every line of ``lines`` on ``out``, one JSON line each, flushed at once."""
    for line in lines:
        out.write(json.dumps(answer(line), ensure_ascii=False) + "\n")
        out.flush()
