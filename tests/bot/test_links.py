"""Accepting a challenge through a link opened in a private chat."""

from __future__ import annotations

from bot.core.model import Actor, ChatRef
from bot.core.tokens import parse_token
from tests.bot.scripted import PLATFORM, Room


def _private(name: str) -> tuple[Actor, ChatRef]:
    return Actor(PLATFORM, name, name.title()), ChatRef(PLATFORM, name, private=True)


async def _offer_id(room: Room, text: str) -> int:
    offer = await room.command("anna", text)
    return parse_token(offer[0].buttons[0].token).target


async def test_a_link_accepts_the_challenge_in_its_own_chat(room: Room) -> None:
    challenge = await _offer_id(room, "/challenge @bob 3")
    bob, private = _private("bob")
    answer = await room.core.accept_challenge_link(bob, private, challenge, "link-1")
    assert answer[0].chat == room.chat
    assert answer[0].text.startswith("Match 1: Anna vs Bob")
    assert answer[0].slot == f"challenge:{challenge}"
    assert answer[-1].slot == "board:1"
    assert all(message.chat == room.chat and message.private_to is None for message in answer)


async def test_a_link_for_someone_else_is_refused_to_the_presser_only(room: Room) -> None:
    challenge = await _offer_id(room, "/challenge @bob 3")
    carl, private = _private("carl")
    answer = await room.core.accept_challenge_link(carl, private, challenge, "link-2")
    assert [(message.private_to, message.text) for message in answer] == [
        ("carl", "This challenge is for someone else.")
    ]
    bob, bobs = _private("bob")
    await room.core.accept_challenge_link(bob, bobs, challenge, "link-3")
    again = await room.core.accept_challenge_link(bob, bobs, challenge, "link-4")
    assert "already been answered" in again[0].text


async def test_a_link_to_no_challenge_is_answered_in_the_private_chat(room: Room) -> None:
    bob, private = _private("bob")
    answer = await room.core.accept_challenge_link(bob, private, 999, "link-5")
    assert len(answer) == 1
    assert answer[0].chat == private
    assert answer[0].private_to == "bob"
    assert "out of date" in answer[0].text
