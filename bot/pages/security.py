"""Content-Security-Policy by hash, and page data that cannot break out of its script block.

The pages must work when saved and opened from disk, so nothing is loaded from elsewhere:
script and style are inline, and the policy allows exactly those blocks by their SHA-256. The
same policy is put in a ``<meta http-equiv>`` tag so a saved file keeps it; ``frame-ancestors``
is ignored (with a console error) in a meta tag, so only the header value carries it.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from markupsafe import Markup


@dataclass(frozen=True)
class Page:
    """A rendered page: its HTML and the Content-Security-Policy header value to send with it."""

    html: str
    csp: str


def source_hash(content: str) -> str:
    """The CSP source expression allowing an inline block with exactly this content.

    >>> source_hash("")
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
    """
    digest = hashlib.sha256(content.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def meta_policy(
    *, scripts: Sequence[str], styles: Sequence[str], images: str, connect: str | None = None
) -> str:
    """The policy for the page's meta tag: nothing but the given inline blocks and images.

    ``images`` is the img-src value (``'self'`` for pictures the server sends, ``data:`` for
    the inline icon); ``connect`` the connect-src value of a page whose script talks to the
    server (the board's ``'self'``: its live stream and its actions), left out otherwise, so
    ``default-src 'none'`` forbids every fetch.

    >>> meta_policy(scripts=[], styles=[], images="data:", connect="'self'")[-38:]
    "form-action 'none'; connect-src 'self'"
    """
    script_src = " ".join(source_hash(script) for script in scripts) or "'none'"
    style_src = " ".join(source_hash(style) for style in styles) or "'none'"
    policy = (
        f"default-src 'none'; script-src {script_src}; style-src {style_src}; "
        f"img-src {images}; base-uri 'none'; form-action 'none'"
    )
    return policy if connect is None else f"{policy}; connect-src {connect}"


# Telegram's web client shows a Mini App (the board page) in a frame of its own page; the
# apps on phones and desktops use a web view, which frames nothing.
TELEGRAM_WEB = "https://web.telegram.org"


def header_policy(meta: str, framed_by: str = "'none'") -> str:
    """The header value: the meta policy, and which pages may frame ours (by default none:
    against clickjacking; the board page only Telegram's web client)."""
    return f"{meta}; frame-ancestors {framed_by}"


@cache
def asset(name: str) -> str:
    """An inline script or style from ``bot/pages/static``, read once."""
    return (files("bot.pages") / "static" / name).read_text(encoding="utf-8")


def script_json(value: object) -> Markup:
    """JSON for a ``<script type="application/json">`` block.

    ``<``, ``>`` and ``&`` are written as ``\\u003c`` etc., so no string (a player named
    ``</script>``, a ``<!--``) can end the block or change how the HTML parser reads it;
    ``JSON.parse`` turns them back into the same characters.

    >>> str(script_json({"name": "</script><b>&"}))
    '{"name":"\\\\u003c/script\\\\u003e\\\\u003cb\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)
