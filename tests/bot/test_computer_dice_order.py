"""The fair-dice order against the bot, as for a challenge: /play (or /challenge @gammonbot, or
[Rematch]) posts the offer with the commitment; only then is the person's client seed fixed,
by their press of [Start] (or a /seed chosen after the offer), which rolls the opening dice.
Only the person who asked may start it, a second press changes nothing, and the offer lives in
the database: it survives a restart and expires like a challenge."""

from __future__ import annotations

import hashlib
import re
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.computer.computer import Computer
from bot.core.model import BesideRecord, ChatRef, Message
from bot.core.service import Core
from storage import Database
from tests.bot.scripted import PLATFORM, Room, headline

SEED = bytes(range(32))
COMMITMENT = hashlib.sha256(SEED).hexdigest()
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


class ManualTime:
    """Now, moved on by hand: each step of a test happens at a moment of its own."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float = 1) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> ManualTime:
    return ManualTime()


def _core(database: Database, clock: Callable[[], datetime]) -> Core:
    return Core(
        database,
        render_images=False,
        server_seeds=lambda: SEED,
        computer=Computer(processes=False),
        clock=clock,
    )


@pytest.fixture
async def room(migrated_url: str, clock: ManualTime) -> AsyncIterator[Room]:
    database = Database(migrated_url)
    core = _core(database, clock)
    yield Room(core, ChatRef(PLATFORM, "group"))
    core.ports.workers.computer.close()
    await database.close()


def _client_seeds(text: str) -> tuple[str, str]:
    # Each seed is the player's text, isolated (U+2068 … U+2069) from the sentence around it.
    found = re.search(
        r"Client seeds: Anna “\u2068(.*)\u2069”, gammonbot “\u2068(.*)\u2069”\.", text
    )
    assert found is not None, text
    return found.group(1), found.group(2)


async def _verified(room: Room, name: str) -> str:
    [answer] = await room.command(name, "/verify")
    assert answer.private_to == name
    return answer.text


async def _stored_seeds(room: Room, name: str) -> tuple[str, str]:
    loaded = await room.match_of(name)
    assert loaded is not None
    return loaded.info.client_seeds


async def _start_if_offered(room: Room, name: str) -> None:
    """Press [Start] if the latest message offers one (the old /play started at once)."""
    if any(button.label == "Start" for button in room.log[-1].buttons):
        await room.press(name, "Start")


async def test_the_client_seed_is_of_an_event_after_the_commitment(room: Room) -> None:
    answer = await room.command("anna", "/play 1")
    posted = room.events  # the event whose answer published the commitment
    assert any(f"commitment {COMMITMENT[:12]}…" in message.text for message in answer)
    await _start_if_offered(room, "anna")
    human, bot = await _stored_seeds(room, "anna")
    fixed_by = int(human.removeprefix("test:e"))
    assert fixed_by > posted
    assert bot == f"test:bot:e{fixed_by}"


async def test_the_offer_carries_the_commitment_and_start_rolls(room: Room) -> None:
    offer = await room.command("anna", "/play 1")  # event e1
    assert len(offer) == 1
    assert offer[0].private_to is None  # the whole chat sees the commitment
    assert f"Fair dice, commitment {COMMITMENT[:12]}… (/verify shows the details)" in (
        offer[0].text
    )
    assert [button.label for button in offer[0].buttons] == ["Start", "Cancel"]
    assert await room.match_of("anna") is None  # nothing is fixed or rolled yet
    waiting = await _verified(room, "anna")  # event e2
    assert f"Dice commitment (SHA-256 of the secret server seed): {COMMITMENT}." in waiting
    assert "[Start]" in waiting
    started = await room.press("anna", "Start")  # event e3: after the commitment's message
    assert started[0].text.startswith("Match 1: Anna vs gammonbot (expert), 1-point match")
    assert started[0].slot == offer[0].slot  # the match takes the offer's place
    # Both client seeds are made of the press, which came after the commitment was posted.
    assert await _stored_seeds(room, "anna") == ("test:e3", "test:bot:e3")
    during = await _verified(room, "anna")
    assert _client_seeds(during) == ("test:e3", "test:bot:e3")
    assert f"server seed): {COMMITMENT}." in during
    assert SEED.hex() not in during
    # The opening roll came with the press: the match is under way.
    loaded = await room.match_of("anna")
    assert loaded is not None
    assert loaded.info.version >= 1


async def test_a_seed_chosen_before_play_is_not_used(room: Room, clock: ManualTime) -> None:
    await room.command("anna", "/seed chosen-too-early")  # e1
    clock.tick()
    await room.command("anna", "/play 1")  # e2: the server seed is drawn knowing e1's seed
    clock.tick()
    await _start_if_offered(room, "anna")  # e3
    human, _bot = await _stored_seeds(room, "anna")
    assert human != "chosen-too-early"
    assert human == "test:e3"


async def test_a_seed_chosen_after_the_offer_is_used_once(room: Room, clock: ManualTime) -> None:
    await room.command("anna", "/play 1")  # e1
    clock.tick()
    await room.command("anna", "/seed anna's luck")  # e2
    clock.tick()
    await room.press("anna", "Start")  # e3
    assert await _stored_seeds(room, "anna") == ("anna's luck", "test:bot:e3")
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    assert (anna.next_seed, anna.next_seed_at) == (None, None)


async def test_only_the_person_who_asked_may_start(room: Room) -> None:
    await room.command("anna", "/play 1")
    refused = await room.press("bert", "Start")
    assert [(message.private_to, message.text) for message in refused] == [
        ("bert", "This match against the bot is someone else's: /play offers you your own.")
    ]
    assert await room.match_of("anna") is None
    assert await room.match_of("bert") is None
    cancel = await room.press("bert", "Cancel")
    assert [message.private_to for message in cancel] == ["bert"]
    started = await room.press("anna", "Start")
    assert started[0].text.startswith("Match 1: Anna vs gammonbot")


async def test_a_second_press_changes_nothing(room: Room) -> None:
    offer = await room.command("anna", "/play 1")
    await room.press("anna", "Start")
    loaded = await room.match_of("anna")
    assert loaded is not None
    again = await room.send("anna", token=offer[0].buttons[0].token)
    assert [(message.private_to, message.text) for message in again] == [
        ("anna", "This match has already started.")
    ]
    after = await room.match_of("anna")
    assert after is not None
    assert (after.info.id, after.info.version, after.info.client_seeds) == (
        loaded.info.id,
        loaded.info.version,
        loaded.info.client_seeds,
    )
    # Its [Cancel] is out of date as well: the match goes on.
    cancelled = await room.send("anna", token=offer[0].buttons[1].token)
    assert cancelled[0].private_to == "anna"
    assert await room.match_of("anna") is not None


async def test_the_same_offer_twice_is_refused_and_a_cancelled_one_cannot_start(
    room: Room,
) -> None:
    offer = await room.command("anna", "/play 1")
    twice = await room.command("anna", "/play 1")
    assert [(message.private_to, message.text) for message in twice] == [
        ("anna", "You have offered gammonbot this match already: press [Start] under it.")
    ]
    cancelled = await room.press("anna", "Cancel")
    assert cancelled[0].text == "The challenge was cancelled."
    assert cancelled[0].slot == offer[0].slot
    late = await room.send("anna", token=offer[0].buttons[0].token)
    assert late[0].text == "This challenge has already been answered."
    assert await room.match_of("anna") is None


async def test_the_offer_survives_a_restart(
    room: Room, migrated_url: str, clock: ManualTime
) -> None:
    offer = await room.command("anna", "/play 1 beginner")
    database = Database(migrated_url)
    restarted = Room(_core(database, clock), room.chat, prefix="r")
    try:
        started = await restarted.send("anna", token=offer[0].buttons[0].token)
        assert started[0].text.startswith("Match 1: Anna vs gammonbot (beginner)")
        loaded = await restarted.match_of("anna")
        assert loaded is not None
        assert loaded.info.dice_commitment == COMMITMENT  # the one posted before the restart
        assert loaded.info.client_seeds == ("test:r1", "test:bot:r1")
    finally:
        restarted.core.ports.workers.computer.close()
        await database.close()


async def test_the_offer_expires_like_a_challenge(room: Room, clock: ManualTime) -> None:
    await room.command("anna", "/play 1")
    clock.tick(24 * 3600)
    expired = await room.press("anna", "Start")
    assert [(message.private_to, message.text) for message in expired] == [
        ("anna", "This challenge has expired.")
    ]
    assert await room.match_of("anna") is None


async def test_the_clock_closes_an_offer_left_for_a_day(room: Room, clock: ManualTime) -> None:
    offer = await room.command("anna", "/play 1")
    clock.tick(24 * 3600 - 1)
    assert await room.core.ports.clock.tick() == []
    clock.tick()
    [closed] = await room.core.ports.clock.tick()
    assert (closed.text, closed.slot) == ("The challenge from Anna has expired.", offer[0].slot)
    late = await room.press("anna", "Start")
    assert late[0].text == "This challenge has already been answered."
    assert await room.match_of("anna") is None


async def _lost(room: Room) -> Message:
    """Anna offers, starts, and resigns the 1-point match; the bot accepts: the end."""
    await room.command("anna", "/play 1 beginner nocube")
    await room.press("anna", "Start")
    await room.command("anna", "/resign")
    answer = await room.press("anna", "Resign")
    end = answer[-1]
    assert headline(end).startswith("Match over: gammonbot wins 1–0.")
    return end


async def test_a_rematch_against_the_bot_is_offered_before_it_starts(room: Room) -> None:
    end = await _lost(room)
    offer = await room.send("anna", token=end.buttons[0].token)
    assert offer[0].text.startswith(
        "Anna challenges gammonbot (beginner) to a 1-point match of backgammon (no cube, "
    )
    assert f"commitment {COMMITMENT[:12]}…" in offer[0].text
    assert isinstance(offer[0].kind, BesideRecord)  # the end stays as it is
    assert await room.match_of("anna") is None
    event = room.events + 1
    started = await room.press("anna", "Start")
    assert started[0].text.startswith("Match 2: Anna vs gammonbot (beginner)")
    assert await _stored_seeds(room, "anna") == (f"test:e{event}", f"test:bot:e{event}")


async def test_the_person_joined_when_they_pressed_start(room: Room, clock: ManualTime) -> None:
    """Not when they offered the match: until their first move, their press is the last
    thing they did at the table (whether they are away is judged from it)."""
    await room.command("anna", "/play 1")
    clock.tick(20 * 60)
    await room.press("anna", "Start")
    loaded = await room.match_of("anna")
    assert loaded is not None
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    assert await room.stores.matches.last_action_at(loaded.info.id, anna.id) == clock.now
