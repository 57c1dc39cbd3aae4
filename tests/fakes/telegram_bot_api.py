"""A fake Telegram Bot API: enough of the real one for a real ``Application`` to talk to.

One :class:`FakeBotApi` keeps chats, messages and callback queries and answers methods the way
Telegram does (including its error texts, e.g. "message is not modified"). It is reached either
in-process through :class:`FakeRequest` (a ``BaseRequest``), or over real HTTP on 127.0.0.1
through :class:`FakeBotServer`, which reads form-encoded and multipart bodies like the real
server. Both decode the fields the same way Telegram does: strings, with objects JSON-encoded.
"""

from __future__ import annotations

import asyncio
import email.message
import email.parser
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

from telegram.request import BaseRequest, RequestData

BOT_ID = 7000
BOT_USERNAME = "gammon_test_bot"
TOKEN = "7000:TEST-TOKEN"

_JSON_FIELDS = {
    "reply_markup",
    "media",
    "commands",
    "allowed_updates",
    "reply_parameters",
    "link_preview_options",
    "entities",
    "caption_entities",
}
_INT_FIELDS = {
    "chat_id",
    "message_id",
    "user_id",
    "offset",
    "limit",
    "timeout",
    "message_thread_id",
}
_BOOL_FIELDS = {"show_alert", "drop_pending_updates", "disable_notification"}

_MENTION = re.compile(r"(?<![\w@])@\w+")


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    files: dict[str, bytes]


@dataclass
class ApiError(Exception):
    status: int
    description: str


@dataclass
class Stored:
    """A message as the fake remembers it."""

    data: dict[str, Any]
    kind: str  # text, photo, document
    photo_bytes: int = 0
    history: list[str] = field(default_factory=list)  # texts/captions it had before


def decode_fields(raw: dict[str, str]) -> dict[str, Any]:
    """Form fields as Telegram reads them."""
    params: dict[str, Any] = {}
    for name, value in raw.items():
        if name in _JSON_FIELDS:
            params[name] = json.loads(value)
        elif name in _INT_FIELDS:
            params[name] = int(value)
        elif name in _BOOL_FIELDS:
            params[name] = value == "true"
        else:
            params[name] = value
    return params


class FakeBotApi:
    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.calls: list[Call] = []
        self.messages: dict[tuple[int, int], Stored] = {}
        self.last_message_id: dict[int, int] = {}
        self.updates: list[dict[str, Any]] = []
        self.update_id = 0
        self.query_id = 0
        self.queries: dict[str, int] = {}  # callback query id -> times answered
        self.unreachable: set[int] = set()  # users who never started the bot
        self.admins: set[tuple[int, int]] = set()
        self.forums: set[int] = set()  # supergroups that are forums (their messages in topics)
        self.topics: dict[tuple[int, int], str] = {}  # (forum, message_thread_id) -> name
        self.cannot_manage_topics: set[int] = set()  # forums where the bot lacks the right
        self.commands: dict[str, list[dict[str, str]]] = {}
        self.webhook: dict[str, Any] = {}
        self.closing = False
        self.floods = 0  # the next this many send* calls are refused: 429, retry after 1 s
        self.methods: dict[str, Callable[[dict[str, Any], dict[str, bytes]], Any]] = {
            "getMe": lambda params, files: self.bot_user(),
            "deleteWebhook": lambda params, files: True,
            "setWebhook": self._set_webhook,
            "setMyCommands": self._set_my_commands,
            "getUpdates": self._get_updates,
            "sendMessage": self._send_message,
            "sendPhoto": self._send_photo,
            "sendDocument": self._send_document,
            "sendAnimation": self._send_animation,
            "sendMediaGroup": self._send_media_group,
            "editMessageText": self._edit_text,
            "editMessageMedia": self._edit_media,
            "editMessageReplyMarkup": self._edit_markup,
            "answerCallbackQuery": self._answer_query,
            "getChatMember": self._get_chat_member,
            "createForumTopic": self._create_forum_topic,
        }

    # --- the API ------------------------------------------------------------------------

    def call(self, method: str, raw: dict[str, str], files: dict[str, bytes]) -> tuple[int, bytes]:
        """Answer one API call: (HTTP status, JSON body)."""
        params = decode_fields(raw)
        with self.condition:
            self.calls.append(Call(method, params, files))
            self.condition.notify_all()
        handler = self.methods.get(method)
        if method.startswith("send") and self.floods > 0:
            self.floods -= 1
            body = {
                "ok": False,
                "error_code": 429,
                "description": "Too Many Requests: retry after 1",
                "parameters": {"retry_after": 1},
            }
            return 429, json.dumps(body).encode()
        try:
            if handler is None:
                raise ApiError(404, "Not Found: method not found")
            with self.condition:
                result = handler(params, files) if method != "getUpdates" else None
            if method == "getUpdates":
                result = self._get_updates(params, files)
        except ApiError as error:
            body = {"ok": False, "error_code": error.status, "description": error.description}
            return error.status, json.dumps(body).encode()
        return 200, json.dumps({"ok": True, "result": result}).encode()

    def bot_user(self) -> dict[str, Any]:
        return {
            "id": BOT_ID,
            "is_bot": True,
            "first_name": "Gammon",
            "username": BOT_USERNAME,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }

    def _set_my_commands(self, params: dict[str, Any], files: dict[str, bytes]) -> bool:
        self.commands[params.get("language_code", "")] = params["commands"]
        return True

    def _set_webhook(self, params: dict[str, Any], files: dict[str, bytes]) -> bool:
        self.webhook = params
        return True

    def _get_updates(self, params: dict[str, Any], files: dict[str, bytes]) -> list[Any]:
        offset = params.get("offset", 0)
        wait = min(float(params.get("timeout", 0)), 5.0)
        with self.condition:
            self.condition.wait_for(
                lambda: self.closing or any(u["update_id"] >= offset for u in self.updates),
                timeout=wait,
            )
            return [update for update in self.updates if update["update_id"] >= offset]

    def _store(self, chat_id: int, kind: str, data: dict[str, Any]) -> dict[str, Any]:
        message_id = self.last_message_id.get(chat_id, 0) + 1
        self.last_message_id[chat_id] = message_id
        data = {
            "message_id": message_id,
            "date": 1_700_000_000,
            "chat": chat(chat_id, forum=chat_id in self.forums),
            **data,
        }
        self.messages[(chat_id, message_id)] = Stored(data, kind)
        return data

    def _in_topic(self, chat_id: int, thread_id: int | None) -> dict[str, Any]:
        """What a message in a forum's topic carries: its topic, and (unless it answers
        another message) a reply to the message that created the topic, as Telegram sends
        it. Elsewhere (a forum's General topic, an ordinary group) nothing."""
        if thread_id is None or chat_id not in self.forums:
            return {}
        if (chat_id, thread_id) not in self.topics:
            raise ApiError(400, "Bad Request: message thread not found")
        created = self.messages[(chat_id, thread_id)].data
        return {
            "message_thread_id": thread_id,
            "is_topic_message": True,
            "reply_to_message": created,
        }

    def _create_forum_topic(self, params: dict[str, Any], files: dict[str, bytes]) -> Any:
        """A topic: its id is the id of the service message that says it was created."""
        chat_id, name = params["chat_id"], str(params["name"])
        if chat_id not in self.forums:
            raise ApiError(400, "Bad Request: the chat is not a forum")
        if chat_id in self.cannot_manage_topics:
            raise ApiError(400, "Bad Request: not enough rights to create a topic")
        if not 1 <= len(name) <= 128:
            raise ApiError(400, "Bad Request: TOPIC_TITLE_EMPTY")
        topic = {"name": name, "icon_color": 7322096}
        with self.condition:
            created = self._store(chat_id, "service", {"from": self.bot_user()})
            thread_id = created["message_id"]
            created |= {
                "message_thread_id": thread_id,
                "is_topic_message": True,
                "forum_topic_created": topic,
            }
            self.topics[(chat_id, thread_id)] = name
        return {"message_thread_id": thread_id, **topic}

    def _outgoing(self, params: dict[str, Any], kind: str) -> dict[str, Any]:
        chat_id = params["chat_id"]
        if chat_id > 0 and chat_id in self.unreachable:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        data: dict[str, Any] = {"from": self.bot_user()}
        data |= self._in_topic(chat_id, params.get("message_thread_id"))
        markup = params.get("reply_markup")
        if markup and "inline_keyboard" in markup:
            for row in markup["inline_keyboard"]:
                for button in row:
                    if len(button.get("callback_data", "").encode()) > 64:
                        raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
            data["reply_markup"] = markup
        reply = params.get("reply_parameters")
        if reply and (chat_id, reply["message_id"]) in self.messages:
            data["reply_to_message"] = self.messages[(chat_id, reply["message_id"])].data
        return data

    def _send_message(self, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        data = self._outgoing(params, "text")
        data["text"] = params["text"]
        return self._store(params["chat_id"], "text", data)

    def _send_photo(self, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        data = self._outgoing(params, "photo")
        photo = files.get("photo")
        if not photo or not photo.startswith(b"\x89PNG"):
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        data["photo"] = [_photo_size(photo)]
        if "caption" in params:
            data["caption"] = params["caption"]
        stored = self._store(params["chat_id"], "photo", data)
        self.messages[(params["chat_id"], stored["message_id"])].photo_bytes = len(photo)
        return stored

    def _send_document(self, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        data = self._outgoing(params, "document")
        document = files.get("document")
        if document is None:
            raise ApiError(400, "Bad Request: there is no document in the request")
        data["document"] = {"file_id": f"doc{len(self.messages)}", "file_unique_id": "d"}
        return self._store(params["chat_id"], "document", data)

    def _send_media_group(
        self, params: dict[str, Any], files: dict[str, bytes]
    ) -> list[dict[str, Any]]:
        """An album: here only documents, each one message of the group."""
        media = params.get("media")
        if not isinstance(media, list) or not 2 <= len(media) <= 10:
            raise ApiError(400, "Bad Request: wrong number of media in the album")
        sent = []
        for item in media:
            attached = str(item.get("media", "")).removeprefix("attach://")
            if item.get("type") != "document" or attached not in files:
                raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
            data = self._outgoing(params, "document")
            data["document"] = {"file_id": f"doc{len(self.messages)}", "file_unique_id": "d"}
            data["media_group_id"] = "album"
            sent.append(self._store(params["chat_id"], "document", data))
        return sent

    def _send_animation(self, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        """Telegram plays a GIF inline (as it converts it to an MPEG-4 animation)."""
        data = self._outgoing(params, "animation")
        animation = files.get("animation")
        if not animation or not animation.startswith((b"GIF87a", b"GIF89a")):
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        data["animation"] = {
            "file_id": f"anim{len(self.messages)}",
            "file_unique_id": "a",
            "width": 640,
            "height": 480,
            "duration": 1,
            "mime_type": "video/mp4",
        }
        if "caption" in params:
            data["caption"] = params["caption"]
        stored = self._store(params["chat_id"], "animation", data)
        self.messages[(params["chat_id"], stored["message_id"])].photo_bytes = len(animation)
        return stored

    def _find(self, params: dict[str, Any]) -> Stored:
        stored = self.messages.get((params["chat_id"], params["message_id"]))
        if stored is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        return stored

    def _set_markup(self, stored: Stored, params: dict[str, Any]) -> None:
        markup = params.get("reply_markup")
        if markup and markup.get("inline_keyboard"):
            stored.data["reply_markup"] = markup
        else:
            stored.data.pop("reply_markup", None)

    def _edit_text(self, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        stored = self._find(params)
        if stored.kind != "text":
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        if stored.data["text"] == params["text"] and stored.data.get("reply_markup") == params.get(
            "reply_markup"
        ):
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message "
                "content and reply markup are exactly the same",
            )
        stored.history.append(stored.data["text"])
        stored.data["text"] = params["text"]
        self._set_markup(stored, params)
        return stored.data

    def _edit_media(self, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        stored = self._find(params)
        if stored.kind != "photo":
            raise ApiError(400, "Bad Request: there is no media in the message to edit")
        media = params["media"]
        attached = media["media"].removeprefix("attach://")
        photo = files.get(attached)
        if media.get("type") != "photo" or not photo:
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        stored.history.append(stored.data.get("caption", ""))
        stored.data["caption"] = media.get("caption", "")
        stored.data["photo"] = [_photo_size(photo)]
        stored.photo_bytes = len(photo)
        self._set_markup(stored, params)
        return stored.data

    def _edit_markup(self, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        stored = self._find(params)
        new = params.get("reply_markup") or None
        if new is not None and not new.get("inline_keyboard"):
            new = None
        if stored.data.get("reply_markup") == new:
            raise ApiError(
                400,
                "Bad Request: message is not modified: specified new message "
                "content and reply markup are exactly the same",
            )
        self._set_markup(stored, params)
        return stored.data

    def _answer_query(self, params: dict[str, Any], files: dict[str, bytes]) -> bool:
        query = params["callback_query_id"]
        if query not in self.queries or self.queries[query] > 0:
            raise ApiError(
                400,
                "Bad Request: query is too old and response timeout expired or query ID is invalid",
            )
        self.queries[query] += 1
        return True

    def _get_chat_member(self, params: dict[str, Any], files: dict[str, bytes]) -> dict[str, Any]:
        user = {"id": params["user_id"], "is_bot": False, "first_name": "someone"}
        if (params["chat_id"], params["user_id"]) in self.admins:
            return {"status": "creator", "user": user, "is_anonymous": False}
        return {"status": "member", "user": user}

    # --- what users do ------------------------------------------------------------------

    def _update(self, body: dict[str, Any], queue: bool) -> dict[str, Any]:
        with self.condition:
            self.update_id += 1
            update = {"update_id": self.update_id, **body}
            if queue:
                self.updates.append(update)
                self.condition.notify_all()
            return update

    def text(
        self,
        sender: dict[str, Any],
        chat_id: int,
        text: str,
        reply_to: int | None = None,
        queue: bool = False,
        topic: int | None = None,
    ) -> dict[str, Any]:
        """A user writes ``text`` (with the entities Telegram would find in it), in a forum's
        ``topic`` if given."""
        entities = []
        if text.startswith("/"):
            entities.append({"type": "bot_command", "offset": 0, "length": len(text.split()[0])})
        # A @username after the first word, wherever no letter or digit comes right before it
        # (``organisers=@carl`` mentions Carl, ``bob@example.org`` nobody).
        for found in _MENTION.finditer(text):
            if found.start() > 0:
                entities.append(
                    {
                        "type": "mention",
                        "offset": found.start(),
                        "length": found.end() - found.start(),
                    }
                )
        data: dict[str, Any] = {"from": sender, "text": text, "entities": entities}
        with self.condition:
            data |= self._in_topic(chat_id, topic)
        if reply_to is not None:
            data["reply_to_message"] = self.messages[(chat_id, reply_to)].data
        with self.condition:
            message = self._store(chat_id, "text", data)
        return self._update({"message": message}, queue)

    def press(
        self,
        sender: dict[str, Any],
        chat_id: int,
        message_id: int,
        data: str,
        queue: bool = False,
    ) -> dict[str, Any]:
        """A user presses a button with callback data ``data`` on a message."""
        with self.condition:
            self.query_id += 1
            query_id = f"q{self.query_id}"
            self.queries[query_id] = 0
            message = self.messages[(chat_id, message_id)].data
        query = {
            "id": query_id,
            "from": sender,
            "message": message,
            "chat_instance": f"ci{chat_id}",
            "data": data,
        }
        return self._update({"callback_query": query}, queue)

    # --- what tests read ----------------------------------------------------------------

    def of(self, method: str) -> list[Call]:
        with self.condition:
            return [call for call in self.calls if call.method == method]

    def in_chat(self, chat_id: int) -> list[Stored]:
        """The bot's messages in a chat, oldest first."""
        with self.condition:
            return [
                stored
                for (chat, _id), stored in sorted(self.messages.items())
                if chat == chat_id and stored.data.get("from", {}).get("id") == BOT_ID
            ]

    def in_topic(self, chat_id: int, topic: int | None) -> list[Stored]:
        """The bot's messages in a forum's topic (None: its General topic), oldest first,
        without the service message that created the topic."""
        return [
            stored
            for stored in self.in_chat(chat_id)
            if stored.kind != "service"
            and (
                stored.data.get("message_thread_id")
                if stored.data.get("is_topic_message")
                else None
            )
            == topic
        ]

    def wait_for(self, check: Callable[[], bool], timeout: float = 60.0) -> bool:
        with self.condition:
            return self.condition.wait_for(check, timeout=timeout)

    async def until(self, check: Callable[[], bool], timeout: float = 60.0) -> None:
        """Wait (without blocking the event loop) until ``check()`` holds after some call."""
        if not await asyncio.to_thread(self.wait_for, check, timeout):
            raise AssertionError("the fake Bot API did not see what the test waited for")

    def close(self) -> None:
        with self.condition:
            self.closing = True
            self.condition.notify_all()


def chat(chat_id: int, forum: bool = False) -> dict[str, Any]:
    if chat_id > 0:
        return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
    found: dict[str, Any] = {"id": chat_id, "type": "supergroup", "title": f"group{chat_id}"}
    if forum:
        found["is_forum"] = True
    return found


def user(user_id: int, first_name: str, username: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {
        "id": user_id,
        "is_bot": False,
        "first_name": first_name,
        "language_code": "en",
    }
    if username:
        found["username"] = username
    return found


def _photo_size(photo: bytes) -> dict[str, Any]:
    return {
        "file_id": f"photo{len(photo)}",
        "file_unique_id": f"p{len(photo)}",
        "width": 800,
        "height": 600,
        "file_size": len(photo),
    }


class FakeRequest(BaseRequest):
    """The in-process transport: what the HTTP client would send, handed to the fake."""

    def __init__(self, api: FakeBotApi) -> None:
        self.api = api

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        name = url.rsplit("/", 1)[-1]
        raw = request_data.json_parameters if request_data else {}
        files: dict[str, bytes] = {}
        if request_data is not None and request_data.contains_files:
            for part, (_filename, content, _mime) in request_data.multipart_data.items():
                files[part] = content if isinstance(content, bytes) else content.read()
        if name == "getUpdates":
            return await asyncio.to_thread(self.api.call, name, raw, files)
        return self.api.call(name, raw, files)


class FakeBotServer:
    """The fake over real HTTP on 127.0.0.1, as a local Bot API server.

    The server binds port 0 when it is made, so the OS picks a free port and nobody can take
    it in between; :attr:`base_url` reads the bound port back."""

    def __init__(self, api: FakeBotApi) -> None:
        self.api = api
        fake = api

        class Handler(BaseHTTPRequestHandler):
            # Connections kept open from one call to the next, as Telegram's servers do: a
            # new connection (and a thread here) for every call would be work the bot
            # never does in production.
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                if len(body) < length:
                    # The client went away mid-request (a test killed its process): the real
                    # server never sees such a request, so neither does the fake.
                    self.close_connection = True
                    return
                kind = self.headers.get("Content-Type", "")
                method = self.path.rsplit("/", 1)[-1]
                raw, files = _read_body(kind, body)
                status, answer = fake.call(method, raw, files)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, format: str, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}/bot"

    def __enter__(self) -> FakeBotServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.api.close()
        self.server.shutdown()
        self.server.server_close()


def _read_body(kind: str, body: bytes) -> tuple[dict[str, str], dict[str, bytes]]:
    """Form fields and uploaded files of a request body, as the real server reads them."""
    if kind.startswith("multipart/form-data"):
        return _read_multipart(kind, body)
    if kind.startswith("application/json"):
        return {key: str(value) for key, value in json.loads(body or b"{}").items()}, {}
    return dict(parse_qsl(body.decode(), keep_blank_values=True)), {}


def _read_multipart(kind: str, body: bytes) -> tuple[dict[str, str], dict[str, bytes]]:
    """A multipart/form-data body (RFC 7578) split at its boundary, each part's name and file
    name read from its Content-Disposition. Only the few header lines go through the
    standard library's header parsing: reading the whole body with :mod:`email`'s parser
    went over the uploaded PNG line by line, most of the fake's time under load."""
    boundary = _header_params(kind).get_param("boundary")
    if not isinstance(boundary, str):
        raise ValueError("a multipart body without a boundary")
    delimiter = b"\r\n--" + boundary.encode("latin-1")
    raw: dict[str, str] = {}
    files: dict[str, bytes] = {}
    parts = (b"\r\n" + body).split(delimiter)
    for part in parts[1:]:  # before the first delimiter: the preamble
        if part.startswith(b"--"):  # the close delimiter
            break
        _padding, _line_end, rest = part.partition(b"\r\n")
        head, _blank, data = (
            (b"", b"", rest[2:]) if rest[:2] == b"\r\n" else rest.partition(b"\r\n\r\n")
        )
        headers = email.parser.BytesHeaderParser().parsebytes(head)
        name = headers.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        if headers.get_filename() is not None:
            files[name] = data
        else:
            raw[name] = data.decode()
    return raw, files


def _header_params(value: str) -> email.message.Message:
    """A header value whose parameters :meth:`email.message.Message.get_param` reads."""
    message = email.message.Message()
    message["Content-Type"] = value
    return message
