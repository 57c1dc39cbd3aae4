"""The Discord adapter under Discord's limits: API calls per half-turn, and click to board.

A real discord.py client logs in to the fake Discord of the tests on 127.0.0.1, with
discord.py's own rate-limit handling. The fake is wrapped here to enforce Discord's documented
channel limit, 5 messages per 5 seconds per channel: channel messages posted or edited
(``POST``/``PATCH /channels/{id}/messages…``) and webhook messages of interactions in that
channel (followups, ``@original``) share one window per channel; over it the fake answers 429
with ``retry_after``, and every counted answer carries the ``X-RateLimit-*`` headers
discord.py reads (``Limit``, ``Remaining``, ``Reset``, ``Reset-After``, ``Bucket``), so
discord.py also waits by itself before it would hit the limit.

Boards are drawn as in production (pictures on, the painter started), the server seeds are the
tests' fixed ones and the players' choices come from a seeded RNG, so runs repeat. Scripted
people play 3-point matches with the cube (see ``benchmarks/budget.py``), each acting
``--pace`` seconds after the board they need appeared. Each interaction is numbered; the
number rides with the client's tasks (a context variable set while discord.py reads the
interaction) into a request header, so every call counts for the update that caused it.

Scenarios (``--scenarios``):

- ``one``: one match in a channel. Per half-turn (the run of consecutive updates of one
  player), the calls the channel limit counts (above; not the interaction callbacks, not DMs),
  and the DMs (private notifications). Also the time from each update to the board the next
  player needs.
- ``two``: two matches in the same channel at once (four people): click to board.
- ``private``: ``/play 1`` against the bot in a DM: calls in that DM per half-turn.

Prints a short summary and, as its last line, one JSON object.

    python benchmarks/discord_adapter.py [--pace 5] [--half-turns 0] [--scenarios one,two,private]
    python benchmarks/discord_adapter.py --pace 1 --half-turns 40    # a few minutes
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import logging
import math
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
from aiohttp import web
from pydantic import SecretStr

from benchmarks.budget import (
    CAUSE,
    Driver,
    Ledger,
    Options,
    Referee,
    Seat,
    Sent,
    Table,
    Update,
    add_arguments,
    half_turn_lines,
    options_from,
    play_scenarios,
    scenario_figures,
    summary_lines,
)
from bot.config import Settings
from bot.core.service import Core
from bot.discord_app import DiscordAdapter
from storage import Database
from tests.fakes.discord_server import CHANNEL_ID, GUILD_ID, Call, FakeDiscord, Interaction
from tests.seeds import fixed_seeds

PLATFORM = "discord"
CHANNEL_LIMIT = 5  # messages per channel and window
CHANNEL_WINDOW_S = 5.0
BUCKET = "bench-channel-messages"
CAUSE_HEADER = "X-Bench-Cause"
SETTLE_S = 6.0  # no call for this long: the bot is done (a rate-limit wait is at most 5 s)
MAX_REQUEST_BYTES = 10 * 10 * 1024 * 1024  # up to 10 files of Discord's 10 MiB
PICTURE_ENDINGS = (".png", ".gif", ".jpg", ".jpeg", ".webp")

logger = logging.getLogger("benchmarks.discord_adapter")

# While the fake handles a request: the update it came from, and the calls logged for it.
SERVER_CAUSE: contextvars.ContextVar[tuple[int | None, list[Sent]]] = contextvars.ContextVar(
    "server_cause", default=(None, [])
)


class LimitedDiscord(FakeDiscord):
    """The tests' fake Discord with the channel limit in force, logging every call with the
    update that caused it."""

    def __init__(self, ledger: Ledger) -> None:
        super().__init__()
        self.ledger = ledger
        self.causes: dict[str, int | None] = {}  # interaction id -> update number
        self.windows: dict[int, tuple[float, int]] = {}  # channel -> (window start, used)
        self.refused = 0  # 429 answers

    async def start(self) -> None:
        """As the fake's, taking requests as large as Discord does (aiohttp's default of
        1 MiB refuses the replay GIF of a long game, which Discord takes)."""
        await super().start()
        assert self._runner is not None
        self._runner.app._client_max_size = MAX_REQUEST_BYTES

    async def _send_interaction(self, payload: dict[str, Any]) -> Interaction:
        self.causes[str(payload["id"])] = CAUSE.get()
        return await super()._send_interaction(payload)

    def limited_channel(self, method: str, path: str) -> int | None:
        """The channel whose message limit this request counts against, if any."""
        if method not in ("POST", "PATCH"):
            return None
        parts = path.strip("/").split("/")
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            return int(parts[1])
        if parts[0] == "webhooks" and len(parts) >= 3:
            return self.token_channels.get(parts[2])
        return None

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        channel = self.limited_channel(request.method, path)
        headers: dict[str, str] = {}
        if channel is not None:
            now = time.perf_counter()
            start, used = self.windows.get(channel, (now, 0))
            if now >= start + CHANNEL_WINDOW_S:
                start, used = now, 0
            reset_after = math.ceil((start + CHANNEL_WINDOW_S - now) * 1000) / 1000
            if used >= CHANNEL_LIMIT:
                self.refused += 1
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": reset_after,
                    "global": False,
                }
                return web.Response(
                    body=json.dumps(body).encode(),
                    status=429,
                    headers={
                        "Content-Type": "application/json",
                        "Via": "1.1 google",
                        **rate_headers(0, reset_after),
                    },
                )
            used += 1
            self.windows[channel] = (start, used)
            headers = rate_headers(CHANNEL_LIMIT - used, reset_after)
        parts = path.strip("/").split("/")
        edited = int(parts[3]) if len(parts) == 4 and parts[3].isdigit() else None
        had_buttons = bool(self.messages.get(edited or 0, {}).get("components"))
        raw = request.headers.get(CAUSE_HEADER)
        logged: list[Sent] = []
        token = SERVER_CAUSE.set((int(raw) if raw else None, logged))
        try:
            response = await super()._rest(request)
        finally:
            SERVER_CAUSE.reset(token)
        for sent in logged:
            # Refused, or a strip of buttons the message did not have (changes nothing).
            stripped_nothing = sent.kind.endswith("strip buttons") and not had_buttons
            sent.ok = response.status < 300 and not stripped_nothing
        response.headers.update(headers)
        return response

    async def _record(self, call: Call) -> None:
        await super()._record(call)
        cause, logged = SERVER_CAUSE.get()
        sent = self.describe(call, cause)
        logged.append(sent)
        self.ledger.add(sent)

    def describe(self, call: Call, cause: int | None) -> Sent:
        parts = call.path.strip("/").split("/")
        payload = call.json if isinstance(call.json, dict) else {}
        pictures = [name for name in call.files if name.lower().endswith(PICTURE_ENDINGS)]
        chat: int | None = None
        message: int | None = None
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            chat = int(parts[1])
            message = call.created if len(parts) < 4 or not parts[3].isdigit() else int(parts[3])
        elif parts[0] == "webhooks" and len(parts) >= 3 and call.method in ("POST", "PATCH"):
            chat = self.token_channels.get(parts[2])
            message = call.created or self.token_messages.get(parts[2])
        private = chat is not None and chat in self.dm_channels
        return Sent(
            at=call.at,
            cause=cause,
            chat=None if chat is None else str(chat),
            private=private,
            kind=kind_of(call, parts, payload, pictures, private),
            image=bool(pictures),
            text=str(payload.get("content") or ""),
            message=None if message is None else str(message),
            labels=labels_of(payload),
        )


def rate_headers(remaining: int, reset_after: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(CHANNEL_LIMIT),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": BUCKET,
        "X-RateLimit-Scope": "shared",
    }


def labels_of(payload: dict[str, Any]) -> tuple[str, ...]:
    return tuple(
        str(component.get("label"))
        for row in payload.get("components") or []
        for component in row.get("components", [])
        if "custom_id" in component
    )


def kind_of(
    call: Call, parts: list[str], payload: dict[str, Any], pictures: list[str], private: bool
) -> str:
    """What a call is, for the breakdown."""
    if parts[0] == "interactions":
        return "interaction callback"
    if parts[0] == "webhooks":
        return f"webhook {call.method}" + (" @original" if parts[-1] == "@original" else "")
    if parts[0] != "channels" or len(parts) < 3 or parts[2] != "messages":
        return f"{call.method} /{parts[0]}"
    where = "DM " if private else ""
    if call.method == "PATCH":
        if payload.get("components") == [] and not call.files and "content" not in payload:
            return f"{where}PATCH strip buttons"
        return f"{where}PATCH " + ("board" if pictures else "edit")
    if any(name.endswith(".png") for name in pictures):
        return f"{where}POST board"
    if pictures:
        return f"{where}POST replay GIF"
    if call.files:
        return f"{where}POST files"
    return f"{where}POST text"


def cause_tracing() -> aiohttp.TraceConfig:
    """Every request the client makes carries the number of the update it answers."""
    trace = aiohttp.TraceConfig()

    async def on_start(
        session: aiohttp.ClientSession, context: Any, params: aiohttp.TraceRequestStartParams
    ) -> None:
        cause = CAUSE.get()
        if cause is not None:
            params.headers[CAUSE_HEADER] = str(cause)

    trace.on_request_start.append(on_start)
    return trace


def carry_causes(adapter: DiscordAdapter, fake: LimitedDiscord) -> None:
    """While discord.py reads an interaction (and starts the tasks that answer it), the
    context holds its update's number; the tasks inherit it."""
    client = getattr(adapter, "client", None)
    parsers = getattr(getattr(client, "_connection", None), "parsers", None)
    if not isinstance(parsers, dict) or "INTERACTION_CREATE" not in parsers:
        logger.warning("cannot number the interactions: calls are matched by time")
        return
    original = parsers["INTERACTION_CREATE"]

    def tagged(data: dict[str, Any]) -> None:
        token = CAUSE.set(fake.causes.get(str(data.get("id"))))
        try:
            original(data)
        finally:
            CAUSE.reset(token)

    parsers["INTERACTION_CREATE"] = tagged


class DiscordBench:
    platform = PLATFORM

    def __init__(self, fake: LimitedDiscord, ledger: Ledger) -> None:
        self.fake = fake
        self.ledger = ledger

    async def _send(self, update: Update, sending: Any) -> None:
        token = CAUSE.set(update.number)
        try:
            sent: Interaction = await sending
        finally:
            CAUSE.reset(token)
        update.sent_at = sent.sent_at

    @staticmethod
    def _where(table: Table) -> int | None:
        return None if table.against_bot else int(table.chat)

    async def challenge(self, update: Update, opponent: Seat, length: int) -> None:
        user = self.fake.users[int(opponent.user_id)]
        options = [
            {"name": "opponent", "type": 6, "value": opponent.user_id},
            {"name": "length", "type": 4, "value": length},
        ]
        sending = self.fake.slash(
            int(update.seat.user_id),
            "challenge",
            options,
            channel_id=self._where(update.table),
            resolved={"users": {opponent.user_id: user}},
        )
        await self._send(update, sending)

    async def play_bot(self, update: Update, length: int) -> None:
        options = [{"name": "length", "type": 4, "value": length}]
        sending = self.fake.slash(
            int(update.seat.user_id), "play", options, channel_id=self._where(update.table)
        )
        await self._send(update, sending)

    async def move(self, update: Update, play: str) -> None:
        options = [{"name": "play", "type": 3, "value": play}]
        sending = self.fake.slash(
            int(update.seat.user_id), "move", options, channel_id=self._where(update.table)
        )
        await self._send(update, sending)

    async def press(self, update: Update, label: str, near: Sent | None) -> None:
        message_id, custom_id = self._button(update.table, label, near)
        await self._send(update, self.fake.click(int(update.seat.user_id), message_id, custom_id))

    def _button(self, table: Table, label: str, near: Sent | None) -> tuple[int, str]:
        """The button with this label: on the board the player looks at, else the newest in
        the chat on a message about this match, else the newest in the chat."""
        stored = [
            (message_id, message)
            for message_id, message in sorted(self.fake.messages.items(), reverse=True)
            if message.get("channel_id") == table.chat
        ]
        looked_at = [item for item in stored if near is not None and str(item[0]) == near.message]
        about = [item for item in stored if table.names_in(str(item[1].get("content")))]
        for message_id, message in [*looked_at, *about, *stored]:
            for row in message.get("components") or []:
                for component in row.get("components", []):
                    if component.get("label") == label and "custom_id" in component:
                        return message_id, str(component["custom_id"])
        raise RuntimeError(f"no [{label}] button in channel {table.chat}")

    def settled(self, update: Update) -> bool:
        mine = self.ledger.caused_by(update)
        last = max([update.sent_at, *(call.at for call in mine)])
        return bool(mine) and time.perf_counter() - last > SETTLE_S

    async def settle(self) -> None:
        await self.ledger.quiet(SETTLE_S)


async def run(folder: Path, options: Options, scenarios: set[str]) -> dict[str, Any]:
    started = time.perf_counter()
    ledger = Ledger()
    fake = LimitedDiscord(ledger)
    await fake.start()
    people = ("Anna", "Bob", "Carl", "Dora", "Emil", "Fred", "Gina")
    seats = {}
    for number, name in enumerate(people, start=1):
        user_id = 700000000000000000 + number
        fake.add_user(user_id, name)
        seats[name] = Seat(str(user_id), name, name.lower())
    database = Database(f"sqlite+aiosqlite:///{folder / 'bench.db'}")
    await database.migrate()
    core = Core(database, server_seeds=fixed_seeds())  # pictures on, as in production
    await core.ports.workers.start()  # as the host does at start
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token=SecretStr("fake-token"),
        discord_guild_id=GUILD_ID,
    )
    client_options = {"guild_ready_timeout": 0, "http_trace": cause_tracing()}
    adapter = DiscordAdapter(core, settings=settings, client_options=client_options)
    carry_causes(adapter, fake)
    bench = DiscordBench(fake, ledger)
    driver = Driver(bench, Referee(database, PLATFORM), options)
    channel = str(CHANNEL_ID)
    one = [Table("one", channel, (seats["Anna"], seats["Bob"]))] if "one" in scenarios else []
    two = [
        Table("two-a", channel, (seats["Carl"], seats["Dora"])),
        Table("two-b", channel, (seats["Emil"], seats["Fred"])),
    ]
    two = two if "two" in scenarios else []
    gina = seats["Gina"]
    dm = str(fake._dm_for(int(gina.user_id)))
    private = [Table("private", dm, (gina,), against_bot=True)] if "private" in scenarios else []
    with fake.routed():
        await adapter.start()
        try:
            await play_scenarios(driver, core.ports.workers.computer, one, two, private)
        finally:
            await adapter.stop()
            await fake.stop()
            core.ports.workers.computer.close()
            core.ports.workers.painter.close()
            await database.close()
    figures: dict[str, Any] = {"platform": PLATFORM, "pace_s": options.pace}
    figures["half_turn_limit"] = options.half_turns or None
    figures.update(scenario_figures(ledger, one, two, private))
    if options.verbose:
        print("\n".join(half_turn_lines(ledger, [*one, *two, *private])), file=sys.stderr)
    figures["rate_limited_429"] = fake.refused
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_arguments(parser)
    options, scenarios = options_from(parser.parse_args())
    logging.basicConfig(level=logging.ERROR)
    logging.getLogger("benchmarks").setLevel(logging.WARNING)  # a board that never came
    with tempfile.TemporaryDirectory() as folder:
        figures = asyncio.run(run(Path(folder), options, scenarios))
    for line in summary_lines(figures):
        print(line)
    print(f"429 answers: {figures['rate_limited_429']}; {figures['seconds']} s in all")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
