"""The fair-dice order: the commitment is published with the challenge (its first digits in the
chat, in full through /verify), before any client seed is fixed; each player may choose a seed
after seeing it and before the first roll; by default the seeds come from the accept's event
id, which the platform made after the commitment."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import AsyncIterator

import pytest

from bot.core.model import ChatRef
from bot.core.service import Core
from gammon.fair_dice import verify_transcript
from storage import Database
from tests.bot.scripted import PLATFORM, Room, headline, play_to_the_end

SEED = bytes(range(32))
COMMITMENT = hashlib.sha256(SEED).hexdigest()


@pytest.fixture
async def fixed(migrated_url: str) -> AsyncIterator[Room]:
    """A bot whose server seeds all come from one fixed source: the same dice every run."""
    database = Database(migrated_url)
    core = Core(database, render_images=False, server_seeds=lambda: SEED)
    yield Room(core, ChatRef(PLATFORM, "group"))
    await database.close()


def _client_seeds(text: str) -> tuple[str, str]:
    # Each seed is a player's text, isolated (U+2068 … U+2069) where it is repeated.
    found = re.search("Client seeds: Anna “\u2068(.*)\u2069”, Bob “\u2068(.*)\u2069”\\.", text)
    assert found is not None, text
    return found.group(1), found.group(2)


async def _verified(room: Room, name: str) -> str:
    """What /verify tells ``name``, privately."""
    [answer] = await room.command(name, "/verify")
    assert answer.private_to == name
    return answer.text


async def test_the_challenge_publishes_the_commitment_of_the_match_it_starts(
    fixed: Room,
) -> None:
    offer = await fixed.command("anna", "/challenge @bob 1")
    assert f"Fair dice, commitment {COMMITMENT[:12]}… (/verify shows the details)" in (
        offer[0].text
    )
    # Before anything is rolled, /verify shows the whole commitment and how to choose a seed.
    for name in ("anna", "bob"):
        details = await _verified(fixed, name)
        assert f"Dice commitment (SHA-256 of the secret server seed): {COMMITMENT}." in details
        assert "/seed" in details
    started = await fixed.press("bob", "Accept")
    assert f"commitment {COMMITMENT[:12]}…" in started[0].text
    assert "Client seeds" not in started[0].text  # behind /verify
    during = await _verified(fixed, "anna")
    assert f"server seed): {COMMITMENT}." in during
    # By default both client seeds come from the accept (event e4), made after the commitment.
    assert _client_seeds(during) == ("test:e4", "test:e4")
    assert SEED.hex() not in during  # the seed stays secret until the end
    await play_to_the_end(fixed, ("anna", "bob"), seed=3)
    ending = next(message for message in fixed.log if headline(message).startswith("Match over"))
    transcript = json.loads(ending.attachments[0].data)
    assert ending.attachments[0].filename in ending.text  # named where it is explained
    assert transcript["commitment"] == COMMITMENT
    assert transcript["server_seed"] == SEED.hex()
    assert verify_transcript(transcript).ok
    after = await _verified(fixed, "bob")
    assert f"The server seed, revealed at the end: {SEED.hex()}." in after
    assert _client_seeds(after) == ("test:e4", "test:e4")


async def test_seeds_chosen_after_the_commitment_are_used_once(fixed: Room) -> None:
    await fixed.command("anna", "/challenge @bob 1")
    await fixed.command("anna", "/seed anna's luck")
    await fixed.command("bob", "/seed bob-7")
    await fixed.press("bob", "Accept")
    assert _client_seeds(await _verified(fixed, "bob")) == ("anna's luck", "bob-7")
    bob = await fixed.core.ports.repositories.users.upsert_user(PLATFORM, "bob", "Bob")
    assert (bob.next_seed, bob.next_seed_at) == (None, None)


async def test_a_seed_chosen_before_the_commitment_is_not_used(fixed: Room) -> None:
    await fixed.command("bob", "/seed chosen-too-early")
    await fixed.command("anna", "/challenge @bob 1")
    await fixed.press("bob", "Accept")
    assert _client_seeds(await _verified(fixed, "anna")) == ("test:e3", "test:e3")


async def test_the_rules_explain_the_order(fixed: Room) -> None:
    chapter = (await fixed.command("anna", "/rules dice"))[0].text
    published = chapter.index("with the challenge")
    seeds = chapter.index("/seed")
    first_roll = chapter.index("first roll")
    assert published < seeds < first_roll
    assert "(against me: the press of [Start])" in chapter  # a match against the bot
