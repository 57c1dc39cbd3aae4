"""The posting plan: what an adapter does with each outgoing message.

Both adapters follow one policy, decided here as pure functions over plain values; they carry
the plan out with their platform's calls and do not call back into the core meanwhile. What a
batch of messages needs from the database (the messages that fill the slots now, the names of
the users to link) comes in a :class:`Posting` read before the first call (see
:meth:`bot.core.delivery.Delivery.prepare`); what the adapter learns (the new messages of the
slots, who cannot be sent private notes) goes back in one call after the last
(:meth:`bot.core.delivery.Delivery.posted`).

The plan decides by the message's kind (:data:`bot.core.model.Kind`): :class:`Private` (for
one user), :class:`Frame` (in place of the pressed message), :class:`Public` and
:class:`BesideRecord` (for everyone, the second never in the pressed message's place), each
maybe filling a slot. The policy, in the order :func:`plan_message` tries it, with as few calls
into the chat as it takes:

- a private answer to the presser is a toast (Telegram) or an ephemeral message (Discord); on
  Discord other private messages are direct messages, or a reply to a typed command in a
  channel; on Telegram a private answer goes to the private chat the request came from, edits
  the pressed panel it answers (``/settings``), or replies to the user's message;
- a frame (a replay stepped on, a list's next page) shows in the pressed message;
- a board that calls nobody replaces its slot's previous message in place;
- a public message that calls nobody replaces a pressed message that would lose its buttons
  anyway (not beside a record to keep: a match's end);
- else a new message, which fills its slot: the message it replaces loses its buttons (if it
  may have any), and the users to notify get a private note.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum

from bot.core.model import Frame, Message, Public, slot_of


class Route(Enum):
    """Where a message goes."""

    CHAT = "chat"  # into a chat: the plan's edits in order, else a new message
    TOAST = "toast"  # the answer to the pressed button itself (Telegram's callback answer)
    EPHEMERAL = "ephemeral"  # visible to the presser alone, in the chat (Discord)
    DIRECT = "direct"  # a direct message to ``private_to`` (Discord)
    REPLY = "reply"  # a text reply to the command typed in a channel (Discord)
    FRAME = "frame"  # the pressed message, through the pressed button's interaction (Discord)


class Target(Enum):
    """Which existing message an edit changes."""

    PANEL = "panel"  # the pressed private panel: its text and buttons, for its one reader
    FRAME = "frame"  # the pressed message shows the next frame of a replay, for its reader
    SLOT = "slot"  # the message filling the slot: it becomes this message
    PRESSED = "pressed"  # the pressed message becomes this message and fills the slot


@dataclass(frozen=True)
class Edit:
    """One edit to try; when the platform refuses it, the plan goes on with the next."""

    target: Target
    chat_id: str
    message_id: str

    @property
    def for_its_reader(self) -> bool:
        """Shown as the one who pressed sees it: no mentions, no group-only buttons, and
        nothing follows (no files, no notes, no slot)."""
        return self.target in (Target.PANEL, Target.FRAME)

    @property
    def text_only(self) -> bool:
        """Only the text and the buttons change (a panel has no picture)."""
        return self.target is Target.PANEL


@dataclass(frozen=True)
class Plan:
    """What to do with one message. ``edits`` are tried in order; the first that works is
    the message, else a new one is sent."""

    route: Route
    chat_id: str
    edits: tuple[Edit, ...] = ()
    reply_to: str | None = None  # the user's message a new message answers
    group: bool = False  # in a group chat (Telegram links the mentioned users' names there)
    slot: str | None = None  # what the message is (``board:12``): a newer one replaces it
    invite_reply: bool = False  # a board that waits for a typed move: invite a reply (Telegram)
    notify: tuple[str, ...] = ()  # who gets a private note once the message is there


@dataclass(frozen=True)
class Origin:
    """The update a batch of messages answers (all empty: the clock's messages)."""

    chat_id: str | None = None  # the chat of the update
    user_id: str | None = None  # who typed or pressed
    message_id: str | None = None  # the typed message, for replies
    pressed_id: str | None = None  # the pressed message, when the answer may edit it
    pressed_has_media: bool | None = None  # it shows a picture (None: an edit may add one)
    private_chat_id: str | None = None  # the request came from this private chat (deep link)
    press: bool = False  # a button press (not a typed command)
    interaction: bool = False  # an interaction to answer, ephemerally (Discord)
    private: bool = False  # the update came from a private chat


@dataclass(frozen=True)
class Platform:
    """What a platform can do, as far as the plan depends on it."""

    name: str
    ephemeral: bool  # can show a message to one user in a chat (Discord)
    strips_pressed: bool  # the pressed message loses its buttons after a public answer
    strips_touched: bool  # strip a slot's previous message even when it shows this answer
    names_mentions: bool  # mentions are links with the users' names (Telegram)


TELEGRAM = Platform(
    "telegram", ephemeral=False, strips_pressed=True, strips_touched=False, names_mentions=True
)
DISCORD = Platform(
    "discord", ephemeral=True, strips_pressed=False, strips_touched=True, names_mentions=False
)


@dataclass(frozen=True)
class Recipient:
    """A user as an adapter delivers to them."""

    platform_user_id: str
    name: str
    locale: str  # the language to write to them in
    reachable: bool  # private messages to them have not been refused


@dataclass(frozen=True)
class Filled:
    """A slot's new message, to record after posting."""

    chat_id: str
    slot: str
    message_id: str
    replaced: str | None  # the message it replaced, as known when posting
    strip_previous: bool  # ... which may show buttons


SlotKey = tuple[str, str]  # (chat id, slot)


def route_of(message: Message, origin: Origin, platform: Platform) -> Route:
    """Where ``message`` goes (see the module's description)."""
    kind = message.kind
    if isinstance(kind, Frame) and platform.ephemeral and origin.press and origin.interaction:
        return Route.FRAME  # through the interaction of the pressed button
    user = message.private_to
    if user is None:
        return Route.CHAT
    if not platform.ephemeral:
        return Route.TOAST if is_toast(message, origin) else Route.CHAT
    if origin.interaction and user == origin.user_id:
        return Route.EPHEMERAL
    if not origin.interaction and origin.message_id is not None and not origin.private:
        return Route.REPLY
    return Route.DIRECT


def is_toast(message: Message, origin: Origin) -> bool:
    """A few words for the presser alone: the answer to the press itself."""
    return (
        origin.press
        and message.private_to == origin.user_id
        and not (message.buttons or message.image or message.attachments)
    )


def plan_message(
    message: Message,
    origin: Origin,
    platform: Platform,
    slots: Mapping[SlotKey, str],
    touched: Iterable[str] = (),
) -> Plan:
    """The plan for ``message``, given the messages filling the slots now and the messages this
    batch has already posted, edited or stripped (``touched``)."""
    route = route_of(message, origin, platform)
    if route is not Route.CHAT:
        return Plan(route, message.chat.chat_id)
    chat_id, reply_to, panel = _destination(message, origin)
    group = not message.chat.private and chat_id == message.chat.chat_id
    slot = message.slot
    previous = None if slot is None else slots.get((chat_id, slot))
    edits = [] if panel is None else [panel]
    edits.extend(_edits(message, origin, chat_id, previous, set(touched)))
    return Plan(
        route,
        chat_id,
        tuple(edits),
        reply_to=reply_to,
        group=group,
        slot=slot,
        invite_reply=group and _waits_for_a_typed_move(message),
        notify=message.notify if group else (),
    )


def _edits(
    message: Message, origin: Origin, chat_id: str, previous: str | None, touched: set[str]
) -> list[Edit]:
    """The edits to try in the chat, in order: the pressed message's next frame, the slot's
    previous message, the pressed message."""
    pressed = origin.pressed_id if origin.chat_id == chat_id else None
    edits = []
    if isinstance(message.kind, Frame) and pressed is not None:
        edits.append(Edit(Target.FRAME, chat_id, pressed))
    if previous is not None and not message.mention:
        edits.append(Edit(Target.SLOT, chat_id, previous))
    if pressed is not None and pressed not in touched and _may_become(message, origin):
        edits.append(Edit(Target.PRESSED, chat_id, pressed))
    return edits


def _waits_for_a_typed_move(message: Message) -> bool:
    """A board without buttons that calls a player: the move is to be typed."""
    return bool(message.mention) and message.image is not None and not message.buttons


def _destination(message: Message, origin: Origin) -> tuple[str, str | None, Edit | None]:
    """The chat, the message to reply to, and the panel to edit, of a message for the chat."""
    chat_id = message.chat.chat_id
    if message.private_to is None or message.chat.private:
        return chat_id, None, None
    # Private, with nowhere private to put it (no ephemeral messages): where the user was.
    if origin.private_chat_id is not None:
        return origin.private_chat_id, None, None
    if origin.pressed_id is not None and message.buttons:
        # A panel answering a press of its own buttons (/settings): updated in place.
        pressed_chat = chat_id if origin.chat_id is None else origin.chat_id
        return chat_id, None, Edit(Target.PANEL, pressed_chat, origin.pressed_id)
    return chat_id, origin.message_id, None


def _may_become(message: Message, origin: Origin) -> bool:
    """The pressed message would only lose its buttons: may it become ``message``?"""
    media = message.image is not None or message.animation is not None
    kind = message.kind
    for_all = isinstance(kind, Public) or (isinstance(kind, Frame) and kind.user_id is None)
    return for_all and not message.mention and origin.pressed_has_media in (None, media)


def wanted_slots(messages: Sequence[Message], origin: Origin, platform: Platform) -> list[SlotKey]:
    """The slots whose messages a batch needs to know, in order, once each."""
    found: dict[SlotKey, None] = {}
    for message in messages:
        plan = plan_message(message, origin, platform, {})
        if plan.slot is not None:
            found[(plan.chat_id, plan.slot)] = None
    return list(found)


def wanted_names(messages: Sequence[Message], platform: Platform) -> list[str]:
    """The users a batch names or notifies, when the platform needs their names."""
    if not platform.names_mentions:
        return []
    return list(dict.fromkeys(user for m in messages for user in (*m.mention, *m.notify)))


def late_strips(filled: Sequence[Filled], replaced: Sequence[str | None]) -> list[SlotKey]:
    """The (chat, message) pairs still to strip after recording ``filled``: a slot's message
    that another process posted meanwhile, in place of the one known when posting."""
    return [
        (done.chat_id, previous)
        for done, previous in zip(filled, replaced, strict=True)
        if previous not in (None, done.replaced, done.message_id) and done.strip_previous
    ]


@dataclass
class Posting:
    """A batch being posted: what it needs to know, and what it has done so far. Pure
    bookkeeping: the adapter asks it for each message's plan and tells it each outcome."""

    platform: Platform
    origin: Origin = field(default_factory=Origin)
    slots: dict[SlotKey, str] = field(default_factory=dict)
    recipients: dict[str, Recipient] = field(default_factory=dict)
    touched: set[str] = field(default_factory=set)
    filled: list[Filled] = field(default_factory=list)
    unreachable: list[str] = field(default_factory=list)
    public: bool = False  # a message for everyone was planned

    def plan(self, message: Message) -> Plan:
        if message.private_to is None:
            self.public = True
        return plan_message(message, self.origin, self.platform, self.slots, self.touched)

    def shown(self, message: Message, plan: Plan, edit: Edit | None, message_id: str) -> str | None:
        """``message`` is now ``message_id``, edited by ``edit`` or sent anew; answers the
        message to strip of its buttons now (the one it replaced in its slot), if any."""
        self._touch(message_id)
        if edit is not None and edit.target is not Target.PRESSED:
            return None  # in place: the slot keeps its message
        if plan.slot is None:
            return None
        key = (plan.chat_id, plan.slot)
        previous = self.slots.get(key)
        self.slots[key] = message_id
        slot = slot_of(message)
        strip_previous = slot is None or slot.strip_previous
        self.filled.append(Filled(plan.chat_id, plan.slot, message_id, previous, strip_previous))
        if previous is None or previous == message_id or not strip_previous:
            return None
        if previous in self.touched and not self.platform.strips_touched:
            return None
        self._touch(previous)
        return previous

    def name(self, user_id: str) -> str:
        recipient = self.recipients.get(user_id)
        return user_id if recipient is None else recipient.name

    def refused(self, user_id: str) -> Recipient | None:
        """Private notes to ``user_id`` were refused: remembered after posting."""
        self.unreachable.append(user_id)
        recipient = self.recipients.get(user_id)
        return None if recipient is None else replace(recipient, reachable=False)

    def pressed_to_strip(self) -> str | None:
        """The pressed message, when the public answer went elsewhere and it keeps buttons."""
        pressed = self.origin.pressed_id
        if not self.platform.strips_pressed or pressed is None or not self.public:
            return None
        return None if pressed in self.touched else pressed

    def _touch(self, message_id: str) -> None:
        if self.origin.chat_id is not None:  # only an answer keeps its messages apart
            self.touched.add(message_id)


def not_to(message: Message, user_id: str) -> Message:
    """``message`` without ``user_id`` among those to mention or notify: the bot's own account,
    which plays matches too and is named with its opponent at the end of one, is never pinged
    nor written to by itself."""
    if user_id not in (*message.mention, *message.notify):
        return message
    return replace(
        message,
        mention=tuple(user for user in message.mention if user != user_id),
        notify=tuple(user for user in message.notify if user != user_id),
    )
