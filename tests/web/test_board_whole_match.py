"""A whole 1-point match played by tapping on the board page (issue 40).

One bot process in-process: a real python-telegram-bot ``Application`` of our adapter on the
fake Bot API, and the web server with the board page. Anna and Bob each open the board as a
Telegram Mini App in a Chromium of their own (with ``initData`` signed here the way Telegram
signs it) and play the whole match by tapping only; a third Chromium watches. Then the same
match is typed into the chat of a second bot on a fresh database with the same seeds: both
matches' event logs are equal, and both chats saw the same boards.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import socket
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import aiohttp
from selenium.webdriver.chrome.webdriver import WebDriver

from bot.core.service import Core
from bot.web.board import board_pages
from bot.web.server import WebServer
from gammon.actions import Action, Move
from storage import Database
from tests.databases import sqlite_copy
from tests.fakes.telegram_bot_api import TOKEN, Call, FakeBotApi
from tests.seeds import fixed_seeds
from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness, fake_adapter
from tests.web.conftest import chrome
from tests.web.pages_in_browser import errors_logged

PLAYERS = (ANNA, BOB)  # seat 0 challenges, seat 1 accepts
CONTROLS = ("roll", "double", "take", "drop", "beaver", "undo", "done", "accept", "reject")
_TAPS = """
const hook = (selector) => document.querySelector(`#board [${selector}]`);
for (const [from, to] of arguments[0]) {
  const checker = hook(`data-point="${from}"`);
  if (!checker) return `no point ${from}`;
  checker.click();
  const target = hook(`data-dest="${to}"`);
  if (!target) return `no destination ${to} for ${from}`;
  target.click();
}
const done = document.getElementById("done");
if (done.hidden || done.disabled) return "Done is not ready";
done.click();
return "";
"""


@dataclass
class BotProcess:
    """One bot: the core and its Telegram adapter on the fake Bot API; ``server`` the web server
    with the board page, when it serves one."""

    harness: Harness
    base_url: str
    server: WebServer | None = None
    session: aiohttp.ClientSession | None = None

    @property
    def api(self) -> FakeBotApi:
        return self.harness.api

    async def slug(self) -> str:
        return (await self.harness.stores.matches.match_info(1)).slug

    async def state(self) -> dict[str, Any]:
        assert self.session is not None
        url = f"{self.base_url}/m/{await self.slug()}/play/state"
        async with self.session.get(url) as got:
            assert got.status == 200
            return dict(await got.json())

    async def actions(self) -> list[Action]:
        matches = self.harness.stores.matches
        return list((await matches.with_history(await matches.load_match(1))).state.actions)

    async def boards(self) -> list[tuple[str, str]]:
        """What the group was shown, in order: each message sent or edited there, by its words
        (message ids, buttons and replies left out; the match's secret address, drawn at
        random for each match, as <slug>)."""
        slug = await self.slug()
        shown = [_shown(call) for call in self.api.calls if _in_group(call)]
        return [(kind, words.replace(slug, "<slug>")) for kind, words in shown]


def _in_group(call: Call) -> bool:
    edits = call.method.startswith("editMessage") and call.method != "editMessageReplyMarkup"
    return (call.method.startswith("send") or edits) and call.params.get("chat_id") == GROUP


def _shown(call: Call) -> tuple[str, str]:
    kind = "edit" if call.method.startswith("edit") else "send"
    media = call.params.get("media") or {}
    parts = media if isinstance(media, list) else [media]
    captions = [str(part.get("caption", "")) for part in parts]
    words = call.params.get("text") or call.params.get("caption") or "\n".join(captions)
    return kind, str(words)


def _free_port() -> int:
    """A port free right now: the core must know the board's address before the server runs."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@asynccontextmanager
async def _bot(url: str, port: int, serve: bool) -> AsyncIterator[BotProcess]:
    database = Database(url)
    base_url = f"http://127.0.0.1:{port}"
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), web_base_url=base_url)
    api = FakeBotApi()
    adapter = fake_adapter(core, api)
    await adapter.application.initialize()
    bot = BotProcess(Harness(api, adapter, core), base_url)
    try:
        if serve:
            pages = board_pages(
                core.ports.boards,
                core,
                adapter.deliver,
                telegram_token=TOKEN,
                init_data_max_age=3600.0,
                key_seconds=3600.0,
            )
            bot.server = WebServer(core.ports.pages, "127.0.0.1", port, board=pages)
            await bot.server.start()
        async with aiohttp.ClientSession() as session:
            bot.session = session
            await _challenge(bot.harness)
            yield bot
    finally:
        if bot.server is not None:
            await bot.server.stop()
        await adapter.application.shutdown()
        await database.close()


async def _challenge(harness: Harness) -> None:
    await harness.say(BOB, GROUP, "/help")  # so the bot knows who @bob is
    await harness.say(ANNA, GROUP, "/challenge @bob 1")
    await harness.press_label(BOB, GROUP, "Accept")


def init_data(person: dict[str, Any], signed_at: int) -> str:
    """Telegram's Mini App ``initData`` for ``person``, signed as Telegram documents it: the
    fields but ``hash`` as key=value sorted by key, joined with newlines, under
    HMAC-SHA256(key "WebAppData", the bot's token)."""
    who = {key: person[key] for key in ("id", "first_name", "username")}
    fields = {
        "auth_date": str(signed_at),
        "query_id": f"AAHdF6IQAAAAAN0XohD{person['id']}",
        "user": json.dumps({**who, "language_code": "en"}, separators=(",", ":")),
    }
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", TOKEN.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def _hook(seat: int, point: int) -> int:
    """The page's data-point of ``seat``'s own point (25 the bar, 0 borne off)."""
    if point == 25:
        return 25 if seat == 0 else 26
    if point == 0:
        return 0 if seat == 0 else 27
    return point if seat == 0 else 25 - point


def first_play(state: dict[str, Any]) -> tuple[list[tuple[int, int]], str]:
    """The taps (data-point, data-dest) of the first complete play reached by always taking
    the first edge of the plays tree, and that play's notation."""
    nodes = state["plays"]["nodes"]
    seat = int(state["turn"])
    taps: list[tuple[int, int]] = []
    node = nodes[0]
    while node["play"] is None:
        start, end, _hit, child = node["edges"][0]
        taps.append((_hook(seat, start), _hook(seat, end)))
        node = nodes[child]
    return taps, str(node["play"])


async def _until(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Poll ``check`` (a blocking call, run in a thread) until it is truthy; its value."""
    deadline = time.monotonic() + timeout
    while True:
        value = await asyncio.to_thread(check)
        if value:
            return value
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


def _ready(driver: WebDriver, version: int, moving: bool) -> Callable[[], bool]:
    """Whether the page shows ``version`` and lets its player roll, or tap the board."""
    ready = (
        "document.getElementById('board').classList.contains('active')"
        if moving
        else "!document.getElementById('roll').hidden && !document.getElementById('roll').disabled"
    )
    script = f"return document.getElementById('board').dataset.version === '{version}' && {ready};"
    return lambda: bool(driver.execute_script(script))


def _visible(driver: WebDriver) -> list[str]:
    ids = (*CONTROLS, "resign")
    return [name for name in ids if driver.find_element("id", name).is_displayed()]


@dataclass
class Tapped:
    """What the players did on their pages, in order: ("roll", seat) or ("play", seat, play)."""

    steps: list[tuple[str, int, str]] = field(default_factory=list)

    def plays(self) -> list[str]:
        return [play for kind, _seat, play in self.steps if kind == "play"]


def _in_order(some: list[str], within: list[str]) -> bool:
    """Whether ``some`` are among ``within`` in the same order (the core's forced plays and
    automatic rolls come between the taps)."""
    rest = iter(within)
    return all(any(item == other for other in rest) for item in some)


async def _tap_whole_match(bot: BotProcess, players: tuple[WebDriver, WebDriver]) -> Tapped:
    tapped = Tapped()
    for _turn in range(300):
        state = await bot.state()
        if state["phase"] == "finished":
            return tapped
        seat = int(state["turn"])
        driver = players[seat]
        if state["phase"] in ("opening", "rolling"):
            await _until(_ready(driver, state["version"], moving=False))
            await asyncio.to_thread(
                driver.execute_script, "document.getElementById('roll').click();"
            )
            tapped.steps.append(("roll", seat, ""))
        elif state["phase"] == "moving":
            taps, play = first_play(state)
            await _until(_ready(driver, state["version"], moving=True))
            refused = await asyncio.to_thread(driver.execute_script, _TAPS, taps)
            assert refused == "", (refused, state)
            tapped.steps.append(("play", seat, play))
        else:
            raise AssertionError(f"nothing to tap in phase {state['phase']}")
        await _past(bot, int(state["version"]))
    raise AssertionError("the match did not end")


async def _past(bot: BotProcess, version: int, timeout: float = 10.0) -> None:
    """Wait until the server's state is past ``version``."""
    deadline = time.monotonic() + timeout
    while int((await bot.state())["version"]) <= version:
        assert time.monotonic() < deadline, f"still at version {version}"
        await asyncio.sleep(0.02)


async def _type_whole_match(bot: BotProcess, tapped: Tapped) -> None:
    """The same match typed into the chat: /roll where the page's Roll was tapped, /move
    with the play the page sent."""
    for kind, seat, play in tapped.steps:
        text = "/roll" if kind == "roll" else f"/move {play}"
        before = len(await bot.actions())
        await bot.harness.say(PLAYERS[seat], GROUP, text)
        assert len(await bot.actions()) > before, f"{text} was not taken"


async def test_a_whole_match_tapped_on_two_pages_equals_the_typed_one(
    browser: WebDriver, tmp_path: Path, migrated_sqlite: Path
) -> None:
    anna, bob = await asyncio.gather(asyncio.to_thread(chrome), asyncio.to_thread(chrome))
    players = (anna, bob)
    port = _free_port()
    try:
        url = sqlite_copy(migrated_sqlite, tmp_path / "tapped.db")
        async with _bot(url, port, serve=True) as bot:
            await _open_pages(bot, players, browser)
            tapped = await _tap_whole_match(bot, players)
            await _all_see_the_end(bot, players, browser)
            tapped_actions = await bot.actions()
            tapped_boards = await bot.boards()
        assert len(tapped.plays()) >= 10
        moves = [action.play for action in tapped_actions if isinstance(action, Move)]
        assert _in_order(tapped.plays(), moves)
        assert sum("Position ID: " in words for _kind, words in tapped_boards) > len(moves) // 2
        typed_url = sqlite_copy(migrated_sqlite, tmp_path / "typed.db")
        async with _bot(typed_url, port, serve=False) as typed:
            await _type_whole_match(typed, tapped)
            assert await typed.actions() == tapped_actions
            assert await typed.boards() == tapped_boards
    finally:
        for driver in players:
            await asyncio.to_thread(driver.quit)


async def _open_pages(
    bot: BotProcess, players: tuple[WebDriver, WebDriver], spectator: WebDriver
) -> None:
    """Each player opens the board as Telegram's Mini App does (the signed data after ``#``);
    the spectator opens the plain address."""
    page = f"{bot.base_url}/m/{await bot.slug()}/play"
    now = int(time.time())
    for driver, person in zip(players, PLAYERS, strict=True):
        fragment = f"tgWebAppData={quote(init_data(person, now))}&tgWebAppVersion=7.0"
        await asyncio.to_thread(driver.get, f"{page}#{fragment}")
    await asyncio.to_thread(spectator.get, page)
    for driver, person in zip(players, PLAYERS, strict=True):
        await _until(_says(driver, "seat", f"You play \u2068{person['first_name']}\u2069."))
    await _until(_says(spectator, "seat", "You are watching."))
    assert await asyncio.to_thread(_visible, spectator) == []


async def _all_see_the_end(
    bot: BotProcess, players: tuple[WebDriver, WebDriver], spectator: WebDriver
) -> None:
    """All three pages show the last version, the winner and no controls; then they leave
    (before the server stops, so no stream complains)."""
    final = await bot.state()
    winner = PLAYERS[int(final["winner"])]["first_name"]
    for driver in (*players, spectator):
        await _until(_shows_version(driver, int(final["version"])))
        await _until(_says(driver, "turn", f"\u2068{winner}\u2069 wins"))
        assert await asyncio.to_thread(_visible, driver) == []
        assert await asyncio.to_thread(errors_logged, driver) == []
        await asyncio.to_thread(driver.get, "about:blank")


def _says(driver: WebDriver, element: str, text: str) -> Callable[[], bool]:
    return lambda: bool(driver.find_element("id", element).text == text)


def _shows_version(driver: WebDriver, version: int) -> Callable[[], bool]:
    script = "return document.getElementById('board').dataset.version;"
    return lambda: bool(driver.execute_script(script) == str(version))
