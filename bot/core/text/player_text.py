"""Text a player wrote, repeated in the bot's messages: a seed, an option word, a name typed
after a command.

Such text may carry Unicode's bidirectional controls: an unclosed right-to-left override
(U+202E) turns the rest of its line around, so ``/seed ‮dlrow olleh`` repeated in a sentence
would make everything after it read backwards. Three steps keep that out:

- what a request brings is read without controls (:func:`without_bidi_controls`, at the
  core's door), so a typed name is looked up as it is shown;
- every repetition of a player's text is isolated (:func:`isolated`: U+2068 … U+2069), so
  right-to-left letters in it cannot reorder the sentence around it either;
- every text that leaves the core is balanced once more (:func:`balanced`): no embedding or
  override at all (the bot writes none), no isolate left open past its line. This also
  covers text stored before these rules (an old match's seed).

Markup is each platform's own: the adapters escape the whole text of a message (Discord's
markdown and mentions, Telegram's HTML and @usernames), not only a player's part of it.
"""

from __future__ import annotations

import re
from typing import Final

FIRST_STRONG_ISOLATE: Final = "\u2068"
POP_DIRECTIONAL_ISOLATE: Final = "\u2069"
_EMBEDDINGS: Final = "\u202a\u202b\u202c\u202d\u202e"  # LRE RLE PDF LRO RLO
_ISOLATES: Final = "\u2066\u2067\u2068"  # LRI RLI FSI, each closed by PDI (U+2069)
_MARKS: Final = "\u200e\u200f\u061c"  # LRM RLM ALM
BIDI_CONTROLS: Final = frozenset(_EMBEDDINGS + _ISOLATES + POP_DIRECTIONAL_ISOLATE + _MARKS)
_REMOVED: Final = {ord(char): None for char in BIDI_CONTROLS}
_ANY_ISOLATE_OR_EMBEDDING: Final = re.compile(f"[{_EMBEDDINGS}{_ISOLATES}\u2069]")
# Where Unicode's algorithm ends a paragraph, and with it every embedding and isolate.
_PARAGRAPH_END: Final = re.compile("(\r\n|[\n\r\x1c\x1d\x1e\x85\u2029])")


def without_bidi_controls(text: str) -> str:
    """``text`` without any bidirectional control (embeddings, overrides, isolates, marks).

    >>> without_bidi_controls("\u202edlrow olleh")
    'dlrow olleh'
    """
    return text.translate(_REMOVED)


def isolated(text: str) -> str:
    """A player's text as a sentence repeats it: without controls of its own, in one isolate
    (empty text stays empty).

    >>> isolated("a\u202eb") == "\u2068ab\u2069"
    True
    """
    kept = without_bidi_controls(text)
    return f"{FIRST_STRONG_ISOLATE}{kept}{POP_DIRECTIONAL_ISOLATE}" if kept else kept


def balanced(text: str) -> str:
    """``text`` with no embedding or override, each closing isolate paired with an opening
    one before it in its paragraph, and each isolate left open closed at its paragraph's end.
    The bot's own isolates (:mod:`bot.core.text.direction`, :func:`isolated`) are paired already
    and stay as they are.

    >>> balanced("x\u2069 \u2068y\u202e z\\nw") == "x \u2068y z\u2069\\nw"
    True
    """
    if not _ANY_ISOLATE_OR_EMBEDDING.search(text):
        return text
    return "".join(
        part if index % 2 else _balanced_paragraph(part)
        for index, part in enumerate(_PARAGRAPH_END.split(text))
    )


def _balanced_paragraph(text: str) -> str:
    kept = []
    open_isolates = 0
    for char in text:
        if char in _EMBEDDINGS:
            continue
        if char in _ISOLATES:
            open_isolates += 1
        elif char == POP_DIRECTIONAL_ISOLATE:
            if not open_isolates:
                continue
            open_isolates -= 1
        kept.append(char)
    return "".join(kept) + POP_DIRECTIONAL_ISOLATE * open_isolates
