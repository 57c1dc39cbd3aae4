"""Who may do what, as the core enforces it for every platform: a command's declared
restriction, the front-end's answer asked only when a command needs it, and every button
routed through the registry."""

from __future__ import annotations

import pytest

from bot.core import registry
from bot.core.model import ChatRef
from bot.core.tokens import Token, Verb
from tests.bot.scripted import PLATFORM, Room, admins_of, play_to_the_end


async def test_a_match_and_a_look_at_the_defaults_never_ask_the_platform(room: Room) -> None:
    asked = admins_of(room.core)
    await room.command("anna", "/challenge @bob 1")
    await room.press("bob", "Accept")
    await play_to_the_end(room, ("anna", "bob"), seed=3)
    await room.command("anna", "/defaults")
    await room.command("anna", "/stats")
    assert asked.asked == 0


async def test_changing_the_defaults_asks_once_and_refuses_a_non_administrator(
    room: Room,
) -> None:
    asked = admins_of(room.core)
    refused = await room.command("anna", "/defaults length 5 language de")
    assert refused[0].text == "Only an administrator of this chat can change its defaults."
    assert refused[0].private_to == "anna"
    assert asked.asked == 1
    done = await room.command("anna", "/defaults length 5", admin=True)
    assert done[0].text == "The chat's defaults are updated."
    assert asked.asked == 2


async def test_the_host_ends_the_table_without_asking_an_administrator_does(room: Room) -> None:
    asked = admins_of(room.core)
    await room.command("ann", "/chouette")
    await room.command("bob", "/chouette join")
    refused = await room.command("bob", "/chouette end")
    assert refused[0].text == "Only the host who opened the table or an administrator ends it."
    assert asked.asked == 1
    ended = await room.command("dee", "/chouette end", admin=True)
    assert ended[0].text.startswith("The chouette is over.")
    assert asked.asked == 2
    await room.command("ann", "/chouette")
    await room.command("ann", "/chouette end")
    assert asked.asked == 2  # the host: nobody else is asked


async def test_a_private_chat_is_its_users_own(room: Room) -> None:
    private = Room(room.core, ChatRef(PLATFORM, "anna-private", private=True))
    done = await private.command("anna", "/defaults length 5")
    assert done[0].text == "The chat's defaults are updated."
    assert admins_of(room.core).asked == 0


@pytest.mark.parametrize(
    ("kind", "verb", "service"),
    [
        ("c", Verb.ACCEPT, "challenges"),
        ("c", Verb.START, "challenges"),
        ("m", Verb.REMATCH, "rematches"),
        ("m", Verb.ROLL, "play"),
        ("m", Verb.CONFIRM, "play"),
        ("u", Verb.MATCHES_PAGE, "matches"),
        ("u", Verb.THEME, "settings"),
        ("r", Verb.REPLAY_FORWARD, "replay"),
        ("h", Verb.END, "chouette"),
        ("h", Verb.DOUBLE_ALL, "chouette"),
    ],
)
async def test_each_button_goes_to_the_service_that_made_it(
    room: Room, kind: str, verb: str, service: str
) -> None:
    found = registry.route(Token(verb, kind, 1, 1))
    assert found is not None
    services = room.core.ports.services
    assert found.handler(services).__self__ is getattr(services, service)  # type: ignore[attr-defined]


async def test_a_button_the_bot_never_made_is_out_of_date(room: Room) -> None:
    for token in ("bg1:roll:x1:1", "bg2:roll:m1:1", "bg1:nonsense:m1:1", "hello"):
        answer = await room.send("anna", token=token)
        assert [message.text for message in answer] == ["That button is out of date."], token
