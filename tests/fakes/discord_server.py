"""A small Discord on 127.0.0.1: the REST routes and the gateway a bot needs to play.

A real ``discord.Client`` logs in over HTTP, connects its WebSocket, receives READY and a
guild, and then gets the interactions a test sends (``slash``, ``click``, ``autocomplete``).
Everything the bot sends back is recorded as a :class:`Call` with its JSON and files, so
tests see exactly what went over the wire (attachments, components, allowed_mentions).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from aiohttp import BodyPartReader, WSMsgType, web

APPLICATION_ID = 900000000000000001
BOT_ID = 900000000000000002
GUILD_ID = 900000000000000003
CHANNEL_ID = 900000000000000004
THREAD_ID = 900000000000000005
OWNER_ID = 900000000000000006
MANAGE_GUILD = 1 << 5
# Two of the server's roles with one name (Discord allows it): a role is its id, not its name.
ORGANISERS_ROLE_ID = 900000000000000007
LOOKALIKE_ROLE_ID = 900000000000000008
ROLE_NAMES = {ORGANISERS_ROLE_ID: "Organisers", LOOKALIKE_ROLE_ID: "Organisers"}
EVERYONE_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 15) | (1 << 16)  # view, send, files, history
PUBLIC_THREAD = 11  # a channel type


def user_payload(user_id: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(user_id),
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


def role_payload(role_id: int, name: str, position: int) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "permissions": str(EVERYONE_PERMISSIONS if role_id == GUILD_ID else 0),
        "position": position,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": role_id != GUILD_ID,
        "flags": 0,
    }


def member_payload(user: dict[str, Any], roles: list[int], permissions: int) -> dict[str, Any]:
    """A server member as an interaction carries it: their roles' ids (never @everyone's) and
    their permissions in the channel."""
    return {
        "user": user,
        "roles": [str(role) for role in roles],
        "joined_at": "2026-01-01T00:00:00+00:00",
        "deaf": False,
        "mute": False,
        "flags": 0,
        "permissions": str(permissions),
    }


def _json(data: Any, status: int = 200) -> web.Response:
    """JSON the way Discord sends it (discord.py checks the exact content type)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


@dataclass
class Call:
    """One request the bot made."""

    method: str
    path: str
    json: dict[str, Any] | list[Any] | None
    files: dict[str, bytes] = field(default_factory=dict)
    at: float = field(default_factory=time.perf_counter)
    created: int | None = None  # the id of the message this call created


@dataclass
class Interaction:
    """One interaction the test sent, and when."""

    id: int
    token: str
    sent_at: float


class FakeDiscord:
    """REST under ``/api/v10`` and the gateway under ``/gateway``, on a random free port."""

    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.messages: dict[int, dict[str, Any]] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.closed_dms: set[int] = set()  # users whose DMs answer 403
        self.closed_channels: set[int] = set()  # channels the bot may not post in
        self.no_threads: set[int] = set()  # channels where the bot may not create threads
        self.threads: dict[int, dict[str, Any]] = {}  # threads the bot created, by id
        self._events: set[asyncio.Task[None]] = set()  # gateway events under way
        self.rejected_posts = 0  # how many of the next channel posts answer 400
        self.dm_channels: dict[int, int] = {}  # channel -> user
        self.commands: list[dict[str, Any]] = []
        self.token_channels: dict[str, int] = {}  # interaction token -> its channel
        self.token_messages: dict[str, int] = {}  # a click's token -> the clicked message
        self.edits: list[int] = []  # the ids of edited messages, in order
        self._created: int | None = None
        self.identified = 0
        self.shards: list[list[int] | None] = []  # each IDENTIFY's [shard, count]
        # Registered commands take their ids from a counter of their own, so that adding a
        # command never shifts the ids of interactions (and with them the client seeds and the
        # dice the tests expect). The main counter starts where it stood after the 17 commands
        # there were when those dice were written down.
        self._ids = itertools.count(1_200_000_000_000_000_000 + 17)
        self._command_ids = itertools.count(1_100_000_000_000_000_000)
        # Threads too (opening one draws no id the interactions' dice depend on).
        self._thread_ids = itertools.count(1_000_000_000_000_000_000)
        self._changed = asyncio.Condition()
        self._sockets: list[web.WebSocketResponse] = []
        self._sequence = 0
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle -------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/api/v10/gateway/bot", self._gateway_bot)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @contextmanager
    def routed(self) -> Iterator[None]:
        """Point discord.py's REST base and gateway at this server for the block."""
        base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = f"http://127.0.0.1:{self.port}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(
            f"ws://127.0.0.1:{self.port}/gateway"
        )
        try:
            yield
        finally:
            discord.http.Route.BASE = base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway

    def next_id(self) -> int:
        return next(self._ids)

    # --- waiting ---------------------------------------------------------------------

    async def wait_for(
        self, predicate: Callable[[Call], bool], *, after: int = 0, timeout: float = 60.0
    ) -> Call:
        """The first call (from index ``after`` on) that satisfies ``predicate``."""

        def found() -> Call | None:
            return next((call for call in self.calls[after:] if predicate(call)), None)

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: found() is not None), timeout)
        result = found()
        assert result is not None
        return result

    async def _record(self, call: Call) -> None:
        async with self._changed:
            self.calls.append(call)
            self._changed.notify_all()

    # --- gateway ---------------------------------------------------------------------

    async def _gateway_bot(self, request: web.Request) -> web.Response:
        await self._record(Call("GET", "/gateway/bot", None))
        return _json(
            {
                "url": f"ws://127.0.0.1:{self.port}/gateway",
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            }
        )

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_json({"op": 10, "d": {"heartbeat_interval": 45000}})
        try:
            async for frame in socket:
                if frame.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(frame.data)
                if payload["op"] == 1:
                    await socket.send_json({"op": 11})
                elif payload["op"] == 2:
                    self.identified += 1
                    self.shards.append(payload["d"].get("shard"))
                    await self._ready(socket, payload["d"].get("shard"))
        finally:
            self._sockets.remove(socket)
        return socket

    async def _dispatch(self, socket: web.WebSocketResponse, event: str, data: Any) -> None:
        self._sequence += 1
        await socket.send_json({"op": 0, "t": event, "s": self._sequence, "d": data})

    async def _ready(self, socket: web.WebSocketResponse, shard: list[int] | None) -> None:
        ready: dict[str, Any] = {
            "v": 10,
            "user": user_payload(BOT_ID, "gammonbot", bot=True),
            "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "session_id": "fake-session",
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(APPLICATION_ID), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if shard is not None:
            ready["shard"] = shard
        await self._dispatch(socket, "READY", ready)
        await self._dispatch(socket, "GUILD_CREATE", self.guild_payload())

    def guild_payload(self) -> dict[str, Any]:
        return {
            "id": str(GUILD_ID),
            "name": "Backgammon club",
            "unavailable": False,
            "owner_id": str(OWNER_ID),
            "preferred_locale": "en-US",
            "features": [],
            "emojis": [],
            "stickers": [],
            "member_count": 3,
            "roles": [
                role_payload(GUILD_ID, "@everyone", 0),
                *(
                    role_payload(role_id, name, position)
                    for position, (role_id, name) in enumerate(ROLE_NAMES.items(), 1)
                ),
            ],
            "channels": [
                {
                    "id": str(CHANNEL_ID),
                    "type": 0,
                    "name": "backgammon",
                    "position": 0,
                    "permission_overwrites": [],
                    "guild_id": str(GUILD_ID),
                }
            ],
            "threads": [
                {
                    "id": str(THREAD_ID),
                    "type": 11,
                    "name": "a long match",
                    "parent_id": str(CHANNEL_ID),
                    "guild_id": str(GUILD_ID),
                    "owner_id": str(OWNER_ID),
                    "thread_metadata": {
                        "archived": False,
                        "auto_archive_duration": 1440,
                        "archive_timestamp": "2026-01-01T00:00:00+00:00",
                        "locked": False,
                    },
                    "message_count": 0,
                    "member_count": 2,
                    "rate_limit_per_user": 0,
                }
            ],
            "members": [],
            "voice_states": [],
            "presences": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
        }

    async def send_event(self, event: str, data: Any) -> None:
        for socket in list(self._sockets):
            await self._dispatch(socket, event, data)

    # --- interactions ----------------------------------------------------------------

    def add_user(self, user_id: int, name: str) -> dict[str, Any]:
        self.users[user_id] = user_payload(user_id, name)
        return self.users[user_id]

    def _base(
        self,
        kind: int,
        user_id: int,
        data: dict[str, Any],
        channel_id: int | None,
        *,
        permissions: int = EVERYONE_PERMISSIONS,
        locale: str = "en-US",
        roles: list[int] | None = None,
    ) -> dict[str, Any]:
        interaction_id = self.next_id()
        user = self.users[user_id]
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": f"token-{interaction_id}",
            "version": 1,
            "data": data,
            "locale": locale,
            "app_permissions": str(EVERYONE_PERMISSIONS),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
        }
        self.token_channels[payload["token"]] = channel_id or self._dm_for(user_id)
        if channel_id is None:  # a DM with the bot
            dm = self._dm_for(user_id)
            payload |= {
                "channel_id": str(dm),
                "channel": {"id": str(dm), "type": 1, "recipients": [user]},
                "user": user,
                "context": 1,
            }
        else:
            payload |= {
                "channel_id": str(channel_id),
                "channel": self.threads.get(channel_id)
                or {
                    "id": str(channel_id),
                    "type": 11 if channel_id == THREAD_ID else 0,
                    "guild_id": str(GUILD_ID),
                    "name": "backgammon",
                    "position": 0,
                    "permission_overwrites": [],
                    "parent_id": str(CHANNEL_ID) if channel_id == THREAD_ID else None,
                },
                "guild_id": str(GUILD_ID),
                "guild_locale": "en-US",
                "guild": {"id": str(GUILD_ID), "locale": "en-US", "features": []},
                "member": member_payload(user, roles or [], permissions),
                "context": 0,
            }
        return payload

    async def _send_interaction(self, payload: dict[str, Any]) -> Interaction:
        sent = Interaction(int(payload["id"]), payload["token"], time.perf_counter())
        await self.send_event("INTERACTION_CREATE", payload)
        return sent

    async def slash(
        self,
        user_id: int,
        name: str,
        options: list[dict[str, Any]] | None = None,
        *,
        channel_id: int | None = CHANNEL_ID,
        resolved: dict[str, Any] | None = None,
        permissions: int = EVERYONE_PERMISSIONS,
        locale: str = "en-US",
        roles: list[int] | None = None,
    ) -> Interaction:
        """A slash command; ``roles``: the ids of the roles the member holds."""
        data: dict[str, Any] = {"id": str(self.next_id()), "name": name, "type": 1}
        if options:
            data["options"] = options
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(
            self._base(
                2, user_id, data, channel_id, permissions=permissions, locale=locale, roles=roles
            )
        )

    def resolved_role(self, role_id: int) -> dict[str, Any]:
        """An option's role as Discord resolves it for the interaction."""
        position = list(ROLE_NAMES).index(role_id) + 1
        return {"roles": {str(role_id): role_payload(role_id, ROLE_NAMES[role_id], position)}}

    def resolved_user(self, user_id: int) -> dict[str, Any]:
        """An option's member as Discord resolves it for the interaction."""
        member = member_payload(self.users[user_id], [], EVERYONE_PERMISSIONS)
        del member["user"]
        return {"users": {str(user_id): self.users[user_id]}, "members": {str(user_id): member}}

    async def say(
        self,
        user_id: int,
        text: str,
        *,
        mentions: list[int] | None = None,
        role_mentions: list[int] | None = None,
        roles: list[int] | None = None,
    ) -> None:
        """A member's message in the channel: ``mentions`` the users it mentions (the bot's
        id for one addressed to it), ``role_mentions`` the roles, ``roles`` the roles the
        author holds (a message carries no permissions: Discord's client computes them)."""
        message_id = self.next_id()
        member = member_payload(self.users[user_id], roles or [], EVERYONE_PERMISSIONS)
        del member["user"], member["permissions"]
        bot = user_payload(BOT_ID, "gammonbot", bot=True)
        named = [bot if user == BOT_ID else self.users[user] for user in mentions or []]
        await self.send_event(
            "MESSAGE_CREATE",
            {
                "id": str(message_id),
                "channel_id": str(CHANNEL_ID),
                "guild_id": str(GUILD_ID),
                "author": self.users[user_id],
                "member": member,
                "content": text,
                "timestamp": "2026-01-01T00:00:00+00:00",
                "edited_timestamp": None,
                "tts": False,
                "mention_everyone": False,
                "mentions": named,
                "mention_roles": [str(role) for role in role_mentions or []],
                "attachments": [],
                "embeds": [],
                "pinned": False,
                "type": 0,
                "flags": 0,
            },
        )

    async def autocomplete(
        self, user_id: int, name: str, option: str, typed: str, *, channel_id: int = CHANNEL_ID
    ) -> Interaction:
        data = {
            "id": str(self.next_id()),
            "name": name,
            "type": 1,
            "options": [{"name": option, "type": 3, "value": typed, "focused": True}],
        }
        return await self._send_interaction(self._base(4, user_id, data, channel_id))

    async def click(self, user_id: int, message_id: int, custom_id: str) -> Interaction:
        message = self.messages[message_id]
        channel_id = int(message["channel_id"])
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._base(
            3, user_id, data, None if channel_id in self.dm_channels else channel_id
        )
        payload["message"] = message
        self.token_messages[payload["token"]] = message_id
        return await self._send_interaction(payload)

    def _dm_for(self, user_id: int) -> int:
        for channel, user in self.dm_channels.items():
            if user == user_id:
                return channel
        channel = self.next_id()
        self.dm_channels[channel] = user_id
        return channel

    # --- REST ------------------------------------------------------------------------

    async def _read(self, request: web.Request) -> tuple[Any, dict[str, bytes]]:
        if request.content_type.startswith("multipart/"):
            payload: Any = None
            files: dict[str, bytes] = {}
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                data = await part.read()
                if part.name == "payload_json":
                    payload = json.loads(data)
                else:
                    files[part.filename or str(part.name)] = bytes(data)
            return payload, files
        if request.can_read_body:
            return await request.json(), {}
        return None, {}

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        payload, files = await self._read(request)
        call = Call(request.method, path, payload, files)
        self._created = None
        response = self._route(request.method, path, payload, files)
        call.created = self._created
        await self._record(call)
        return response

    def _route(
        self, method: str, path: str, payload: Any, files: dict[str, bytes]
    ) -> web.StreamResponse:
        parts = path.strip("/").split("/")
        if path == "/users/@me" and method == "GET":
            return _json(user_payload(BOT_ID, "gammonbot", bot=True))
        if path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": str(APPLICATION_ID),
                    "name": "gammonbot",
                    "description": "",
                    "icon": None,
                    "rpc_origins": [],
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": user_payload(OWNER_ID, "Owner"),
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "team": None,
                    "summary": "",
                }
            )
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            self.commands = [
                {
                    **command,
                    "id": str(next(self._command_ids)),
                    "application_id": str(APPLICATION_ID),
                    "version": "1",
                }
                for command in payload
            ]
            return _json(self.commands)
        if parts[0] == "interactions" and parts[-1] == "callback":
            return _json(
                {
                    "interaction": {
                        "id": parts[1],
                        "type": 2,
                        "response_message_loading": (payload or {}).get("type") == 5,
                        "response_message_ephemeral": bool(
                            ((payload or {}).get("data") or {}).get("flags", 0) & 64
                        ),
                    },
                    "resource": {"type": (payload or {}).get("type", 1)},
                }
            )
        if parts[0] == "webhooks":
            if method == "DELETE":
                return web.Response(status=204)
            clicked = self.token_messages.get(parts[2])
            if method == "PATCH" and parts[-1] == "@original" and clicked is not None:
                # After a deferred update, the original response is the clicked message.
                return _json(self._edit(clicked, payload, files))
            channel = self.token_channels.get(parts[2], 0)
            return _json(self._message(channel, payload, files, ephemeral=True))
        if path == "/users/@me/channels" and method == "POST":
            user_id = int(payload["recipient_id"])
            channel = self._dm_for(user_id)
            return _json({"id": str(channel), "type": 1, "recipients": [self.users.get(user_id)]})
        if parts[0] == "channels":
            return self._channel_route(method, parts, payload, files)
        return _json({"message": f"not faked: {method} {path}", "code": 0}, status=404)

    def _channel_route(
        self, method: str, parts: list[str], payload: Any, files: dict[str, bytes]
    ) -> web.StreamResponse:
        """/channels/{id}/…: messages posted and edited, threads started."""
        if parts[-1] == "messages" and method == "POST":
            channel = int(parts[1])
            if channel in self.closed_channels:
                return _json({"message": "Missing Permissions", "code": 50013}, status=403)
            if self.rejected_posts:
                self.rejected_posts -= 1
                return _json({"message": "Invalid Form Body", "code": 50035}, status=400)
            if self.dm_channels.get(channel) in self.closed_dms:
                return _json(
                    {"message": "Cannot send messages to this user", "code": 50007}, status=403
                )
            return _json(self._message(channel, payload, files))
        if parts[-1] == "threads" and method == "POST":
            return self._thread(int(parts[1]), payload)
        if len(parts) == 4 and method == "PATCH":
            message_id = int(parts[3])
            if message_id not in self.messages:
                return _json({"message": "Unknown Message", "code": 10008}, 404)
            return _json(self._edit(message_id, payload, files))
        return _json({"message": f"not faked: {method} /{'/'.join(parts)}", "code": 0}, status=404)

    def _thread(self, parent: int, payload: dict[str, Any]) -> web.Response:
        """POST /channels/{id}/threads without a message (Start Thread without Message): a
        thread of the guild's text channel, of the type asked (private unless said public);
        403 (Missing Permissions) where the bot may not create threads, 400 in a channel that
        is not a text channel. Its THREAD_CREATE goes out on the gateway, as Discord's does."""
        if parent in self.no_threads or parent in self.closed_channels:
            return _json({"message": "Missing Permissions", "code": 50013}, status=403)
        if parent != CHANNEL_ID:
            return _json({"message": "Invalid Form Body", "code": 50035}, status=400)
        name = str(payload["name"])
        if not 1 <= len(name) <= 100:
            return _json({"message": "Invalid Form Body", "code": 50035}, status=400)
        thread_id = next(self._thread_ids)
        thread = {
            "id": str(thread_id),
            "type": payload.get("type", 12),
            "name": name,
            "parent_id": str(parent),
            "guild_id": str(GUILD_ID),
            "owner_id": str(BOT_ID),
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": payload["auto_archive_duration"],
                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                "locked": False,
            },
            "message_count": 0,
            "member_count": 1,
            "rate_limit_per_user": 0,
        }
        self.threads[thread_id] = thread
        event = self.send_event("THREAD_CREATE", {**thread, "newly_created": True})
        self._events.add(task := asyncio.get_running_loop().create_task(event))
        task.add_done_callback(self._events.discard)
        return _json(thread, status=201)

    def _edit(self, message_id: int, payload: Any, files: dict[str, bytes]) -> dict[str, Any]:
        """A message edited: content, components and (given with the edit) attachments."""
        message = self.messages[message_id]
        if "components" in payload:
            message["components"] = payload["components"]
        if "content" in payload:
            message["content"] = payload["content"]
        if "attachments" in payload:
            message["attachments"] = self._attachments(files)
        self.edits.append(message_id)
        return message

    def _attachments(self, files: dict[str, bytes]) -> list[dict[str, Any]]:
        return [
            {
                "id": str(self.next_id()),
                "filename": name,
                "size": len(data),
                "url": f"http://127.0.0.1/{name}",
                "proxy_url": f"http://127.0.0.1/{name}",
            }
            for name, data in files.items()
        ]

    def _message(
        self,
        channel: int,
        payload: dict[str, Any] | None,
        files: dict[str, bytes],
        *,
        ephemeral: bool = False,
    ) -> dict[str, Any]:
        payload = payload or {}
        message_id = self.next_id()
        message = {
            "id": str(message_id),
            "channel_id": str(channel),
            "author": user_payload(BOT_ID, "gammonbot", bot=True),
            "content": payload.get("content") or "",
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(files),
            "embeds": [],
            "pinned": False,
            "type": 0,
            "components": payload.get("components", []),
            "flags": 64 if ephemeral else 0,
        }
        if channel in (CHANNEL_ID, THREAD_ID) or channel in self.threads:
            message["guild_id"] = str(GUILD_ID)
        self.messages[message_id] = message
        self._created = message_id
        return message
