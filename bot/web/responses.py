"""What every page's answer shares: the page's language, and a page sent with its policy."""

from __future__ import annotations

import re

from aiohttp import web

from bot.core.text.i18n import LOCALES, first_locale
from bot.pages.page_text import PageText
from bot.pages.security import Page

_LANGUAGE = re.compile(r"([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*")


def page_response(page: Page) -> web.Response:
    return web.Response(
        text=page.html,
        content_type="text/html",
        charset="utf-8",
        headers={"Content-Security-Policy": page.csp, "Cache-Control": "no-cache"},
    )


def page_text(request: web.Request) -> PageText:
    """The page's language: ``?lang=``, else the browser's first language the bot speaks."""
    asked = request.query.get("lang", "")
    if asked in LOCALES:
        return PageText.for_locale(asked)
    for part in request.headers.get("Accept-Language", "").split(",")[:10]:
        found = _LANGUAGE.fullmatch(part.split(";")[0].strip())
        if found and found.group(1).lower() in LOCALES:
            return PageText.for_locale(found.group(1).lower())
    return PageText.for_locale(first_locale())
