"""Message kinds (bot/core/model.py): what a message is to the posting plan is one value of a
closed set, each with only the fields it needs, so the combinations that mean nothing cannot
be built; and the plan (bot/core/posting.py) maps each kind to where it goes."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.model import (
    BesideRecord,
    Button,
    ChatRef,
    Frame,
    Kind,
    Message,
    Private,
    Public,
    Slot,
    beside_record,
    in_place_of_pressed,
)
from bot.core.posting import (
    DISCORD,
    TELEGRAM,
    Edit,
    Origin,
    Plan,
    Platform,
    Posting,
    Route,
    Target,
    plan_message,
)

GROUP = ChatRef("t", "-100")
PAGE = (Button("▶", "bg1:page:u11:2"),)
# Anna ("11") pressed message 400, a text, in the group; on Discord through an interaction.
PRESSED = Origin("-100", "11", pressed_id="400", pressed_has_media=False, press=True)
CLICK = Origin("-100", "11", pressed_id="400", press=True, interaction=True)


def _pressed(target: Target) -> Edit:
    return Edit(target, "-100", "400")


# --- what cannot be built -------------------------------------------------------------------


@pytest.mark.parametrize(
    "flag",
    [
        {"private_to": "11"},
        {"slot": "board:12"},
        {"edit_pressed": True},
        {"keep_pressed": True},
        {"strip_previous": False},
    ],
)
def test_the_old_flags_are_gone(flag: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        Message(GROUP, "Anna rolls", **flag)


def test_a_kind_has_only_the_fields_it_needs() -> None:
    with pytest.raises(TypeError):
        Frame(slot=Slot("board:12"))  # type: ignore[call-arg]  # a frame fills no slot
    with pytest.raises(TypeError):
        BesideRecord(user_id="11")  # type: ignore[call-arg]  # for everyone
    with pytest.raises(TypeError):
        Private()  # type: ignore[call-arg]  # for someone
    with pytest.raises(ValueError, match="for someone"):
        Private("")
    with pytest.raises(ValueError, match="name"):
        Slot("")


@pytest.mark.parametrize("kind", [Private("11"), Private("11", Slot("preview:12:11")), Frame()])
def test_only_a_message_for_everyone_calls_anyone(kind: Kind) -> None:
    with pytest.raises(ValueError, match="calls anyone"):
        Message(GROUP, "Your turn", mention=("22",), kind=kind)
    with pytest.raises(ValueError, match="calls anyone"):
        Message(GROUP, "Your turn", mention=("22",), notify=("22",), kind=kind)


def test_a_private_note_goes_to_someone_mentioned() -> None:
    with pytest.raises(ValueError, match="mentioned"):
        Message(GROUP, "Your turn", mention=("22",), notify=("33",))
    with pytest.raises(ValueError, match="who gets one"):
        Message(GROUP, "Your turn", mention=("22",), notices=(("22", "Dein Zug"),))
    called = Message(
        GROUP, "Your turn", mention=("22", "33"), notify=("33",), notices=(("33", "Sıra sende"),)
    )
    assert (called.notice_for("33"), called.notice_for("22")) == ("Sıra sende", "Your turn")


def test_a_message_shows_one_picture() -> None:
    with pytest.raises(ValueError, match="one picture"):
        Message(GROUP, "Game 1", image=b"png", animation=b"gif")


@pytest.mark.parametrize(
    "kind", [Public(Slot("board:12")), BesideRecord(), Private("11", Slot("preview:12:11"))]
)
def test_a_slotted_message_or_one_beside_a_record_is_no_frame(kind: Kind) -> None:
    with pytest.raises(ValueError, match="pressed message's place"):
        in_place_of_pressed(Message(GROUP, "Game 1, move 3", kind=kind))


@pytest.mark.parametrize(
    ("kind", "frame"),
    [(Public(), Frame()), (Private("11"), Frame("11")), (Frame("11"), Frame("11"))],
)
def test_a_frame_is_for_the_same_readers(kind: Kind, frame: Frame) -> None:
    message = Message(GROUP, "Page 2", PAGE, kind=kind)
    assert in_place_of_pressed(message) == Message(GROUP, "Page 2", PAGE, kind=frame)


def test_beside_a_record_only_what_everyone_sees_changes() -> None:
    offer = Message(GROUP, "Anna challenges Bob", kind=Public(Slot("challenge:3")))
    assert beside_record(offer).kind == BesideRecord(Slot("challenge:3"))
    refusal = Message(GROUP, "This is not your match.", kind=Private("22"))
    assert beside_record(refusal) is refusal


@pytest.mark.parametrize(
    ("kind", "private_to", "slot"),
    [
        (Public(), None, None),
        (Public(Slot("board:12", strip_previous=False)), None, "board:12"),
        (BesideRecord(Slot("challenge:3")), None, "challenge:3"),
        (Private("11", Slot("preview:12:11")), "11", "preview:12:11"),
        (Frame(), None, None),
        (Frame("11"), "11", None),
    ],
)
def test_who_sees_it_and_its_slot_follow_from_the_kind(
    kind: Kind, private_to: str | None, slot: str | None
) -> None:
    message = Message(GROUP, "Anna rolls", kind=kind)
    assert (message.private_to, message.slot) == (private_to, slot)


# --- the plan of each kind, for one press answered -------------------------------------------


def _group(*edits: Edit) -> Plan:
    return Plan(Route.CHAT, "-100", edits, group=True)


PLANS = [
    # Telegram: no ephemeral messages.
    (Public(), (), TELEGRAM, PRESSED, _group(_pressed(Target.PRESSED))),
    (BesideRecord(), (), TELEGRAM, PRESSED, _group()),
    (Private("11"), (), TELEGRAM, PRESSED, Plan(Route.TOAST, "-100")),
    (Private("11"), PAGE, TELEGRAM, PRESSED, _group(_pressed(Target.PANEL))),
    (Frame(), (), TELEGRAM, PRESSED, _group(_pressed(Target.FRAME), _pressed(Target.PRESSED))),
    (Frame("11"), PAGE, TELEGRAM, PRESSED, _group(_pressed(Target.PANEL), _pressed(Target.FRAME))),
    # Discord: the press is an interaction.
    (Public(), (), DISCORD, CLICK, _group(_pressed(Target.PRESSED))),
    (BesideRecord(), (), DISCORD, CLICK, _group()),
    (Private("11"), (), DISCORD, CLICK, Plan(Route.EPHEMERAL, "-100")),
    (Private("22"), (), DISCORD, CLICK, Plan(Route.DIRECT, "-100")),
    (Frame(), (), DISCORD, CLICK, Plan(Route.FRAME, "-100")),
    (Frame("11"), PAGE, DISCORD, CLICK, Plan(Route.FRAME, "-100")),
]


@pytest.mark.parametrize(
    ("kind", "buttons", "platform", "origin", "expected"),
    PLANS,
    ids=[f"{platform.name}-{kind}-{len(buttons)}" for kind, buttons, platform, _o, _e in PLANS],
)
def test_the_plan_follows_the_kind(
    kind: Kind,
    buttons: tuple[Button, ...],
    platform: Platform,
    origin: Origin,
    expected: Plan,
) -> None:
    message = Message(GROUP, "Bob doubles", buttons, kind=kind)
    assert plan_message(message, origin, platform, {}) == expected


@pytest.mark.parametrize(
    ("kind", "public"),
    [
        (Public(), True),
        (BesideRecord(), True),
        (Frame(), True),
        (Private("11"), False),
        (Frame("11"), False),
    ],
)
def test_the_pressed_message_loses_its_buttons_after_an_answer_for_everyone(
    kind: Kind, public: bool
) -> None:
    batch = Posting(TELEGRAM, PRESSED)
    batch.plan(Message(GROUP, "Bob doubles", kind=kind))
    assert batch.pressed_to_strip() == ("400" if public else None)
