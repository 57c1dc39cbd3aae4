"""Right-to-left texts (Arabic) mixed with left-to-right pieces: moves like ``13/10* 6/5``,
commands, names, links.

Chat clients lay out each line by its first strong character, and inside a right-to-left line
they reverse the order of neutral runs: ``13/10* 6/5`` would read ``6/5 *13/10``. So every line
of a right-to-left text starts with a right-to-left mark (U+200F) and every left-to-right run
is isolated (U+2066 … U+2069, Unicode's bidirectional isolates), which keeps it whole and in its
own order wherever the line puts it.

Brackets are left to the client's bidirectional algorithm, which pairs them and mirrors them
in right-to-left text, unless both brackets of a pair are inside one left-to-right run
(``[single|gammon|backgammon]``): a bracket isolated apart from its partner would keep its
left-to-right shape, so ``(72 س لكل نقلة)`` would show two opening brackets.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Final

from bot.core.model import Message
from bot.core.text.i18n import RIGHT_TO_LEFT
from bot.core.text.player_text import balanced

RIGHT_TO_LEFT_MARK: Final = "\u200f"
LEFT_TO_RIGHT_ISOLATE: Final = "\u2066"
POP_DIRECTIONAL_ISOLATE: Final = "\u2069"

# A run that starts with a Latin letter, a digit, a notation sign, a number's sign (−4.5,
# +0.412) or a file's dot (.mat) and goes on through notation, single spaces, a bar between
# alternatives or an operator between terms, and punctuation that belongs to it (13/10* 6/5,
# /move, bar/22, https://…, 4HPwATDgc/ABMA, time=24h, 1–0, /chouette join | leave,
# 1 / (10^(D·√N/2000) + 1)).
_START = r"(?:[A-Za-z0-9/*#@\[(]|[+\-−.](?=[A-Za-z0-9]))"
_PIECE = rf"{_START}[A-Za-z0-9/*#@+\-−_.,:;=|'’?&%~()\[\]…–·^√]*"
_LEFT_TO_RIGHT_RUN: Final = re.compile(rf"{_PIECE}(?: (?:[|+−/×] )?{_PIECE})*")
_LEFT_TO_RIGHT_CONTENT: Final = re.compile(r"[A-Za-z0-9/*#@]")
_PARTNER: Final = {")": "(", "]": "["}
_SENTENCE_END: Final = ".,;:…"


def isolate_left_to_right(line: str) -> str:
    """``line`` with each left-to-right run isolated and a right-to-left mark in front.

    >>> isolate_left_to_right("لعب 13/10* 6/5.") == "\u200fلعب \u206613/10* 6/5\u2069."
    True
    >>> isolate_left_to_right("مدة (72 س)") == "\u200fمدة (\u206672\u2069 س)"
    True
    """
    if not line or line.startswith(RIGHT_TO_LEFT_MARK):
        return line
    return RIGHT_TO_LEFT_MARK + _LEFT_TO_RIGHT_RUN.sub(_isolated, line)


def _isolated(run: re.Match[str]) -> str:
    """One run with its left-to-right pieces isolated: the run cut at each bracket whose
    partner lies outside it, a sentence's closing punctuation and spaces at a piece's ends
    left outside, with the sentence."""
    text = run.group(0)
    pieces = []
    start = 0
    for cut in _unpaired_brackets(text):
        pieces.append(_isolated_piece(text[start:cut]))
        pieces.append(text[cut])
        start = cut + 1
    pieces.append(_isolated_piece(text[start:]))
    return "".join(pieces)


def _isolated_piece(text: str) -> str:
    before = len(text) - len(text.lstrip(" "))
    core = text[before:].rstrip(" ").rstrip(_SENTENCE_END)
    if not _LEFT_TO_RIGHT_CONTENT.search(core):
        return text
    after = before + len(core)
    return f"{text[:before]}{LEFT_TO_RIGHT_ISOLATE}{core}{POP_DIRECTIONAL_ISOLATE}{text[after:]}"


def _unpaired_brackets(text: str) -> Iterator[int]:
    """Positions of the brackets in ``text`` without a partner in ``text``, in order (pairs as
    Unicode's algorithm makes them: a closing bracket takes the nearest open one of its kind,
    and the open brackets after that one stay unpaired)."""
    unpaired: set[int] = set()
    opened: list[int] = []
    for position, char in enumerate(text):
        if char in "([":
            opened.append(position)
        elif char in _PARTNER:
            kinds = [text[index] for index in opened]
            if _PARTNER[char] not in kinds:
                unpaired.add(position)
                continue
            depth = len(kinds) - 1 - kinds[::-1].index(_PARTNER[char])
            unpaired.update(opened[depth + 1 :])
            del opened[depth:]
    unpaired.update(opened)
    yield from sorted(unpaired)


def directed_text(text: str, locale: str | None) -> str:
    """The text as a chat client should lay it out in ``locale``'s direction (left-to-right
    languages keep their lines as they are; a line already marked stays as it is), with no
    bidirectional control left unpaired (:func:`bot.core.text.player_text.balanced`)."""
    text = balanced(text)
    if locale not in RIGHT_TO_LEFT:
        return text
    return "\n".join(isolate_left_to_right(line) for line in text.split("\n"))


def directed(message: Message) -> Message:
    """``message`` with its text laid out for its language's direction, every bidirectional
    control in it paired."""
    text = directed_text(message.text, message.locale)
    return message if text == message.text else replace(message, text=text)
