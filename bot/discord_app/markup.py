"""Text for Discord, with nothing in it that the bot did not mean as markup.

Discord reads markdown in every message a bot sends: ``[Claim your prize](https://…)`` is a
link whose address is hidden, ``**``, ``__``, ``~~``, ``||`` and backticks format, ``<@id>``,
``<@&id>``, ``@everyone`` and ``@here`` are mentions, and a line starting with ``#``, ``-#``,
``>`` or ``-`` is a heading, small print, a quote or a list. The bot's own texts use none of it
(it calls players through the message's mentions, which :mod:`bot.discord_app.posting` puts in
front, and ``allowed_mentions`` lets only those ping), so the whole text of a message is
escaped, a player's part of it with the rest: each markdown character gets a backslash (which
Discord does not show), and each mention a zero-width space after its ``@``
(:func:`discord.utils.escape_mentions`). Web addresses are left whole, so the bot's links
still work: a player's address shows as the address it is (Discord reads no markdown inside
one).

(:func:`discord.utils.escape_markdown` alone is not enough: of several ``[text](url)`` on one
line it escapes only the first.)
"""

from __future__ import annotations

import re
from typing import Final

from discord.utils import escape_mentions

# A web address as Discord's client links it (the pattern discord.py copies from it): everything
# up to a space or a "<" is the address, markdown characters too, so it is left as it is.
_ADDRESS: Final = r"(?:https?|steam)://[^\s<]+[^<.,:;\"'\]\s]"
_MARKS: Final = "\\*_~|`[]<>"
_INLINE: Final = re.compile(rf"(?P<address>{_ADDRESS})|(?P<mark>[\\*_~|`\[\]<>])")
# What the client would still read as part of an address after where it ends for us: up to a
# space or a "<" (which the escaping turns into "\<", whose backslash the client would read
# as the address's too).
_ADDRESS_TAIL: Final = re.compile(r"[^\s<]*<?")
# What makes a line a heading, small print or a list item (a quote's ">" is escaped anywhere),
# after the spaces and direction marks a line may start with.
_LINE_START: Final = re.compile(r"^([ \t\u200e\u200f\u2066-\u2069]*)([#+-])", re.MULTILINE)


def escaped(text: str) -> str:
    """``text`` shown as it is written: no markdown, no mention, addresses whole.

    >>> print(escaped("[Claim](https://evil.example) <@123456789012345678> 13/10* 6/5*"))
    \\[Claim\\](https://evil.example) \\<@\u200b123456789012345678\\> 13/10\\* 6/5\\*
    >>> print(escaped("# big\\n-# small\\nsee https://g.example/m/a_b/verify."))
    \\# big
    \\-# small
    see https://g.example/m/a_b/verify.
    """
    inline = _INLINE.sub(_escaped_mark, text)
    return escape_mentions(_LINE_START.sub(r"\1\\\2", inline))


def _escaped_mark(found: re.Match[str]) -> str:
    address = found.group("address")
    if address is None:
        return "\\" + found.group("mark")
    # A markdown character the escaping will put a backslash before, right behind the
    # address: the client would take the backslash into its link and read the character
    # as markup. A space sets the address apart.
    tail = _ADDRESS_TAIL.match(found.string, found.end())
    if tail is not None and any(char in _MARKS for char in tail.group()):
        return address + " "
    return address


def clipped(text: str, limit: int) -> str:
    """Escaped ``text`` cut to ``limit`` characters with "…", never between a backslash and
    the character it escapes."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    backslashes = len(cut) - len(cut.rstrip("\\"))
    return (cut[:-1] if backslashes % 2 else cut) + "…"
