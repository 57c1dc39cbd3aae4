"""Independent checks of what a chat client would make of a message text: markup that would
render or call someone, and bidirectional controls left unpaired. Written from the platforms'
rules, not from the bot's escaping code, so the tests of that code can use them."""

from __future__ import annotations

import html
import re

from hypothesis import strategies as st

# Pieces that would do something if they reached a client as written.
TRICKS = (
    "[Claim your prize](https://evil.example)",
    "[x](<https://evil.example>)",
    "<@123456789012345678>",
    "<@!123456789012345678>",
    "<@&123456789012345678>",
    "<#123456789012345678>",
    "@everyone",
    "@here",
    "@admin_user",
    "**",
    "__",
    "~~",
    "||",
    "`",
    "```",
    "\\",
    "# ",
    "-# ",
    "> ",
    "- ",
    "\n",
    "https://g.example/a_b*c",
    "<b>",
    "</a>",
    '<a href="tg://user?id=1">',
    "&amp;",
    "\u202e",
    "\u202b",
    "\u202c",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
    "\u200f",
    "\u061c",
    "dlrow olleh",
    "عربي",
    " ",
    "7",
)
player_texts = st.one_of(
    st.text(max_size=60),
    st.lists(st.sampled_from(TRICKS), max_size=8).map("".join),
    st.lists(st.one_of(st.sampled_from(TRICKS), st.text(max_size=4)), max_size=6).map("".join),
)

_EMBEDDINGS = "\u202a\u202b\u202c\u202d\u202e"
_OPENERS = "\u2066\u2067\u2068"
_PARAGRAPHS = re.compile("\r\n|[\n\r\x1c\x1d\x1e\x85\u2029]")


def unpaired_bidi_controls(text: str) -> list[str]:
    """The paragraphs of ``text`` with an embedding or override (which the bot never means),
    an isolate left open, or a closing isolate without its opening one."""
    bad = []
    for paragraph in _PARAGRAPHS.split(text):
        depth = 0
        for char in paragraph:
            if char in _EMBEDDINGS:
                depth = -1_000
            elif char in _OPENERS:
                depth += 1
            elif char == "\u2069":
                depth -= 1
            if depth < 0:
                break
        if depth != 0:
            bad.append(paragraph)
    return bad


# Discord's automatic links (the pattern discord.py copies from the client).
_DISCORD_LINK = re.compile(r"(?:https?|steam)://[^\s<]+[^<.,:;\"'\]\s]")
_DISCORD_MARKS = set("[]<>*_~|`")


def live_discord_marks(content: str) -> list[str]:
    """What Discord would read as markup in ``content`` (a message's content after its
    intended mentions): a markdown character not escaped by a backslash and not part of an
    automatic link, a line starting with a heading, list or quote mark, @everyone or @here."""
    found = []
    line_start = True
    index = 0
    while index < len(content):
        char = content[index]
        link = _DISCORD_LINK.match(content, index)
        if link is not None:
            index, line_start = link.end(), False
            continue
        if char == "\\" and index + 1 < len(content):
            following = content[index + 1]
            if not (following.isascii() and (following.isalnum() or following.isspace())):
                index, line_start = index + 2, False
                continue
        if char in _DISCORD_MARKS or (line_start and char in "#->"):
            found.append(f"{char!r} at {index}")
        if char == "\n":
            line_start = True
        elif char not in " \t\u200e\u200f\u2066\u2067\u2068\u2069":
            line_start = False
        index += 1
    found += re.findall(r"@(?:everyone|here)", content)
    return found


def discord_shown(content: str) -> str:
    """The text Discord shows for ``content`` without links: each escape's backslash gone,
    zero-width spaces (which show as nothing) left out."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", content).replace("\u200b", "")


_TELEGRAM_MENTION = re.compile(r"@[A-Za-z0-9_]")


def telegram_problems(body: str, intended_links: int = 0) -> list[str]:
    """What Telegram would read as markup or a mention in an HTML message body: any tag but
    the bot's own ``tg://user`` links, or an ``@name`` in the text."""
    tags = re.findall(r"<[^>]*>", body)
    own = re.findall(r'<a href="tg://user\?id=\d+">', body)
    problems = [tag for tag in tags if tag != "</a>" and tag not in own]
    if len(own) != intended_links:
        problems.append(f"{len(own)} links, {intended_links} meant")
    text = html.unescape(re.sub(r"<[^>]*>", "", body))
    problems += _TELEGRAM_MENTION.findall(text)
    return problems
