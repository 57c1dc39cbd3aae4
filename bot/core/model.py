"""What goes into the command layer and what comes out, free of any chat platform.

Adapters turn platform updates into a :class:`Request` and the resulting :class:`Message`
effects into API calls; nothing here knows Discord or Telegram.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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
class Role:
    """A role of a chat's members (Discord's): the platform's id of it and its name."""

    role_id: str
    name: str


@dataclass(frozen=True)
class Request:
    """A typed command (``command`` without the slash, ``argument`` the rest), a button press
    (``token``), or plain text (``text``: a move typed in a private chat or as a reply to a
    board). ``event_id`` is the id the platform gave this message or interaction; ``mentions``
    are the accounts the text mentions, resolved by the adapter, and ``roles`` the member roles
    it mentions (on platforms that have them). Whether the actor administers
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
    roles: tuple[Role, ...] = ()


@dataclass(frozen=True)
class Button:
    """A button pressed with ``token``; ``page`` is the address of the match's board page a
    [Open board] button stands for (Telegram opens it as a Mini App where it can)."""

    label: str
    token: str
    page: str | None = None


@dataclass(frozen=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(frozen=True)
class Slot:
    """What a message is, e.g. ``board:12``: a newer message of the same slot takes its place,
    and the one it replaces loses its buttons (unless ``strip_previous`` is False: it is known
    to have none left, e.g. the board before a typed move)."""

    name: str
    strip_previous: bool = True

    def __post_init__(self) -> None:
        if not self.name:
            raise ValueError("a slot has a name")


@dataclass(frozen=True)
class Public:
    """For everyone in the chat: a new message (filling ``slot``, if any), or in place of the
    pressed message when that one would only lose its buttons."""

    slot: Slot | None = None


@dataclass(frozen=True)
class BesideRecord:
    """For everyone in the chat, answering a button under a record to keep (a match's end
    under its [Rematch]): a new message (filling ``slot``, if any), never in the pressed
    message's place."""

    slot: Slot | None = None


@dataclass(frozen=True)
class Private:
    """For ``user_id`` (a platform user id) alone, where the platform allows: a refusal, a
    panel, a receipt, or a preview filling ``slot`` (one user's previews of a match replace
    each other)."""

    user_id: str
    slot: Slot | None = None

    def __post_init__(self) -> None:
        if not self.user_id:
            raise ValueError("a private message is for someone")


@dataclass(frozen=True)
class Frame:
    """In place of the pressed message, for its readers: a replay stepped on (everyone:
    ``user_id`` None), a private list's next page (``user_id``); posted as a new message when
    the pressed one cannot be edited. It fills no slot."""

    user_id: str | None = None


Kind = Public | BesideRecord | Private | Frame
"""What a message is to the posting plan (:mod:`bot.core.posting`): who sees it and what it
does to the messages already in the chat. A closed set: the plan decides by kind."""


@dataclass(frozen=True)
class Message:
    """One message to post, of the ``kind`` that says who sees it and where it goes (a
    :class:`Public` message by default). ``mention`` lists the users to notify; ``notify`` is
    the part of them who also want a private notification (preference on, private chat known
    to work), and ``notices`` what that note says to each (platform user id, text), in their
    own language (a user of ``notify`` without one gets the message's text). ``image`` is a
    still picture, ``animation`` an animated GIF shown inline (a game's replay): one or the
    other. ``lead``: the line a board's text starts with, saying what was just played (kept
    when a newer board replaces this one before it is posted: see
    :func:`bot.core.match.presenter.followed_by`)."""

    chat: ChatRef
    text: str
    buttons: tuple[Button, ...] = ()
    image: bytes | None = None
    board: BoardView | None = None
    attachments: tuple[Attachment, ...] = ()
    mention: tuple[str, ...] = ()
    notify: tuple[str, ...] = ()
    locale: str | None = None  # the language the text is in ("en", "de"), for adapters' own words
    animation: bytes | None = None
    notices: tuple[tuple[str, str], ...] = ()
    lead: str = ""
    kind: Kind = Public()

    def __post_init__(self) -> None:
        if self.image is not None and self.animation is not None:
            raise ValueError("a message shows one picture: an image or an animation")
        if (self.mention or self.notify) and not isinstance(self.kind, Public | BesideRecord):
            raise ValueError("only a message for everyone in the chat calls anyone")
        if not set(self.notify) <= set(self.mention):
            raise ValueError("whoever gets a private note is mentioned too")
        if not {user for user, _text in self.notices} <= set(self.notify):
            raise ValueError("a private note's text is for someone who gets one")

    @property
    def private_to(self) -> str | None:
        """The user who alone sees it (a :class:`Private` message or frame), else None."""
        return self.kind.user_id if isinstance(self.kind, Private | Frame) else None

    @property
    def slot(self) -> str | None:
        """The name of the slot it fills, if any."""
        slot = _slot_of(self.kind)
        return None if slot is None else slot.name

    def notice_for(self, user_id: str) -> str:
        return dict(self.notices).get(user_id, self.text)


def _slot_of(kind: Kind) -> Slot | None:
    return None if isinstance(kind, Frame) else kind.slot


def slot_of(message: Message) -> Slot | None:
    """The slot ``message`` fills, if any."""
    return _slot_of(message.kind)


def in_place_of_pressed(message: Message) -> Message:
    """``message`` as the pressed message's next look (:class:`Frame`), for the same readers;
    a message that fills a slot or answers under a record to keep cannot be one."""
    kind = message.kind
    if isinstance(kind, Frame):
        return message
    if isinstance(kind, BesideRecord) or _slot_of(kind) is not None:
        raise ValueError(f"{kind} cannot take the pressed message's place")
    user_id = kind.user_id if isinstance(kind, Private) else None
    return replace(message, kind=Frame(user_id))


def beside_record(message: Message) -> Message:
    """``message`` answering a button under a record to keep: a public message never takes
    the pressed message's place; the others are as they were."""
    if isinstance(message.kind, Public):
        return replace(message, kind=BesideRecord(message.kind.slot))
    return message
