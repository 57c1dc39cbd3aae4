"""``gammonbot moves``: legal plays and play checking as JSON lines, for scripts and checks.

Each request line is ``{"position_id": ..., "dice": [d1, d2]}``, optionally with ``"text"``
and ``"variant"`` (``"backgammon"``, the default, or ``"long_nardy"``: then the Position ID
holds each side in its own numbering, the bar slot empty).
Each answer is one JSON line; a bad request is answered with an error and the tool carries on.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import IO, Any, Final

from gammon import (
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidNotationError,
    Position,
    Variant,
    legal_plays,
    parse_play,
)

MAX_LINE_BYTES: Final = 65_536
"""A request is about a hundred bytes; the cap keeps one runaway line from eating memory."""

_VARIANTS: Final = frozenset(kind.value for kind in Variant)

_ERROR_KINDS: tuple[tuple[type[ValueError], str], ...] = (
    (InvalidNotationError, "invalid"),
    (IllegalPlayError, "illegal"),
    (AmbiguousPlayError, "ambiguous"),
)


class _MalformedError(Exception):
    """The request cannot be read at all; the message says why and becomes the answer."""


@dataclass(frozen=True)
class _Request:
    position_id: str
    dice: tuple[int, int]
    text: str | None
    variant: str


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"error": {"kind": kind, "message": message}}


def answer(line: str | bytes) -> dict[str, Any]:
    """The answer to one request line (text, or raw bytes that should be UTF-8).

    Never raises for any input: whatever cannot be read is answered as ``malformed``, so a
    script talking to the tool always gets exactly one answer per line.
    """
    try:
        request = _read_request(line)
    except _MalformedError as problem:
        return _error("malformed", str(problem))
    return _answer_request(request)


def _read_request(line: str | bytes) -> _Request:
    """Check every field's type and range before the rules engine sees it."""
    fields = _json_object(_text_of(line))
    variant = fields.get("variant", Variant.BACKGAMMON.value)
    if not isinstance(variant, str) or variant not in _VARIANTS:
        known = ", ".join(kind.value for kind in Variant)
        raise _MalformedError(f"variant must be one of: {known}")
    position_id = fields.get("position_id")
    if not isinstance(position_id, str):
        raise _MalformedError("position_id must be a string (a GNU Backgammon Position ID)")
    dice = fields.get("dice")
    if not (
        isinstance(dice, list)
        and len(dice) == 2
        and all(type(die) is int and 1 <= die <= 6 for die in dice)
    ):
        raise _MalformedError("dice must be a list of two integers from 1 to 6, e.g. [3, 1]")
    text = fields.get("text")
    if text is not None and not isinstance(text, str):
        raise _MalformedError("text must be a string")
    return _Request(position_id, (dice[0], dice[1]), text, variant)


def _text_of(line: str | bytes) -> str:
    """The line as text without its line ending. Bytes are decoded strictly, so bad input
    is named instead of being passed on as replacement characters."""
    raw = line.encode("utf-8", "surrogatepass") if isinstance(line, str) else line
    raw = raw.rstrip(b"\r\n")
    if len(raw) > MAX_LINE_BYTES:
        raise _MalformedError(f"the line is longer than {MAX_LINE_BYTES} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _MalformedError(f"the line is not UTF-8 text: {error}") from None
    if not text.strip():
        raise _MalformedError("empty line: expected a JSON object")
    return text


def _json_object(text: str) -> dict[str, Any]:
    """The parsed request; nesting too deep for the parser counts as malformed JSON."""
    try:
        request = json.loads(text)
    except ValueError as error:
        raise _MalformedError(f"not a JSON object: {error}") from None
    except RecursionError:
        raise _MalformedError("not a JSON object: nested too deeply") from None
    if not isinstance(request, dict):
        raise _MalformedError("the request must be a JSON object")
    return request


def _answer_request(request: _Request) -> dict[str, Any]:
    try:
        position = Position.from_id(request.position_id, request.variant)
        if request.text is None:
            plays = legal_plays(position, request.dice)
            return {
                "plays": [{"play": str(play), "position_id": play.result.id()} for play in plays]
            }
        play = parse_play(request.text, position, request.dice)
    except ValueError as error:
        for error_type, kind in _ERROR_KINDS:
            if isinstance(error, error_type):
                return _error(kind, str(error))
        return _error("malformed", str(error))
    return {"play": str(play), "position_id": play.result.id()}


def request_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``stream`` as raw bytes, one at a time as they arrive.

    Decoding is left to :func:`answer`, so one undecodable line costs one error answer, not
    the tool. A line longer than :data:`MAX_LINE_BYTES` is handed on cut short (and answered
    as too long) while the rest of it is skipped, so memory stays bounded.
    """
    longest = MAX_LINE_BYTES + 2  # the longest request and its line ending, "\r\n"
    while line := stream.readline(longest):
        yield line
        if len(line) == longest and not line.endswith(b"\n"):
            _skip_rest_of_line(stream)


def _skip_rest_of_line(stream: IO[bytes]) -> None:
    while (chunk := stream.readline(MAX_LINE_BYTES)) and not chunk.endswith(b"\n"):
        pass


def serve(lines: Iterable[str | bytes], out: IO[str]) -> None:
    """Answer every line of ``lines`` on ``out``, one JSON line each, flushed at once."""
    encoding = getattr(out, "encoding", None) or "utf-8"
    for line in lines:
        out.write(json_line(answer(line), encoding) + "\n")
        out.flush()


def json_line(reply: dict[str, Any], encoding: str = "utf-8") -> str:
    """``reply`` as one JSON line, readable non-ASCII where ``encoding`` can carry it.

    A message may quote the request, and JSON lets a request hold a lone surrogate
    (``"\\ud800"``) that no encoding can write: such answers are escaped to ASCII instead.
    """
    text = json.dumps(reply, ensure_ascii=False)
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return json.dumps(reply)
    return text
