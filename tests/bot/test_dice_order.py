"""The fair-dice order: the commitment is published with the challenge, before any client seed
is fixed; each player may choose a seed after seeing it and before the first roll; by default
the seeds come from the accept's event id, which the platform made after the commitment."""

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
from tests.bot.scripted import PLATFORM, Room, play_to_the_end

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
    found = re.search(r"Client seeds: “(.*)” and “(.*)”\.", text)
    assert found is not None, text
    return found.group(1), found.group(2)


async def test_the_challenge_publishes_the_commitment_of_the_match_it_starts(
    fixed: Room,
) -> None:
    offer = await fixed.command("anna", "/challenge @bob 1")
    assert f"Dice commitment (SHA-256 of the secret server seed): {COMMITMENT}." in offer[0].text
    assert "/seed" in offer[0].text
    started = await fixed.press("bob", "Accept")
    assert f"server seed): {COMMITMENT}." in started[0].text
    # By default both client seeds come from the accept (event e2), made after the commitment.
    assert _client_seeds(started[0].text) == ("test:e2", "test:e2")
    await play_to_the_end(fixed, ("anna", "bob"), seed=3)
    ending = next(message for message in fixed.log if message.text.startswith("Match over"))
    assert SEED.hex() in ending.text
    transcript = json.loads(ending.attachments[0].data)
    assert transcript["commitment"] == COMMITMENT
    assert verify_transcript(transcript).ok


async def test_seeds_chosen_after_the_commitment_are_used_once(fixed: Room) -> None:
    await fixed.command("anna", "/challenge @bob 1")
    await fixed.command("anna", "/seed anna's luck")
    await fixed.command("bob", "/seed bob-7")
    started = await fixed.press("bob", "Accept")
    assert _client_seeds(started[0].text) == ("anna's luck", "bob-7")
    bob = await fixed.core.users.upsert_user(PLATFORM, "bob", "Bob")
    assert (bob.next_seed, bob.next_seed_at) == (None, None)


async def test_a_seed_chosen_before_the_commitment_is_not_used(fixed: Room) -> None:
    await fixed.command("bob", "/seed chosen-too-early")
    await fixed.command("anna", "/challenge @bob 1")
    started = await fixed.press("bob", "Accept")
    assert _client_seeds(started[0].text) == ("test:e3", "test:e3")


async def test_the_rules_explain_the_order(fixed: Room) -> None:
    chapter = (await fixed.command("anna", "/rules dice"))[0].text
    published = chapter.index("with the challenge")
    seeds = chapter.index("/seed")
    first_roll = chapter.index("first roll")
    assert published < seeds < first_roll
