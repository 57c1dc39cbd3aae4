"""What every part of the command layer shares about one request: who asks, where, in which
language; and two small helpers on what a step did and who wants private notices."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.core.computer.bot_accounts import DEFAULT_ID as BOT_ID
from bot.core.model import Actor, ChatRef, Message, Private, Request
from bot.core.permissions import AdminQuestion, Permission, permitted
from bot.core.text.direction import directed
from bot.core.text.i18n import Speech, room_locale, speech
from gammon import parse_play
from gammon.actions import Action, Move
from gammon.flow import MatchState
from rendering import LastPlay
from storage import ChatRecord, LoadedMatch, UserRecord

OwnMatchRead = tuple[LoadedMatch, dict[int, UserRecord]]


@dataclass
class OwnMatch:
    """The caller's active match in a group chat and its players (None: they play none
    there), when read along with who is speaking; :meth:`take` hands it over once."""

    read: bool = False
    found: OwnMatchRead | None = None

    def take(self) -> tuple[bool, OwnMatchRead | None]:
        """Whether it was read, and what was read; afterwards it counts as not read (a
        second look in the same request reads anew)."""
        taken = self.read, self.found
        self.read, self.found = False, None
        return taken


@dataclass(frozen=True)
class Context:
    request: Request
    user: UserRecord
    chat: ChatRecord
    locale: str  # the asking player's own language (refusals, /help, private notices)
    chat_locale: str  # the language of what the whole chat reads
    known_users: dict[int, UserRecord] = field(default_factory=dict)  # read once per request
    # Matches read while finding which one a command means, in the same trip: the driver's
    # first load of the match in this request takes it from here instead of reading again.
    found_matches: dict[int, LoadedMatch] = field(default_factory=dict)
    own_match: OwnMatch = field(default_factory=OwnMatch)
    # Whether the asker administers the chat: the platform is asked only if a command needs it.
    admin: AdminQuestion = field(default_factory=AdminQuestion)
    # Whether the chat's defaults name the asker an organiser (by name or by a role they hold).
    organiser: AdminQuestion = field(default_factory=AdminQuestion)

    @property
    def _(self) -> Speech:
        """The asking player's language: for what only they read."""
        return speech(self.locale)

    @property
    def for_chat(self) -> Speech:
        """The chat's language: for what everyone in the chat reads."""
        return speech(self.chat_locale)

    def outgoing(self, messages: list[Message]) -> list[Message]:
        """The answer as it leaves the core: each message names its language (the asker's for
        what only they see, else the chat's) and is laid out for that language's direction."""
        return [
            directed(
                message
                if message.locale
                else replace(
                    message, locale=self.locale if message.private_to else self.chat_locale
                )
            )
            for message in messages
        ]

    async def may(self, permission: Permission, owner_id: int | None = None) -> bool:
        """Whether the asker may act under ``permission``; ``owner_id`` is the user who opened
        what the action concerns (a chouette's host, a tournament's organiser)."""
        return await permitted(permission, self.admin, self.user.id, owner_id, self.organiser)

    def refuse(self, text: str) -> list[Message]:
        return [Message(self.request.chat, text, kind=Private(self.request.actor.user_id))]


def clock_context(chat: ChatRecord, where: ChatRef, locale: str) -> Context:
    """The clock acting in a chat (a time-up decided for a late player), as the bot's own
    account: nobody at the table caused it, so each board after it calls whoever it waits for,
    the late player too (they were away), as the end of a match calls both players."""
    bot = UserRecord(0, chat.platform, BOT_ID, BOT_ID, None, is_bot=True)
    actor = Actor(chat.platform, BOT_ID, BOT_ID)
    return Context(Request(actor, where), bot, chat, locale, locale)


def clock_context_in(chat: ChatRecord) -> Context:
    """:func:`clock_context` in ``chat``, in the language the whole chat reads."""
    where = ChatRef(chat.platform, chat.platform_chat_id, locale=chat.locale)
    return clock_context(chat, where, room_locale(chat))


def wants_private_notice(*users: UserRecord) -> tuple[str, ...]:
    """The platform ids of those users who want a private notification and can get one (the
    bot itself never does)."""
    return tuple(
        user.platform_user_id
        for user in users
        if user.prefs.notify and not user.unreachable and not user.is_bot
    )


def last_play(before: MatchState, recorded: tuple[Action, ...]) -> LastPlay | None:
    """The highlight for a play just recorded (the mover's own numbering)."""
    for action in recorded:
        if isinstance(action, Move) and before.dice is not None:
            play = action.value or parse_play(action.play, before.position, before.dice)
            return LastPlay.from_play(play, action.player)
    return None
