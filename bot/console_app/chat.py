"""The console protocol: ``NAME: TEXT`` lines in, bot messages out.

``alice: /challenge @bob 3`` sends a command as alice (users are created on first use);
``bob: [Accept]`` presses that button of the latest message showing it, or rather of the latest
that mentions bob if one does (a tournament's round announces several pairings at once, each
with a [Start] for its two players); a replay's steps also as ``[first]``, ``[back]``,
``[next]``, ``[last]``. ``#room alice: ...``
speaks in another chat (``#@alice`` is alice's private chat with the bot). Nobody administers
the console's group chats unless named as one (``CONSOLE_ADMINS=alice``, see
:class:`ConsoleAdmins`): their ``/defaults length 5`` and ``/chouette end`` are then accepted
as a chat administrator's. The bot itself plays
as ``gammonbot`` (``alice: /play 1``, or ``alice: /challenge @gammonbot 3``). Each bot message is
printed with who sees it, its text, its buttons as ``[Label]``, the path of its picture, and
an ASCII board. Without a terminal, every input line's output ends with a line ``--``; a
finished match's analysis is printed when it is ready, between two lines' outputs (or after the
last one), never holding up the answer to the move that ended the match.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from bot.console_app.ascii_board import ascii_board
from bot.core.computer.bot_accounts import DEFAULT_ID as BOT_ID
from bot.core.model import Actor, ChatRef, Message, Request
from bot.core.ports import ChatRequests

logger = logging.getLogger(__name__)

PLATFORM = "console"
_NAME = r"[^:\s]{1,32}"
# Names, mentions and chats have bounded lengths: a console mention once created a user with a
# 200,000-character name. A longer @word is no mention; a longer #chat no line.
_LINE = re.compile(rf"^(?:#(?P<chat>\S{{1,64}})\s+)?(?P<name>{_NAME}):\s?(?P<text>.*)$")
_MENTION = re.compile(rf"@(?P<name>{_NAME})")
_BUTTON = re.compile(r"^\[(?P<label>[^\]]{1,40})\]$")
# A replay's step buttons, also by words a keyboard types easily: [next], [back], ...
_STEP_WORDS = {"first": "⏮", "back": "◀", "next": "▶", "last": "⏭"}
# Lone surrogates (stdin decoded with surrogateescape) cannot be stored or printed as UTF-8.
_SURROGATE = re.compile("[\ud800-\udfff]")


def new_session() -> str:
    """What makes this session's event ids differ from every other session's on the same
    database: the match log refuses a second action with an id it holds (as it must for a
    platform's repeated update). Tests that need the same dice every run replace it."""
    return secrets.token_hex(4) + "-"


class ConsoleAdmins:
    """The core's :class:`~bot.core.permissions.AdminPort` on the console: the users named as
    administrators (the ``CONSOLE_ADMINS`` setting) administer every console chat."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self.names = frozenset(name.lower() for name in names)

    async def is_admin(self, actor: Actor, chat: ChatRef) -> bool:
        return actor.user_id in self.names


class ConsoleChat:
    def __init__(
        self,
        core: ChatRequests,
        out: TextIO,
        *,
        image_dir: Path | None = None,
        session: str | None = None,
        admins: Iterable[str] = (),
    ) -> None:
        core.register_admins(PLATFORM, ConsoleAdmins(admins))
        self.core = core
        self.out = out
        self.image_dir = image_dir
        self.buttons: dict[str, dict[str, str]] = {}  # chat → label → token
        # chat → (label, mentioned user) → token: the button meant for that user
        self.addressed: dict[str, dict[tuple[str, str], str]] = {}
        self.events = 0
        self.session = new_session() if session is None else session
        self.images = 0

    async def line(self, raw: str) -> None:
        """Handle one input line and print what the bot answers. Any text is safe to pass: lone
        surrogates become U+FFFD, as undecodable bytes do when the console reads them."""
        text = _SURROGATE.sub("\ufffd", raw).strip()
        if not text or text.startswith("//"):
            return
        found = _LINE.match(text)
        if not found:
            self.out.write("? write NAME: TEXT, e.g. alice: /challenge @bob 3\n")
            return
        chat_name = found.group("chat") or "main"
        name = found.group("name")
        body = found.group("text").strip()
        if name.lower() == BOT_ID:
            self.out.write(f"? {name} is the bot; write as someone else, e.g. alice: /play 3\n")
            return
        self.events += 1
        actor = Actor(PLATFORM, name.lower(), name, None)
        chat = ChatRef(PLATFORM, chat_name, private=chat_name.startswith("@"))
        request = self._request(actor, chat, body)
        if request is None:
            return
        for message in await self.core.handle(request):
            self.show(message)

    def _request(self, actor: Actor, chat: ChatRef, body: str) -> Request | None:
        event = f"console-{self.session}{self.events}"
        button = _BUTTON.match(body)
        if button:
            label = button.group("label").lower()
            label = _STEP_WORDS.get(label, label)
            token = self.addressed.get(chat.chat_id, {}).get((label, actor.user_id))
            token = token or self.buttons.get(chat.chat_id, {}).get(label)
            if token is None:
                self.out.write(f"? no [{button.group('label')}] button here\n")
                return None
            return Request(actor, chat, token=token, event_id=event)
        if body.startswith("/"):
            command, _, argument = body[1:].partition(" ")
            mentions = _mentions(argument)
            return Request(
                actor, chat, command=command, argument=argument, event_id=event, mentions=mentions
            )
        if chat.private:
            return Request(actor, chat, text=body, event_id=event)
        self.out.write("? in a group chat, moves start with /move\n")
        return None

    def show(self, message: Message) -> None:
        """Print one bot message (also used for the scheduler's reminders)."""
        audience = (
            f"only {message.private_to}" if message.private_to else f"#{message.chat.chat_id}"
        )
        mentions = " ".join(f"@{user}" for user in message.mention if user != BOT_ID)
        self.out.write(f"[bot → {audience}]{' ' + mentions if mentions else ''}\n")
        self.out.write(message.text + "\n")
        if message.buttons:
            remembered = self.buttons.setdefault(message.chat.chat_id, {})
            addressed = self.addressed.setdefault(message.chat.chat_id, {})
            for button in message.buttons:
                remembered[button.label.lower()] = button.token
                for user in message.mention:
                    addressed[(button.label.lower(), user)] = button.token
            self.out.write(" ".join(f"[{button.label}]" for button in message.buttons) + "\n")
        if message.animation is not None and self.image_dir is not None:
            self._save("animation", f"replay-{self.images:04d}.gif", message.animation)
        if message.image is not None and self.image_dir is not None:
            self.images += 1
            self._save("picture", self._picture_name(message), message.image)
        for attachment in message.attachments:
            if self.image_dir is not None:
                self._save("file", attachment.filename, attachment.data)
            else:
                self.out.write(f"(file: {attachment.filename}, {len(attachment.data)} bytes)\n")
        if message.board is not None:
            viewer = message.board.turn if message.board.turn is not None else 0
            self.out.write(ascii_board(message.board, viewer) + "\n")

    def _save(self, kind: str, name: str, data: bytes) -> None:
        """Write a picture or file into the image folder and say where. A write that fails (no
        space left, too many open files) is said instead, and logged: the message's text and
        text board are shown all the same, and the console goes on."""
        assert self.image_dir is not None
        path = self.image_dir / name
        try:
            self.image_dir.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            logger.warning("could not write %s: %s", path, reason)
            self.out.write(f"({kind} not saved: {reason})\n")
            return
        self.out.write(f"({kind}: {path})\n")

    def _picture_name(self, message: Message) -> str:
        """``board-0007.png`` for a board (numbered, so they sort as they came); a picture
        that comes with files of its own and shows no board (an analysis) is named like its
        first file: ``match-4-analysis.png`` next to ``match-4-analysis.txt``."""
        if message.board is None and message.attachments:
            stem = Path(message.attachments[0].filename).stem
            if stem:
                return f"{stem}.png"
        return f"board-{self.images:04d}.png"


def _mentions(argument: str) -> tuple[Actor, ...]:
    """The users an argument's ``@name`` words mention, named as console users can be (also
    as an option's value: ``organisers=@name``)."""
    found = (_MENTION.fullmatch(word.rpartition("=")[2]) for word in argument.split())
    return tuple(Actor(PLATFORM, match["name"].lower(), match["name"]) for match in found if match)
