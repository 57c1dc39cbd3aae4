"""Text for Telegram's HTML parse mode, with nothing in it that the bot did not mean as markup.

Every message is sent as HTML, so the whole text is escaped (a player's ``<b>`` or
``<a href=…>`` shows as typed); the bot's own links (a ``tg://user`` link that calls a
player) are added around the escaped text by :mod:`bot.telegram_app.outgoing`. Telegram also
turns each ``@username`` of a plain text into a mention that notifies that user: the bot calls
players only with its own links, so every ``@`` before a name gets a word joiner (U+2060,
invisible) that keeps the name from being read as a mention.
"""

from __future__ import annotations

import html
import re
from typing import Final

WORD_JOINER: Final = "\u2060"
_AT_A_NAME: Final = re.compile(r"@(?=[A-Za-z0-9_])")


def without_mentions(text: str) -> str:
    """``text`` with no ``@username`` that Telegram would make a mention of.

    >>> without_mentions("ask @bob, bob@example.org") == "ask @\u2060bob, bob@\u2060example.org"
    True
    """
    return _AT_A_NAME.sub("@" + WORD_JOINER, text)


def html_text(text: str) -> str:
    """Plain ``text`` as the body of an HTML message: escaped, and calling nobody.

    >>> html_text("<b>@admin</b> & co") == "&lt;b&gt;@\u2060admin&lt;/b&gt; &amp; co"
    True
    """
    return without_mentions(html.escape(text, quote=False))
