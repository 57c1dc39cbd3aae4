"""The board page's routes: ``/m/<slug>/play`` (the page), ``/play/live`` (its stream),
``/play/state`` (the state once), ``/play/hello`` (who the viewer is) and ``/play/act`` (a
player's action). See ``docs/board-page.md`` for what the page does with them.

Anyone with the address watches; only a player proven by a Telegram Mini App's signed data or
by a signed key of their private link acts, and every action goes through the core as that
player's request (:mod:`bot.web.play_actions`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any

from aiohttp import web

from bot.core.info.board_reads import BoardPageReads
from bot.core.info.page_reads import PageMatch
from bot.core.text.i18n import N_
from bot.pages.page_text import PageText
from bot.pages.pages import PlayPageData, PlayUrls, play_page
from bot.web.live import LiveBoards, encode
from bot.web.play_actions import BadActionError, PageAction, PlayActions
from bot.web.play_identity import NotAPlayer, PageIdentity
from bot.web.responses import page_response, page_text

logger = logging.getLogger(__name__)

PING_SECONDS = 15.0
_SLUG = re.compile(r"[A-Za-z0-9_-]{16,32}")
_BODY_MOST = 8192  # initData is a few hundred bytes, an action less
_NOTHING_HERE = N_("There is nothing at this address.")
_BAD_REQUEST = N_("The page sent something the bot cannot read. Reload the page.")
_FINISHED = N_("The match is over.")
_TOO_MANY = N_("Too many boards are open right now. The page tries again in a moment.")


class BoardPages:
    """The handlers of the board page (see the module's docstring)."""

    def __init__(
        self,
        reads: BoardPageReads,
        live: LiveBoards,
        identity: PageIdentity,
        actions: PlayActions,
    ) -> None:
        self.reads = reads
        self.live = live
        self.identity = identity
        self.actions = actions

    def add_routes(self, router: web.UrlDispatcher, slug: str) -> None:
        router.add_get(f"/m/{slug}/play", self.page)
        router.add_get(f"/m/{slug}/play/state", self.state)
        router.add_get(f"/m/{slug}/play/live", self.stream)
        router.add_post(f"/m/{slug}/play/hello", self.hello)
        router.add_post(f"/m/{slug}/play/act", self.act)
        router.add_get("/app", self.mini_app)

    @property
    def unlimited(self) -> frozenset[Any]:
        """Handlers that do not wait for a page's turn: a stream stays open, and an action is
        a player's request like a chat's (the core's admission orders it)."""
        return frozenset({self.stream, self.hello, self.act})

    async def page(self, request: web.Request) -> web.Response:
        match = await self._find(request)
        text = page_text(request)
        base, lang = f"/m/{match.info.slug}/play", f"?lang={text.lang}"  # refusals in its words
        urls = PlayUrls(
            live=f"{base}/live",
            hello=f"{base}/hello{lang}",
            act=f"{base}/act{lang}",
            state=f"{base}/state",
        )
        data = PlayPageData(match.number, match.names, await self.reads.state(match), urls)
        return page_response(play_page(data, text))

    async def mini_app(self, request: web.Request) -> web.Response:
        """The Mini App's address (``TELEGRAM_MINI_APP``, opened from a group's [Open board]):
        Telegram names the match in ``tgWebAppStartParam``; its board page follows, and the
        signed data after ``#`` goes along (a redirect keeps the fragment)."""
        slug = request.query.get("tgWebAppStartParam", "")
        if not _SLUG.fullmatch(slug) or await self.reads.find(slug) is None:
            raise web.HTTPNotFound(text=page_text(request).gettext(_NOTHING_HERE))
        raise web.HTTPSeeOther(f"/m/{slug}/play")

    async def state(self, request: web.Request) -> web.Response:
        match = await self._find(request)
        return web.json_response(
            await self.reads.state(match), headers={"Cache-Control": "no-cache"}
        )

    async def stream(self, request: web.Request) -> web.StreamResponse:
        match = await self._find(request)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream; charset=utf-8",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",  # a proxy in front must not hold the events back
            }
        )
        if not self.live.room_for(match.number):
            raise web.HTTPServiceUnavailable(
                text=page_text(request).gettext(_TOO_MANY), headers={"Retry-After": "10"}
            )
        await response.prepare(request)
        state = await self.reads.state(match)
        try:
            await response.write(encode(state))
            if state["finished"]:
                return response  # nothing more will change: the page stops listening
            async with self.live.watching(match.number, int(state["version"])) as stream:
                while not stream.closed:
                    event = await stream.next(PING_SECONDS)
                    if stream.closed:
                        break
                    await response.write(event.data if event is not None else b": ping\n\n")
                    if event is not None and event.final:
                        break
        except ConnectionResetError:  # the page was closed: nothing to answer, nothing wrong
            pass
        return response

    async def hello(self, request: web.Request) -> web.Response:
        """Who the viewer is: a player's signed key and seat for the page's actions, or the
        reason they may only watch."""
        match = await self._find(request)
        text = page_text(request)
        body = await _json_body(request, text)
        try:
            seat, key = await self.identity.hello(match, body)
        except NotAPlayer as refusal:
            return _refused(text, refusal.reason, 403)
        return web.json_response(
            {"key": key, "seat": seat.index, "name": seat.actor.name},
            headers={"Cache-Control": "no-store"},
        )

    async def act(self, request: web.Request) -> web.Response:
        match = await self._find(request)
        text = page_text(request)
        body = await _json_body(request, text)
        try:
            seat = await self.identity.from_header(match, request.headers.get("Authorization"))
        except NotAPlayer as refusal:
            return _refused(text, refusal.reason, 403)
        try:
            action = PageAction.read(body)
        except BadActionError:
            return _refused(text, _BAD_REQUEST, 400)
        outcome = await self.actions.act(match.number, seat, action)  # tells self.live
        if not outcome.acted:
            words = " ".join(outcome.notes) or text.gettext(_FINISHED)
            return web.json_response({"error": words}, status=409)
        return web.json_response({"ok": True, "notes": list(outcome.notes)})

    async def _find(self, request: web.Request) -> PageMatch:
        found = await self.reads.find(request.match_info["slug"])
        if found is None:
            raise web.HTTPNotFound(text=page_text(request).gettext(_NOTHING_HERE))
        return found


async def _json_body(request: web.Request, text: PageText) -> Any:
    if request.content_length is not None and request.content_length > _BODY_MOST:
        raise _error(text, _BAD_REQUEST, 413)
    try:
        raw = await asyncio.wait_for(_whole_body(request), 10.0)
    except TimeoutError:
        raise _error(text, _BAD_REQUEST, 408) from None
    if len(raw) > _BODY_MOST:
        raise _error(text, _BAD_REQUEST, 413)
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: [[[[…
        raise _error(text, _BAD_REQUEST, 400) from None


async def _whole_body(request: web.Request) -> bytes:
    """The body to its end, however it arrives (in pieces through a proxy), stopping once it
    is longer than a page's body may be."""
    parts: list[bytes] = []
    size = 0
    while size <= _BODY_MOST:
        part = await request.content.readany()
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def _refused(text: PageText, reason: str, status: int) -> web.Response:
    return web.json_response({"error": text.gettext(reason)}, status=status)


def _error(text: PageText, reason: str, status: int) -> web.HTTPException:
    kinds: dict[int, type[web.HTTPException]] = {
        400: web.HTTPBadRequest,
        408: web.HTTPRequestTimeout,
        413: web.HTTPBadRequest,  # said as a bad request: the body's size is not the page's
    }
    return kinds[status](
        text=json.dumps({"error": text.gettext(reason)}, ensure_ascii=False),
        content_type="application/json",
    )
