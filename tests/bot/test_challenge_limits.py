"""Open challenges are limited per user and per chat, and /accept stays one indexed read
however many are open; names from mentions are cut to a sane length."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from functools import partial

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from bot.core.model import Actor, ChatRef, Request
from bot.core.service import Core
from gammon.match_rules import MatchRules
from storage import ChallengeLimits, Database
from storage.schema import challenges
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds


async def test_a_user_may_have_five_open_challenges(room: Room) -> None:
    for number in range(5):
        offer = await room.command("anna", f"/challenge @player{number} 3")
        assert offer[0].buttons, offer[0].text
    refused = await room.command("anna", "/challenge @player5 3")
    assert [message.text for message in refused] == [
        "You already have 5 open challenges. Wait for an answer, or cancel one with its "
        "[Cancel] button, before you offer another."
    ]
    assert refused[0].private_to == "anna"
    await room.press("anna", "Cancel")  # the newest offer's [Cancel]
    again = await room.command("anna", "/challenge @player5 3")
    assert again[0].buttons


async def test_expired_challenges_do_not_count(room: Room) -> None:
    for number in range(5):
        await room.command("anna", f"/challenge @player{number} 3")
    room.core.clock = lambda: datetime.now(UTC) + timedelta(days=2)
    assert (await room.command("anna", "/challenge @player5 3"))[0].buttons


async def test_a_chat_may_have_twenty_open_challenges(migrated_url: str) -> None:
    database = Database(migrated_url)
    limits = ChallengeLimits(per_user=5, per_chat=3)
    core = Core(database, render_images=False, challenge_limits=limits, server_seeds=fixed_seeds())
    room = Room(core, ChatRef(PLATFORM, "group-1"))
    for name in ("anna", "bob", "carl"):
        await room.command(name, "/challenge 3")
    refused = await room.command("dora", "/challenge 3")
    assert [message.text for message in refused] == [
        "This chat already has 3 open challenges. Accept, decline or cancel some before a new "
        "one is offered here."
    ]
    assert ChallengeLimits() == ChallengeLimits(per_user=5, per_chat=20)
    await database.close()


async def test_accept_takes_the_newest_offer_for_the_user_among_thousands(room: Room) -> None:
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    bob = await room.stores.users.upsert_user(PLATFORM, "bob", "Bob")
    carl = await room.stores.users.upsert_user(PLATFORM, "carl", "Carl")
    first = await room.stores.challenges.create_challenge(
        chat_id=chat.id,
        challenger_id=anna.id,
        challenged_id=carl.id,
        rules=MatchRules(length=3),
        move_time_limit=None,
        server_seed=bytes(32),
    )
    targets = [carl.id] * 1499 + [bob.id, None] + [carl.id] * 1500
    await room.stores.challenges.engine.write(partial(_copies, first.id, targets))
    assert [
        (await room.stores.challenges.get_challenge(n)).challenged_id for n in (1501, 1502)
    ] == [
        bob.id,
        None,
    ]
    started = await room.command("bob", "/accept")
    assert started[0].text.startswith("Match 1: Anna vs Bob")
    offer = await room.stores.challenges.get_challenge(1502)  # the open one, newer than bob's
    assert offer.state == "accepted"


def _copies(template: int, targets: list[int | None], connection: Connection) -> None:
    """Copies of offer ``template`` as the repository wrote it, one to each of ``targets`` in
    this order, in one transaction (one write each took seconds)."""
    row = connection.execute(sa.select(challenges).where(challenges.c.id == template)).one()
    values = {name: value for name, value in row._mapping.items() if name != "id"}
    connection.execute(sa.insert(challenges), [values | {"challenged_id": t} for t in targets])


async def test_mentioned_names_are_cut_and_cleaned(room: Room) -> None:
    long_name = "x" * 200_000
    mention = Actor(PLATFORM, "longname", long_name + "\x00")
    offer = await room.send("anna", command="challenge", argument="3", mentions=(mention,))
    user = await room.stores.users.upsert_user(PLATFORM, "longname", "ignored")
    assert len(user.display_name) <= 64
    assert offer[0].text.startswith("Anna challenges " + "x" * 64 + " to a")
    too_long_id = Actor(PLATFORM, "y" * 65, "Y")
    refused = await room.send("anna", command="challenge", argument="", mentions=(too_long_id,))
    assert refused[0].text == "I cannot find that player."
    odd = await room.send("al\udcffice", command="help", argument="")
    assert odd  # answered, no crash


async def test_the_limit_holds_for_two_processes_challenging_at_once(migrated_url: str) -> None:
    first, second = Database(migrated_url), Database(migrated_url)
    limits = ChallengeLimits(per_user=1, per_chat=20)
    cores = [
        Core(
            database,
            render_images=False,
            challenge_limits=limits,
            server_seeds=fixed_seeds(),
        )
        for database in (first, second)
    ]
    chat = ChatRef(PLATFORM, "group")
    for round_ in range(5):
        anna = Actor(PLATFORM, f"anna{round_}", "Anna")
        answers = await asyncio.gather(
            *(
                core.handle(
                    Request(
                        anna, chat, command="challenge", argument="3", event_id=f"{round_}-{number}"
                    )
                )
                for number, core in enumerate(cores)
            )
        )
        offered = [answer for answer in answers if answer[0].buttons]
        assert len(offered) == 1, [answer[0].text for answer in answers]
    await first.close()
    await second.close()
