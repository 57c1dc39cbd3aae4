"""The posting plan: what each outgoing message becomes, as both adapters carry it out.

Each case is a message, the update it answers and what the database knows of its slot; the
expected plan is the policy the adapters followed before it moved into the core (the edits in
the order they are tried, else a new message)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from bot.core.model import (
    Attachment,
    BesideRecord,
    Button,
    ChatRef,
    Frame,
    Message,
    Private,
    Public,
    Slot,
)
from bot.core.posting import (
    DISCORD,
    TELEGRAM,
    Edit,
    Filled,
    Origin,
    Plan,
    Platform,
    Posting,
    Recipient,
    Route,
    Target,
    late_strips,
    plan_message,
    wanted_names,
    wanted_slots,
)

GROUP = ChatRef("t", "-100")
OTHER_GROUP = ChatRef("t", "-200")
ANNAS_CHAT = ChatRef("t", "11", private=True)
PNG = b"png"
ROLL = (Button("Roll", "bg1:roll:m12:7"),)
CONFIRM = (Button("Confirm", "bg1:confirm:m12:8"), Button("Change", "bg1:change:m12:8"))
SLOT = {("-100", "board:12"): "500"}  # the message that shows match 12's board now
BOARD_12 = Public(Slot("board:12"))

# The updates: a move typed in the group, a press on message 400 (a picture) in the group,
# a slash command and a press on Discord, the clock (no update).
TYPED = Origin("-100", "11", message_id="300")
PRESSED = Origin("-100", "11", pressed_id="400", pressed_has_media=True, press=True)
PRESSED_TEXT = Origin("-100", "11", pressed_id="400", pressed_has_media=False, press=True)
DEEP_LINK = Origin("11", "11", message_id="301", private_chat_id="11", private=True)
COMMAND = Origin("-100", "11", interaction=True)
CLICK = Origin("-100", "11", pressed_id="400", press=True, interaction=True)
CLOCK = Origin()


def board(**more: object) -> Message:
    """A board of match 12 for the group."""
    values: dict[str, object] = {"text": "Anna rolls", "image": PNG, "kind": BOARD_12}
    values.setdefault("buttons", ROLL)
    values.update(more)
    return Message(GROUP, **values)  # type: ignore[arg-type]


def note(to: str = "11", slot: Slot | None = None, **more: object) -> Message:
    """A message for ``to`` alone."""
    return Message(GROUP, "Not your turn", kind=Private(to, slot), **more)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Case:
    name: str
    message: Message
    origin: Origin
    platform: Platform
    expected: Plan
    slots: dict[tuple[str, str], str] | None = None
    touched: frozenset[str] = frozenset()


def edit(target: Target, message_id: str, chat_id: str = "-100") -> Edit:
    return Edit(target, chat_id, message_id)


def chat(*edits: Edit, **more: object) -> Plan:
    """A plan into the group: the edits in order, else a new message."""
    values: dict[str, object] = {"group": True}
    values.update(more)
    return Plan(Route.CHAT, "-100", edits, **values)  # type: ignore[arg-type]


CASES = [
    # --- a board into its slot --------------------------------------------------------------
    Case(
        "a board calling nobody replaces its slot's message in place",
        board(),
        TYPED,
        TELEGRAM,
        chat(edit(Target.SLOT, "500"), slot="board:12"),
        SLOT,
    ),
    Case(
        "a board calling a player is a new message (edits do not notify), notes follow it",
        board(mention=("22",), notify=("22",)),
        TYPED,
        TELEGRAM,
        chat(slot="board:12", notify=("22",)),
        SLOT,
    ),
    Case(
        "a board without buttons calling a player invites a typed move",
        board(mention=("22",), buttons=()),
        TYPED,
        TELEGRAM,
        chat(slot="board:12", invite_reply=True),
        SLOT,
    ),
    Case(
        "the slot's first board is a new message",
        board(),
        TYPED,
        DISCORD,
        chat(slot="board:12"),
        {},
    ),
    Case(
        "a slot of another chat is not this one's",
        board(),
        TYPED,
        TELEGRAM,
        chat(slot="board:12"),
        {("-200", "board:12"): "500"},
    ),
    Case(
        "in a private chat nobody is notified apart",
        Message(
            ANNAS_CHAT,
            "Your turn",
            mention=("11",),
            notify=("11",),
            kind=Public(Slot("board:3")),
        ),
        Origin("11", "11", message_id="5", private=True),
        TELEGRAM,
        Plan(Route.CHAT, "11", (), slot="board:3"),
    ),
    # --- the pressed message ------------------------------------------------------------------
    Case(
        "a press answered by a board calling nobody: first its slot, then the pressed message",
        board(),
        PRESSED,
        TELEGRAM,
        chat(edit(Target.SLOT, "500"), edit(Target.PRESSED, "400"), slot="board:12"),
        SLOT,
    ),
    Case(
        "a message calling someone never takes the pressed message's place",
        board(mention=("22",)),
        PRESSED,
        TELEGRAM,
        chat(slot="board:12"),
        SLOT,
    ),
    Case(
        "a match's end keeps the pressed message (its [Rematch])",
        Message(GROUP, "Anna wins", kind=BesideRecord()),
        PRESSED,
        DISCORD,
        chat(),
    ),
    Case(
        "a pressed message already part of the answer is not taken again",
        Message(GROUP, "Bob doubles"),
        PRESSED,
        TELEGRAM,
        chat(),
        touched=frozenset({"400"}),
    ),
    Case(
        "a Telegram picture cannot become a text",
        Message(GROUP, "Bob doubles"),
        PRESSED,
        TELEGRAM,
        chat(),
    ),
    Case(
        "a Telegram text becomes a text",
        Message(GROUP, "Bob doubles"),
        PRESSED_TEXT,
        TELEGRAM,
        chat(edit(Target.PRESSED, "400")),
    ),
    Case(
        "a Discord message can become anything",
        Message(GROUP, "Bob doubles"),
        CLICK,
        DISCORD,
        chat(edit(Target.PRESSED, "400")),
    ),
    Case(
        "the pressed message of another chat is left alone",
        Message(OTHER_GROUP, "Bob doubles"),
        PRESSED_TEXT,
        TELEGRAM,
        Plan(Route.CHAT, "-200", (), group=True),
    ),
    Case(
        "the clock's board replaces its slot's message, nothing was pressed",
        board(),
        CLOCK,
        DISCORD,
        chat(edit(Target.SLOT, "500"), slot="board:12"),
        SLOT,
    ),
    # --- replays stepped on -------------------------------------------------------------------
    Case(
        "Telegram: the next frame in the pressed message, else as any public message",
        Message(GROUP, "Game 1, move 3", animation=b"gif", kind=Frame()),
        PRESSED,
        TELEGRAM,
        chat(edit(Target.FRAME, "400"), edit(Target.PRESSED, "400")),
    ),
    Case(
        "Discord: the next frame through the pressed button's interaction",
        Message(GROUP, "Game 1, move 3", image=PNG, kind=Frame()),
        CLICK,
        DISCORD,
        Plan(Route.FRAME, "-100"),
    ),
    Case(
        "Discord: a frame asked for with a command is a public message",
        Message(GROUP, "Game 1, move 3", image=PNG, kind=Frame()),
        COMMAND,
        DISCORD,
        chat(),
    ),
    # --- private messages ---------------------------------------------------------------------
    Case(
        "Telegram: a refusal of a press is its toast",
        note(),
        PRESSED,
        TELEGRAM,
        Plan(Route.TOAST, "-100"),
    ),
    Case(
        "Telegram: a private panel answering its own button is edited in place",
        note(buttons=ROLL),
        PRESSED,
        TELEGRAM,
        chat(edit(Target.PANEL, "400")),
    ),
    Case(
        "Telegram: a private note with a file is no toast: it goes to the group",
        note(attachments=(Attachment("match.mat", b"x"),)),
        PRESSED,
        TELEGRAM,
        chat(),
    ),
    Case(
        "Telegram: a private answer to a typed command replies to it",
        note(),
        TYPED,
        TELEGRAM,
        chat(reply_to="300"),
    ),
    Case(
        "Telegram: a private answer to a deep link goes to the private chat",
        note(),
        DEEP_LINK,
        TELEGRAM,
        Plan(Route.CHAT, "11"),
    ),
    Case(
        "Telegram: previews of a move replace each other in place",
        Message(GROUP, "13/10 6/5?", CONFIRM, image=PNG, kind=Private("11", Slot("preview:12:11"))),
        TYPED,
        TELEGRAM,
        chat(edit(Target.SLOT, "600"), reply_to="300", slot="preview:12:11"),
        {("-100", "preview:12:11"): "600"},
    ),
    Case(
        "Discord: a private answer to the presser is ephemeral",
        note(),
        CLICK,
        DISCORD,
        Plan(Route.EPHEMERAL, "-100"),
    ),
    Case(
        "Discord: ... and to a command's author",
        note(),
        COMMAND,
        DISCORD,
        Plan(Route.EPHEMERAL, "-100"),
    ),
    Case(
        "Discord: a private message to someone else is a DM",
        note("22"),
        CLICK,
        DISCORD,
        Plan(Route.DIRECT, "-100"),
    ),
    Case(
        "Discord: a private answer to a typed command replies",
        note(),
        TYPED,
        DISCORD,
        Plan(Route.REPLY, "-100"),
    ),
    Case(
        "Discord: the clock's private message is a DM",
        note(),
        CLOCK,
        DISCORD,
        Plan(Route.DIRECT, "-100"),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_plan_of_a_message(case: Case) -> None:
    plan = plan_message(case.message, case.origin, case.platform, case.slots or {}, case.touched)
    assert plan == case.expected


# --- what a batch learns as it goes ---------------------------------------------------------


def posting(platform: Platform = TELEGRAM, origin: Origin = PRESSED) -> Posting:
    recipients = {"22": Recipient("22", "Bob", "de", True)}
    return Posting(platform, origin, dict(SLOT), recipients)


def test_a_new_board_fills_its_slot_and_strips_the_one_it_replaced() -> None:
    batch = posting()
    message = board(mention=("22",))
    plan = batch.plan(message)
    assert batch.shown(message, plan, None, "700") == "500"
    assert batch.slots[("-100", "board:12")] == "700"
    assert batch.filled == [Filled("-100", "board:12", "700", "500", True)]
    assert batch.touched == {"700", "500"}


def test_a_board_edited_in_place_keeps_its_slot() -> None:
    batch = posting()
    message = board()
    plan = batch.plan(message)
    assert batch.shown(message, plan, plan.edits[0], "500") is None
    assert batch.filled == []
    assert batch.touched == {"500"}


def test_the_pressed_message_taking_a_board_s_place_fills_the_slot() -> None:
    batch = posting()
    message = board()
    plan = batch.plan(message)
    assert plan.edits[1].target is Target.PRESSED
    assert batch.shown(message, plan, plan.edits[1], "400") == "500"
    assert batch.slots[("-100", "board:12")] == "400"


def test_a_board_that_shows_no_buttons_leaves_the_previous_one_alone() -> None:
    batch = posting()
    message = board(mention=("22",), kind=Public(Slot("board:12", False)))
    assert batch.shown(message, batch.plan(message), None, "700") is None
    assert batch.filled == [Filled("-100", "board:12", "700", "500", False)]


@pytest.mark.parametrize(("platform", "stripped"), [(TELEGRAM, None), (DISCORD, "700")])
def test_a_message_of_the_same_answer_keeps_its_buttons_on_telegram(
    platform: Platform, stripped: str | None
) -> None:
    batch = posting(platform)
    first, second = board(mention=("22",)), board(mention=("22",), text="Bob rolls")
    assert batch.shown(first, batch.plan(first), None, "700") == "500"
    assert batch.shown(second, batch.plan(second), None, "701") == stripped


def test_without_an_update_every_replaced_board_is_stripped() -> None:
    batch = posting(TELEGRAM, CLOCK)
    first, second = board(mention=("22",)), board(mention=("22",), text="Bob rolls")
    assert batch.shown(first, batch.plan(first), None, "700") == "500"
    assert batch.shown(second, batch.plan(second), None, "701") == "700"


def test_the_pressed_message_loses_its_buttons_after_a_public_answer_on_telegram() -> None:
    batch = posting()
    batch.plan(note())
    assert batch.pressed_to_strip() is None  # only private answers: it stays as it is
    batch.plan(Message(OTHER_GROUP, "Anna challenges Bob"))
    assert batch.pressed_to_strip() == "400"
    batch.touched.add("400")
    assert batch.pressed_to_strip() is None  # it became part of the answer
    discord = posting(DISCORD, CLICK)
    discord.plan(Message(OTHER_GROUP, "Anna challenges Bob"))
    assert discord.pressed_to_strip() is None


def test_a_refused_note_is_remembered_for_after_the_batch() -> None:
    batch = posting()
    assert batch.refused("22") == Recipient("22", "Bob", "de", False)
    assert batch.refused("33") is None
    assert batch.unreachable == ["22", "33"]
    assert (batch.name("22"), batch.name("33")) == ("Bob", "33")


def test_a_slot_filled_meanwhile_by_another_process_is_stripped_late() -> None:
    filled = [
        Filled("-100", "board:12", "700", "500", True),  # as known
        Filled("-100", "board:13", "701", "501", True),  # another process posted 555
        Filled("-100", "board:14", "702", "502", False),  # ... but this one shows no buttons
        Filled("-100", "board:15", "703", None, True),  # the first, as known
    ]
    assert late_strips(filled, ["500", "555", "556", None]) == [("-100", "555")]


def test_a_batch_reads_each_slot_once_and_the_names_telegram_links() -> None:
    messages = [
        board(mention=("22",), notify=("22",)),
        board(),
        note(slot=Slot("preview:12:11"), buttons=CONFIRM, image=PNG),
        Message(OTHER_GROUP, "Carl's turn", kind=Public(Slot("board:9")), mention=("33",)),
    ]
    assert wanted_slots(messages, TYPED, TELEGRAM) == [
        ("-100", "board:12"),
        ("-100", "preview:12:11"),
        ("-200", "board:9"),
    ]
    assert wanted_names(messages, TELEGRAM) == ["22", "33"]
    assert wanted_names(messages, DISCORD) == []
