"""The bot's read-only web pages, served by aiohttp beside the chat platforms.

``/m/<slug>`` a match (players, rules, its last position, score game by game, the analysis once
made), ``/m/<slug>/replay`` every play of every game (``?game=N`` opens at game N),
``/m/<slug>/verify`` the dice check that recomputes every roll in the browser,
``/m/<slug>/replay/<game>/<frame>.png`` the replay's pictures, ``/m/<slug>/analysis.png`` the
analysis's chart and ``/m/<slug>/match.mat`` the match for GNU Backgammon and eXtreme Gammon (as
``/export`` gives it to the players: while the match is played too, since every roll in it is
on the replay already; never for money backgammon, which the format does not hold);
``/t/<slug>`` a tournament (its bracket or tables as they stand, each started match linked to
its page). The slug (128 random bits, see :func:`storage.match.starts.new_slug`) is the only way
to a match or a tournament: an unknown one is a 404 like any other address, and nothing lists
them. The server seed appears
only once the match has ended (the repository refuses it before). Every page carries a
Content-Security-Policy that allows its own inline script and style by hash and nothing else
from anywhere.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Hashable

from aiohttp import web
from aiohttp.typedefs import Handler

from bot.core.info.page_reads import AnalysisState, MatchPageReads, PageMatch
from bot.core.info.replays import frame_caption
from bot.core.text.i18n import N_
from bot.core.text.texts import how_game_ended
from bot.pages.analysis_data import analysis_summary
from bot.pages.check_data import CheckData
from bot.pages.page_data import Board, Frame, GameRow, MatchPageData, ReplayPageData
from bot.pages.page_text import PageText
from bot.pages.pages import check_page, match_page, replay_page, tournament_page
from bot.web.guard import ConnectionGuard
from bot.web.limits import BACKLOG, WebLimits, connection_cap, open_file_limit
from bot.web.page_cache import page_cache
from bot.web.page_turns import page_turns
from bot.web.play_routes import BoardPages
from bot.web.responses import page_response, page_text
from bot.web.transport import SERVER_NAME, http_protocols
from gammon.replay import GameReplay

logger = logging.getLogger(__name__)

_SLUG = r"{slug:[A-Za-z0-9_-]{16,32}}"
_PICTURES_KEPT = 512
_CHECKS_KEPT = 64
_PICTURES_AT_ONCE = 2
_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Server": SERVER_NAME,  # not aiohttp's, which names the versions of Python and aiohttp
}
_NOTHING_HERE = N_("There is nothing at this address.")


class WebPages:
    """The pages of one bot: everything they show is read through the pages' read model
    (:class:`bot.core.info.page_reads.MatchPageReads`)."""

    def __init__(
        self,
        reads: MatchPageReads,
        pages_at_once: int = WebLimits.pages_at_once,
        board: BoardPages | None = None,
    ) -> None:
        self.reads = reads
        self.board = board
        unlimited = board.unlimited if board is not None else frozenset()
        self._turns = page_turns(
            pages_at_once,
            reads.chats_idle,
            exempt=lambda request: request.match_info.handler in unlimited,
        )
        self._pictures: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        self._checks: OrderedDict[tuple[int, int], CheckData] = OrderedDict()
        self._drawing = asyncio.Semaphore(_PICTURES_AT_ONCE)

    def application(self) -> web.Application:
        app = web.Application(client_max_size=1024)
        app.router.add_get(f"/m/{_SLUG}", self.match)
        app.router.add_get(f"/t/{_SLUG}", self.tournament)
        app.router.add_get(f"/m/{_SLUG}/replay", self.replay)
        app.router.add_get(f"/m/{_SLUG}/verify", self.verify)
        app.router.add_get(f"/m/{_SLUG}/match.mat", self.mat)
        app.router.add_get(f"/m/{_SLUG}/analysis.png", self.analysis_picture)
        app.router.add_get(
            f"/m/{_SLUG}/replay/{{game:[0-9]{{1,4}}}}/{{frame:[0-9]{{1,5}}}}.png", self.picture
        )
        if self.board is not None:
            self.board.add_routes(app.router, _SLUG)
        app.middlewares.append(_safe_headers)
        app.middlewares.append(self._turns)  # cached pages too wait: their key reads the database
        app.middlewares.append(page_cache(self._page_key))
        return app

    # --- pages ---------------------------------------------------------------------------

    async def match(self, request: web.Request) -> web.Response:
        found = await self._find(request)
        text = page_text(request)
        _ = text.speech
        state = await self.reads.state(found)
        names = found.names
        base = f"/m/{found.slug}"
        query = _query(text)
        games = tuple(
            GameRow(
                number=result.number,
                winner=None if result.winner is None else names[result.winner],
                points=result.points,
                how=_("draw")
                if result.winner is None
                else how_game_ended(_, result, state.variant),
                score_after=result.score_after,
                replay_url=f"{base}/replay{query}&game={result.number}",
            )
            for result in state.games
        )
        finished = found.finished
        analysis = await self.reads.analysis(found)
        chart = f"{base}/analysis.png{query}" if self.reads.pictures_enabled else None
        data = MatchPageData(
            number=found.number,
            names=names,
            variant=state.variant.value,
            length=state.rules.length,
            status=_status(text, found, state.score, finished, state.winner),
            finished=finished,
            games=games,
            replay_url=f"{base}/replay{query}",
            verify_url=f"{base}/verify{query}",
            mat_url=f"{base}/match.mat" if found.exported else None,
            board=await self._board(found, text),
            analysis=None
            if analysis.analysis is None
            else analysis_summary(text, analysis.analysis, chart),
            analysing=analysis.state is AnalysisState.UNDER_WAY,
        )
        return page_response(match_page(data, text))

    async def tournament(self, request: web.Request) -> web.Response:
        """A tournament's bracket and tables; its matches link to their pages in the page's
        language. Never kept: it changes with every result of every match in it."""
        text = page_text(request)
        query = _query(text)
        data = await self.reads.tournament_page(
            request.match_info["slug"], text.speech, lambda slug: f"/m/{slug}{query}"
        )
        if data is None:
            raise web.HTTPNotFound(text=text.gettext(_NOTHING_HERE))
        return page_response(tournament_page(data, text))

    async def mat(self, request: web.Request) -> web.Response:
        """The match as a .mat file to download, like ``/export``'s."""
        found = await self._find(request)
        file = await self.reads.mat_file(found)
        if file is None:
            raise web.HTTPNotFound(text=page_text(request).gettext(_NOTHING_HERE))
        return web.Response(
            body=file.data,
            content_type="text/plain",
            charset="utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="{file.filename}"',
                "Cache-Control": "no-cache",
            },
        )

    async def analysis_picture(self, request: web.Request) -> web.Response:
        found = await self._find(request)
        text = page_text(request)
        key: tuple[object, ...] = ("analysis", found.number, text.lang)
        image = self._pictures.get(key)
        if image is None:
            async with self._drawing:
                image = await self.reads.analysis_chart(found, text.speech)
            if image is None:
                raise web.HTTPNotFound(text=text.gettext(_NOTHING_HERE))
            self._keep(key, image)
        return web.Response(
            body=image, content_type="image/png", headers={"Cache-Control": "max-age=3600"}
        )

    async def replay(self, request: web.Request) -> web.Response:
        found = await self._find(request)
        text = page_text(request)
        games = await self.reads.games(found)
        base = f"/m/{found.slug}/replay"
        data = ReplayPageData(
            start=_game_asked(request, len(games)),
            number=found.number,
            names=found.names,
            games=tuple(
                tuple(
                    Frame(
                        f"{base}/{game.number}/{index}.png{_query(text)}",
                        frame_caption(text.speech, frame, found.names),
                    )
                    for index, frame in enumerate(game.frames)
                )
                for game in games
            ),
        )
        return page_response(replay_page(data, text))

    async def verify(self, request: web.Request) -> web.Response:
        found = await self._find(request)
        return page_response(check_page(await self.check_data(found), page_text(request)))

    async def picture(self, request: web.Request) -> web.Response:
        found = await self._find(request)
        text = page_text(request)
        games = await self.reads.games(found)
        number, index = int(request.match_info["game"]), int(request.match_info["frame"])
        if not 1 <= number <= len(games) or index >= len(games[number - 1].frames):
            raise web.HTTPNotFound(text=text.gettext(_NOTHING_HERE))
        game = games[number - 1]
        image = await self._picture(found, game, index, text)
        # A finished game's pictures never change; the game being played grows.
        cache = "public, max-age=86400, immutable" if game.result else "no-cache"
        return web.Response(body=image, content_type="image/png", headers={"Cache-Control": cache})

    async def check_data(self, found: PageMatch) -> CheckData:
        """Everything the check page needs; the seed only once the match has ended. Kept for
        recently checked matches by version (an ended match's never changes)."""
        key = (found.number, found.version)
        kept = self._checks.get(key)
        if kept is not None and kept.finished == found.finished:
            self._checks.move_to_end(key)
            return kept
        data = await self.reads.check_data(found)
        self._checks[key] = data
        if len(self._checks) > _CHECKS_KEPT:
            self._checks.popitem(last=False)
        return data

    # --- helpers -------------------------------------------------------------------------

    async def _page_key(self, request: web.Request) -> Hashable | None:
        """A page is kept under its address, its language and the match's version and state
        (see :mod:`bot.web.page_cache`); pictures have a store of their own."""
        handler = request.match_info.handler
        if handler not in (self.match, self.replay, self.verify):
            return None
        found = await self.reads.version_of(request.match_info["slug"])
        if found is None:
            return None
        number, version, finished = found
        lang = page_text(request).lang
        key = (handler.__name__, number, request.query_string, lang, version, finished)
        if handler == self.match and finished:
            # The analysis comes after the match's last version: the page shows it once made.
            return (*key, await self.reads.analysis_state(number))
        return key

    async def _find(self, request: web.Request) -> PageMatch:
        found = await self.reads.find(request.match_info["slug"])
        if found is None:
            raise web.HTTPNotFound(text=page_text(request).gettext(_NOTHING_HERE))
        return found

    async def _picture(
        self, found: PageMatch, game: GameReplay, index: int, text: PageText
    ) -> bytes:
        version = None if game.result else found.version
        key = (found.number, game.number, index, text.lang, version)
        kept = self._pictures.get(key)
        if kept is not None:
            self._pictures.move_to_end(key)
            return kept
        async with self._drawing:  # the chats' boards come first: a few pages draw at once
            drawn = await self.reads.frame_picture(game.frames[index], found.names, text.speech)
        if drawn is None:
            raise web.HTTPNotFound()
        self._keep(key, drawn)
        return drawn

    def _keep(self, key: tuple[object, ...], picture: bytes) -> None:
        self._pictures[key] = picture
        if len(self._pictures) > _PICTURES_KEPT:
            self._pictures.popitem(last=False)

    async def _board(self, found: PageMatch, text: PageText) -> Board | None:
        """The last frame of the last game: the final position, or the one being played."""
        if not self.reads.pictures_enabled:
            return None
        games = await self.reads.games(found)
        if not games:
            return None
        game = games[-1]
        last = len(game.frames) - 1
        return Board(
            image_url=f"/m/{found.slug}/replay/{game.number}/{last}.png{_query(text)}",
            caption=frame_caption(text.speech, game.frames[last], found.names),
        )


@web.middleware
async def _safe_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer, errors included, is neither sniffed, framed nor sent on as a referrer."""
    try:
        response = await handler(request)
    except web.HTTPException as error:
        error.headers.update(_HEADERS)
        raise
    response.headers.update(_HEADERS)
    policy = response.headers.get("Content-Security-Policy")
    if policy is not None and "frame-ancestors 'none'" not in policy:
        # The policy names who may frame the page (the board page: Telegram's web client);
        # X-Frame-Options has no such list, and would forbid it to browsers that read it.
        del response.headers["X-Frame-Options"]
    return response


def _query(text: PageText) -> str:
    """Links keep the page's language."""
    return f"?lang={text.lang}"


def _game_asked(request: web.Request, count: int) -> int:
    """The game ``?game=N`` asks the replay to open at (0-based); the first one for anything
    that names no game of the match."""
    asked = request.query.get("game", "")
    if asked.isascii() and asked.isdigit() and 1 <= int(asked[:6]) <= count:
        return int(asked) - 1
    return 0


def _status(
    text: PageText,
    found: PageMatch,
    score: tuple[int, int],
    finished: bool,
    winner: int | None,
) -> str:
    _ = text.gettext
    a, b = found.names
    if finished and winner is not None:
        return _("{name} won {x}–{y}.").format(
            name=found.names[winner], x=score[winner], y=score[1 - winner]
        )
    if finished:
        return _("The match has ended.")
    return _("Being played: {a} {x}, {b} {y}.").format(a=a, x=score[0], b=b, y=score[1])


class WebServer:
    """Runs :class:`WebPages` on ``host``:``port`` until stopped, within ``limits`` (see
    :mod:`bot.web.limits`, :mod:`bot.web.guard` and :mod:`bot.web.transport`)."""

    def __init__(
        self,
        reads: MatchPageReads,
        host: str,
        port: int,
        limits: WebLimits | None = None,
        board: BoardPages | None = None,
    ) -> None:
        self.limits = limits or WebLimits()
        self.pages = WebPages(reads, self.limits.pages_at_once, board)
        self.host = host
        self.port = port
        self.guard: ConnectionGuard | None = None
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None

    async def start(self) -> None:
        runner = web.AppRunner(self.pages.application(), access_log=None)
        await runner.setup()
        limits = self.limits
        guard = ConnectionGuard(
            http_protocols(runner, limits.keepalive_timeout),
            most=connection_cap(limits.max_connections, open_file_limit()),
            head_timeout=limits.header_timeout,
            send_timeout=limits.keepalive_timeout,
        )
        loop = asyncio.get_running_loop()
        try:
            self._listener = await loop.create_server(guard, self.host, self.port, backlog=BACKLOG)
        except BaseException:
            await runner.cleanup()
            raise
        self._runner, self.guard = runner, guard
        if self.pages.board is not None:  # the board's streams leave half the connections free
            live = self.pages.board.live
            live.most = max(1, guard.most // 2)
        logger.info(
            "web pages at http://%s:%d (at most %d connections)",
            self.host,
            self.bound_port,
            guard.most,
        )

    @property
    def bound_port(self) -> int:
        """The port actually listened on (``port`` 0 lets the system choose: tests)."""
        assert self._listener is not None
        for socket in self._listener.sockets:
            return int(socket.getsockname()[1])
        return self.port

    async def stop(self) -> None:
        if self.pages.board is not None:
            await self.pages.board.live.stop()
        if self._listener is not None:
            self._listener.close()  # no new connections; the open ones are ended below
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._listener is not None:
            await self._listener.wait_closed()
            self._listener = None
