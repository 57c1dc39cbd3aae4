"""What goes into the command layer and what comes out, free of any chat platform.

Adapters turn platform updates into a :class:`Request` and the resulting :class:`Message`
effects into API calls; nothing here knows Discord or Telegram.
"""

from __future__ import annotations

from dataclasses import dataclass

from rendering import BoardView

MAX_TEXT = 500  # characters of a command's argument or a typed move that are read


@dataclass(frozen=True)
class Actor:
    """Who acts: a platform account (ids are strings on every platform)."""

    platform: str
    user_id: str
    name: str
    locale: str | None = None


@dataclass(frozen=True)
class ChatRef:
    platform: str
    chat_id: str
    private: bool = False
    locale: str | None = None

    def same_chat(self, other: ChatRef) -> bool:
        """Whether both name one chat (whatever else each knows of it)."""
        return (self.platform, self.chat_id) == (other.platform, other.chat_id)


@dataclass(frozen=True)
class Request:
    """A typed command (``command`` without the slash, ``argument`` the rest), a button press
    (``token``), or plain text (``text``: a move typed in a private chat or as a reply to a
    board). ``event_id`` is the id the platform gave this message or interaction; ``mentions``
    are the accounts the text mentions, resolved by the adapter. Whether the actor administers
    the chat is not part of it: the core asks the front-end's port when a command needs it
    (:mod:`bot.core.permissions`)."""

    actor: Actor
    chat: ChatRef
    command: str | None = None
    argument: str = ""
    token: str | None = None
    text: str | None = None
    event_id: str = ""
    mentions: tuple[Actor, ...] = ()


@dataclass(frozen=True)
class Button:
    label: str
    token: str


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(frozen=True)
class Message:
    """One message to post. ``private_to`` (a platform user id) makes it visible to that user
    only where the platform allows (refusals). ``slot`` names what the message is, e.g.
    ``board:12``: posting a new message in the same slot removes the old one's buttons.
    ``mention`` lists the users to notify; ``notify`` is the part of them who also want a
    private notification (preference on, private chat known to work). ``animation`` is an
    animated GIF shown inline (a game's replay). ``edit_pressed``: the answer to a button
    press that replaces the pressed message's picture, text and buttons (a replay stepped
    forward) instead of posting a new one. ``keep_pressed``: the message whose button was
    pressed is a record to keep (a match's end, under its [Rematch]): nothing of the answer
    takes its place. ``lead``: the line a board's text starts with,
    saying what was just played (kept when a newer board replaces this one before it is
    posted: see :func:`bot.core.match.presenter.followed_by`)."""

    chat: ChatRef
    text: str
    buttons: tuple[Button, ...] = ()
    image: bytes | None = None
    board: BoardView | None = None
    attachments: tuple[Attachment, ...] = ()
    mention: tuple[str, ...] = ()
    notify: tuple[str, ...] = ()
    private_to: str | None = None
    slot: str | None = None
    locale: str | None = None  # the language the text is in ("en", "de"), for adapters' own words
    animation: bytes | None = None
    edit_pressed: bool = False
    strip_previous: bool = True  # the message this one replaces in its slot may show buttons
    # (platform user id, text): what the private notification to that user says, in their
    # own language; a user of ``notify`` without one gets the message's text
    notices: tuple[tuple[str, str], ...] = ()
    keep_pressed: bool = False
    lead: str = ""

    def notice_for(self, user_id: str) -> str:
        return dict(self.notices).get(user_id, self.text)
