"""The board page's server: who may act, actions through the core, the live stream.

A real core on the test database with the web server on 127.0.0.1: Anna and Bob play a 1-point
match in a group chat; the players' keys come from pressing [Open board], as a player gets them.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest

from bot.core.info.board_reads import BoardPageReads
from bot.core.model import ChatRef, Message, Private
from bot.core.page_access.player_keys import PlayerKey, issue, read
from bot.core.people import PlayerNames
from bot.core.runtime.time_source import TimeSource
from bot.core.service import Core
from bot.web.board import board_pages
from bot.web.play_identity import NotAPlayer, PageIdentity
from bot.web.server import WebServer
from gammon.actions import Move, Roll
from storage import Database, UserRecord, UserRepository
from tests.bot.scripted import PLATFORM, Room
from tests.databases import sqlite_copy
from tests.seeds import fixed_seeds

_KEY = re.compile(r"(http://\S+/m/([A-Za-z0-9_-]+)/play)#key=(\S+)")


@dataclass
class Board:
    room: Room
    server: WebServer
    session: aiohttp.ClientSession
    gate: asyncio.Event  # the chat's delivery waits while it is clear
    delivered: list[Message] = field(default_factory=list)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.bound_port}"

    async def slug(self) -> str:
        return (await self.room.stores.matches.match_info(1)).slug

    async def key_of(self, name: str) -> str:
        answer = await self.room.press(name, "Open board")
        (message,) = answer
        assert isinstance(message.kind, Private)
        assert message.kind.user_id == name
        found = _KEY.search(message.text)
        assert found is not None, message.text
        assert found.group(2) == await self.slug()
        return found.group(3)

    async def state(self) -> dict[str, Any]:
        async with self.session.get(f"{self.base}/m/{await self.slug()}/play/state") as got:
            assert got.status == 200
            return dict(await got.json())

    async def post(
        self, path: str, body: object, key: str | None = None, lang: str = "en"
    ) -> tuple[int, dict[str, Any]]:
        headers = {"Authorization": f"Bearer {key}"} if key is not None else {}
        url = f"{self.base}/m/{await self.slug()}/play/{path}?lang={lang}"
        async with self.session.post(url, data=json.dumps(body), headers=headers) as got:
            return got.status, dict(await got.json(content_type=None))

    async def act(
        self, key: str, action: str, event_id: str, version: int | None = None, **more: object
    ) -> tuple[int, dict[str, Any]]:
        if version is None:
            version = int((await self.state())["version"])
        body = {"action": action, "version": version, "id": event_id, **more}
        return await self.post("act", body, key)


@pytest.fixture
async def board(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Board]:
    async with _board(tmp_path, migrated_sqlite) as made:
        yield made


@pytest.fixture
async def slow_board(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Board]:
    """A board whose streams look at the database only every minute by themselves."""
    async with _board(tmp_path, migrated_sqlite, live_every=60.0) as made:
        yield made


@asynccontextmanager
async def _board(
    tmp_path: Path,
    migrated_sqlite: Path,
    live_every: float = 0.5,
    telegram_token: str | None = None,
) -> AsyncIterator[Board]:
    database = Database(sqlite_copy(migrated_sqlite, tmp_path / "board.db"))
    core = Core(database, server_seeds=fixed_seeds(), web_base_url="http://127.0.0.1")
    delivered: list[Message] = []
    gate = asyncio.Event()
    gate.set()

    async def deliver(messages: Sequence[Message]) -> None:  # the chat's, once the gate opens
        await gate.wait()
        delivered.extend(messages)

    pages = board_pages(
        core.ports.boards,
        core,
        deliver,
        telegram_token=telegram_token,
        init_data_max_age=60.0,
        key_seconds=3600.0,
        live_every=live_every,
    )
    server = WebServer(core.ports.pages, "127.0.0.1", 0, board=pages)
    await server.start()
    room = Room(core, ChatRef(PLATFORM, "group-1"))
    await room.command("anna", "/challenge @bob 1")
    await room.press("bob", "Accept")
    try:
        async with aiohttp.ClientSession() as session:
            yield Board(room, server, session, gate, delivered)
    finally:
        await server.stop()
        await database.close()


def _to_act(state: dict[str, Any]) -> str:
    return ("anna", "bob")[int(state["turn"])]


def _a_play(state: dict[str, Any]) -> str:
    """The first complete play of the state's plays tree, walking its first edges."""
    nodes = state["plays"]["nodes"]
    node = nodes[0]
    while node["play"] is None:
        node = nodes[node["edges"][0][3]]
    return str(node["play"])


async def test_the_player_on_roll_plays_from_the_page_and_the_chat_gets_the_board(
    board: Board,
) -> None:
    state = await board.state()
    assert state["phase"] == "moving"
    assert state["plays"] is not None
    mover = _to_act(state)
    key = await board.key_of(mover)
    status, said = await board.post("hello", {"key": key})
    assert status == 200
    assert said["seat"] == state["turn"]
    play = _a_play(state)
    status, said = await board.act(said["key"], "play", "a" * 20, play=play)
    assert status == 200, said
    after = await board.state()
    assert after["version"] > state["version"]
    assert after["turn"] != state["turn"]
    boards = [message for message in board.delivered if message.board is not None]
    assert boards
    assert boards[-1].chat.chat_id == "group-1"
    matches = board.room.stores.matches
    loaded = await matches.with_history(await matches.load_match(1))
    moves = [action for action in loaded.state.actions if isinstance(action, Move)]
    assert len(moves) == 1
    assert moves[0].play.replace(" ", "") == play.replace(" ", "")


async def test_a_repeated_submit_is_applied_once(board: Board) -> None:
    state = await board.state()
    key = await board.key_of(_to_act(state))
    play = _a_play(state)
    first = await board.act(key, "play", "same-id-0123456789", state["version"], play=play)
    version = (await board.state())["version"]
    again = await board.act(key, "play", "same-id-0123456789", state["version"], play=play)
    assert first[0] == 200
    assert again[0] == 200
    assert (await board.state())["version"] == version


async def test_the_other_player_is_refused_in_their_words(board: Board) -> None:
    state = await board.state()
    waiting = "bob" if _to_act(state) == "anna" else "anna"
    key = await board.key_of(waiting)
    status, said = await board.act(key, "play", "b" * 20, play=_a_play(state))
    assert status == 409
    assert said["error"]
    assert (await board.state())["version"] == state["version"]


async def test_an_action_for_an_older_board_is_out_of_date(board: Board) -> None:
    state = await board.state()
    key = await board.key_of(_to_act(state))
    status, said = await board.act(
        key, "play", "c" * 20, int(state["version"]) - 1, play=_a_play(state)
    )
    assert status == 409
    assert "out of date" in said["error"]


async def test_nobody_else_acts(board: Board) -> None:
    state = await board.state()
    key = await board.key_of(_to_act(state))
    forged = key[:-2] + ("AA" if not key.endswith("AA") else "BB")
    for header_key in (None, "", "nonsense", forged):
        status, said = await board.act(header_key, "roll", "d" * 20)  # type: ignore[arg-type]
        assert (status, bool(said["error"])) == (403, True), header_key
    status, said = await board.post("hello", {})
    assert status == 403
    assert "watching" in said["error"]
    status, said = await board.post("hello", {"key": forged}, lang="de")
    assert status == 403
    assert "Link" in said["error"]
    assert (await board.state())["version"] == state["version"]


async def test_a_spectator_pressing_open_board_gets_the_address_to_watch(board: Board) -> None:
    answer = await board.room.send("carol", token=_open_board_token(board.room.log))
    (message,) = answer
    assert "#key=" not in message.text
    assert f"/m/{await board.slug()}/play" in message.text


async def test_bad_bodies_are_refused_politely(board: Board) -> None:
    state = await board.state()
    key = await board.key_of(_to_act(state))
    bodies: list[object] = [
        [],
        {"action": "fly", "version": 1, "id": "e" * 20},
        {"action": "play", "version": 1, "id": "short"},
        {"action": "play", "version": "1", "id": "e" * 20, "play": "8/5 6/5"},
        {"action": "play", "version": 1, "id": "e" * 20, "play": "<script>"},
        {"action": "resign", "version": 1, "id": "e" * 20, "level": 7},
    ]
    for body in bodies:
        status, said = await board.post("act", body, key)
        assert (status, bool(said["error"])) == (400, True), body
    url = f"{board.base}/m/{await board.slug()}/play/act"
    async with board.session.post(
        url, data=b"\xff" * 50, headers={"Authorization": "Bearer " + key}
    ) as got:
        assert got.status == 400
    async with board.session.post(url, data=b"x" * 100_000) as got:
        assert got.status in (400, 413)


async def test_the_stream_shows_a_change_at_once(board: Board) -> None:
    state = await board.state()
    key = await board.key_of(_to_act(state))
    url = f"{board.base}/m/{await board.slug()}/play/live"
    async with board.session.get(url) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        first = await _next_event(stream)
        assert first["version"] == state["version"]
        loop = asyncio.get_running_loop()
        started = loop.time()
        status, _said = await board.act(key, "play", "f" * 20, play=_a_play(state))
        assert status == 200
        second = await asyncio.wait_for(_next_event(stream), 5.0)
        assert second["version"] > state["version"]
        assert loop.time() - started < 5.0


async def test_the_opponents_stream_shows_a_play_before_the_chat_has_its_board(
    slow_board: Board,
) -> None:
    board = slow_board  # its streams do not look by themselves meanwhile
    state = await board.state()
    key = await board.key_of(_to_act(state))
    url = f"{board.base}/m/{await board.slug()}/play/live"
    async with board.session.get(url) as stream:
        await _next_event(stream)
        board.gate.clear()  # the chat platform is slow to answer
        acting = asyncio.create_task(
            board.act(key, "play", "s" * 20, state["version"], play=_a_play(state))
        )
        try:
            shown = await asyncio.wait_for(_next_event(stream), 5.0)
            assert shown["version"] > state["version"]
            assert not acting.done()
            assert board.delivered == []
        finally:
            board.gate.set()
        status, _said = await acting
        assert status == 200
        assert board.delivered


async def test_a_change_from_the_chat_reaches_the_stream(board: Board) -> None:
    state = await board.state()
    url = f"{board.base}/m/{await board.slug()}/play/live"
    async with board.session.get(url) as stream:
        await _next_event(stream)
        mover = _to_act(state)
        await board.room.command(mover, f"/move {_a_play(state)}")
        second = await asyncio.wait_for(_next_event(stream), 5.0)
        assert second["version"] > state["version"]


async def test_a_finished_match_acts_on_nothing(board: Board) -> None:
    state = await board.state()
    key = await board.key_of(_to_act(state))
    other = "bob" if _to_act(state) == "anna" else "anna"
    await board.room.command(_to_act(state), "/resign")
    await board.room.press(_to_act(state), "Resign")
    await board.room.press(other, "Accept")
    finished = await board.state()
    assert finished["finished"] is True
    status, said = await board.act(key, "roll", "g" * 20)
    assert status in (403, 409)
    assert said["error"]
    matches = board.room.stores.matches
    loaded = await matches.with_history(await matches.load_match(1))
    assert not any(isinstance(action, Roll) for action in loaded.state.actions[-1:])


def _open_board_token(log: Sequence[Message]) -> str:
    for message in reversed(log):
        for button in message.buttons:
            if button.label == "Open board":
                return button.token
    raise AssertionError("no [Open board]")


async def _next_event(stream: aiohttp.ClientResponse) -> dict[str, Any]:
    while True:
        line = (await stream.content.readline()).decode()
        if line.startswith("data: "):
            return dict(json.loads(line[len("data: ") :]))


async def test_a_long_hello_within_the_pages_limit_is_read(board: Board) -> None:
    """Telegram's signed data can pass the other pages' 1 KiB body limit."""
    status, said = await board.post("hello", {"init_data": "x" * 3000})
    assert status == 403
    assert "watching" in said["error"]  # read, and this bot has no Telegram token


async def test_the_mini_app_address_leads_to_the_match_named_by_telegram(board: Board) -> None:
    slug = await board.slug()
    url = f"{board.base}/app?tgWebAppStartParam={slug}"
    async with board.session.get(url, allow_redirects=False) as got:
        assert got.status == 303
        assert got.headers["Location"] == f"/m/{slug}/play"
    for wrong in ("", "x", "A" * 22, "../../etc"):
        async with board.session.get(
            f"{board.base}/app?tgWebAppStartParam={wrong}", allow_redirects=False
        ) as got:
            assert got.status == 404, wrong


class _CountingUsers(UserRepository):
    """The users' table, counting the reads of one user."""

    def __init__(self, users: UserRepository) -> None:
        self.engine = users.engine
        self.reads = 0

    async def get_user(self, user_id: int) -> UserRecord:
        self.reads += 1
        return await super().get_user(user_id)

    async def find_user(self, platform: str, platform_user_id: str) -> UserRecord | None:
        self.reads += 1
        return await super().find_user(platform, platform_user_id)


async def test_names_are_read_again_only_after_a_minute_and_a_seat_each_time(
    board: Board,
) -> None:
    stores = board.room.stores
    users = _CountingUsers(stores.users)
    now = [1000.0]
    reads = BoardPageReads(
        stores.matches,
        users,
        stores.chats,
        PlayerNames(users),
        TimeSource(),
        stores.page_secret,
        now=lambda: now[0],
    )
    slug = await board.slug()
    match = await reads.find(slug)
    assert match is not None
    assert set(match.names) == {"Anna", "Bob"}
    assert users.reads == 2  # two names
    for _ in range(3):  # a page's requests: streams, looks after a change
        again = await reads.find(slug)
        assert again is not None
        assert (await reads.state_now(match.number))["names"] == list(match.names)
    assert users.reads == 2
    for _ in range(3):  # each action reads its player: their name goes with the request
        assert await reads.seat(match, PLATFORM, "anna") is not None
    assert users.reads == 5
    now[0] += 59.9
    await reads.find(slug)
    assert users.reads == 5
    now[0] += 0.1
    await reads.find(slug)
    assert users.reads == 7


async def test_an_action_on_the_page_keeps_a_new_name(board: Board) -> None:
    """A player renamed since the page opened: their action does not bring the old name back."""
    state = await board.state()
    mover = _to_act(state)
    key = await board.key_of(mover)
    status, _said = await board.post("hello", {"key": key})
    assert status == 200
    await board.room.stores.users.upsert_user(PLATFORM, mover, "Renamed")
    status, said = await board.act(key, "play", "r" * 20, play=_a_play(state))
    assert status == 200, said
    user = await board.room.stores.users.find_user(PLATFORM, mover)
    assert user is not None
    assert user.display_name == "Renamed"


async def test_a_move_typed_in_this_process_reaches_the_stream_at_once(
    slow_board: Board,
) -> None:
    """The streams do not wait for their next look (a minute here) for what this process
    wrote: the append tells them."""
    board = slow_board
    state = await board.state()
    url = f"{board.base}/m/{await board.slug()}/play/live"
    async with board.session.get(url) as stream:
        await _next_event(stream)
        await board.room.command(_to_act(state), f"/move {_a_play(state)}")
        shown = await asyncio.wait_for(_next_event(stream), 5.0)
        assert shown["version"] > state["version"]


async def test_another_processs_change_reaches_the_stream_within_a_second(
    board: Board, tmp_path: Path
) -> None:
    """A second core on the same database stands for another process: nothing tells this
    one, so its streams see the change by their look at the versions."""
    other = Database(f"sqlite:///{tmp_path / 'board.db'}")
    core = Core(other, server_seeds=fixed_seeds(), web_base_url="http://127.0.0.1")
    room = Room(core, ChatRef(PLATFORM, "group-1"), prefix="other-")
    state = await board.state()
    url = f"{board.base}/m/{await board.slug()}/play/live"
    try:
        async with board.session.get(url) as stream:
            await _next_event(stream)
            loop = asyncio.get_running_loop()
            await room.command(_to_act(state), f"/move {_a_play(state)}")
            moved = loop.time()
            shown = await asyncio.wait_for(_next_event(stream), 5.0)
            assert shown["version"] > state["version"]
            assert (
                loop.time() - moved < 1.0 + 0.5
            )  # a look every half second; slack for a busy machine
    finally:
        await other.close()


TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"


def _init_data(token: str, auth_date: int, user_id: int = 11) -> dict[str, str]:
    """Mini App data signed as Telegram documents it (written out here, not our module's)."""
    fields = {
        "auth_date": str(auth_date),
        "query_id": "AAHdF6IQAAAAAN0XohDhrOrc",
        "user": json.dumps({"id": user_id, "first_name": "Anna"}, separators=(",", ":")),
    }
    check = "\n".join(f"{name}={fields[name]}" for name in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return fields


@pytest.fixture
async def telegram_board(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[Board]:
    """A board whose bot runs on Telegram with ``TOKEN`` (the players here are not Telegram's:
    a proof that holds names nobody who plays)."""
    async with _board(tmp_path, migrated_sqlite, telegram_token=TOKEN) as made:
        yield made


async def test_mini_app_data_is_checked_before_anyone_is_named(telegram_board: Board) -> None:
    board = telegram_board
    now = int(time.time())
    cases = {
        "fresh": (_init_data(TOKEN, now), "watching"),  # good data of someone who does not play
        "replayed after its age": (_init_data(TOKEN, now - 120), "expired"),
        "another bot's": (_init_data("654321:XYZ" + TOKEN[10:], now), "not valid"),
        "from the future": (_init_data(TOKEN, now + 600), "expired"),
    }
    tampered = _init_data(TOKEN, now)
    tampered["user"] = tampered["user"].replace("11", "22")
    cases["tampered"] = (tampered, "not valid")
    for name, (fields, said) in cases.items():
        status, answer = await board.post("hello", {"init_data": urlencode(fields)})
        assert status == 403, name
        assert said in answer["error"], name


async def test_only_telegrams_web_client_may_frame_the_board_page(board: Board) -> None:
    """A Mini App runs in a frame of web.telegram.org; the other pages are framed by nobody."""
    slug = await board.slug()
    async with board.session.get(f"{board.base}/m/{slug}/play") as got:
        assert got.status == 200
        policy = got.headers["Content-Security-Policy"]
        assert policy.endswith("; frame-ancestors https://web.telegram.org")
        assert "X-Frame-Options" not in got.headers
        assert got.headers["X-Content-Type-Options"] == "nosniff"
    async with board.session.get(f"{board.base}/m/{slug}") as got:
        assert "frame-ancestors 'none'" in got.headers["Content-Security-Policy"]
        assert got.headers["X-Frame-Options"] == "DENY"


# --- what a review found -----------------------------------------------------------------


async def test_a_match_number_alone_gets_no_address(board: Board) -> None:
    """Match numbers count from 1: someone elsewhere naming one (Telegram's /start payload
    is typed by anyone) must not learn the match's secret address."""
    elsewhere = Room(board.room.core, ChatRef(PLATFORM, "group-2"), prefix="x")
    slug = await board.slug()
    answer = await elsewhere.send("mallory", token="bg1:page:m1:0")
    assert slug not in " ".join(message.text for message in answer)
    answer = await elsewhere.send("mallory", token="bg1:page:m1:0", argument="A" * 22)
    assert slug not in " ".join(message.text for message in answer)
    # Who has the address already (the group's deep link carries it) gets the page's.
    answer = await elsewhere.send("mallory", token="bg1:page:m1:0", argument=slug)
    assert f"/m/{slug}/play" in answer[0].text
    assert "#key=" not in answer[0].text


async def test_saying_hello_again_never_extends_a_key(board: Board) -> None:
    """A link's key, exchanged for the page's, lasts only as long as the link."""
    reads = board.room.core.ports.boards
    match = await reads.find(await board.slug())
    assert match is not None
    now = [1000.0]
    identity = PageIdentity(reads, None, 60.0, 3600.0, now=lambda: now[0])
    mover = _to_act(await board.state())
    link = issue(PlayerKey(1, PLATFORM, mover, 1010), await reads.secret())
    _seat, renewed = await identity.hello(match, {"key": link})
    assert read(renewed, await reads.secret(), now=now[0], match_id=1).expires == 1010
    now[0] = 1009.0
    _seat, again = await identity.hello(match, {"key": renewed})
    now[0] = 1011.0
    with pytest.raises(NotAPlayer):
        await identity.hello(match, {"key": again})


async def test_streams_are_capped_and_a_finished_match_ends_its_stream(board: Board) -> None:
    live = board.server.pages.board.live  # type: ignore[union-attr]
    live.most = 2
    url = f"{board.base}/m/{await board.slug()}/play/live"
    async with board.session.get(url) as first, board.session.get(url) as second:
        await _next_event(first)
        await _next_event(second)
        async with board.session.get(url) as third:
            assert third.status == 503
            assert "Retry-After" in third.headers
            assert (await third.text()).startswith("Too many boards")
    state = await board.state()
    other = "bob" if _to_act(state) == "anna" else "anna"
    await board.room.command(_to_act(state), "/resign")
    await board.room.press(_to_act(state), "Resign")
    await board.room.press(other, "Accept")
    async with board.session.get(url) as stream:
        last = await _next_event(stream)
        assert last["finished"] is True
        assert (await asyncio.wait_for(stream.content.read(), 5.0)).strip() == b""  # ended


async def test_a_page_joining_late_is_brought_up_to_date(board: Board) -> None:
    """Another page moved the match's known version on; a page that read an older state
    before joining still gets the newest."""
    live = board.server.pages.board.live  # type: ignore[union-attr]
    first = await board.state()
    url = f"{board.base}/m/{await board.slug()}/play/live"
    async with board.session.get(url) as stream:
        await _next_event(stream)
        await board.room.command(_to_act(first), f"/move {_a_play(first)}")
        newer = await asyncio.wait_for(_next_event(stream), 5.0)
        async with live.watching(1, int(first["version"])) as late:
            event = await late.next(5.0)
            assert event is not None
            assert json.loads(event.data.split(b"data: ")[1])["version"] == newer["version"]


async def test_nested_or_piecemeal_bodies_are_read_or_refused_politely(board: Board) -> None:
    url = f"{board.base}/m/{await board.slug()}/play/hello"
    async with board.session.post(url, data=b"[" * 5000) as got:
        assert got.status == 400
        assert "cannot read" in (await got.json())["error"]

    async def pieces() -> AsyncIterator[bytes]:
        yield b'{"ke'
        await asyncio.sleep(0.2)
        yield b'y": "nonsense"}'

    async with board.session.post(url, data=pieces()) as got:
        assert got.status == 403  # read whole: a key, not a valid one
        assert "not valid" in (await got.json())["error"]


async def test_a_repeated_submit_posts_no_second_board(board: Board) -> None:
    state = await board.state()
    key = await board.key_of(_to_act(state))
    play = _a_play(state)
    assert (await board.act(key, "play", "twice-0123456789ab", state["version"], play=play))[
        0
    ] == 200
    boards = len(board.delivered)
    for _ in range(3):
        again = await board.act(key, "play", "twice-0123456789ab", state["version"], play=play)
        assert again[0] == 200
    assert len(board.delivered) == boards


async def test_answers_without_a_page_policy_still_refuse_framing(board: Board) -> None:
    async with board.session.get(f"{board.base}/m/{await board.slug()}/play/state") as got:
        assert got.headers["X-Frame-Options"] == "DENY"
