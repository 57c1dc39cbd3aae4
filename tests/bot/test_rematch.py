"""[Rematch] under a match's end: the first press challenges the other player to the same
match (length, variant, cube and money rules, time limit, hints, rating), the other player's
press accepts; against the bot a press offers the new match with its commitment, and [Start]
starts it. Only the players press
it, a repeated or late press is refused politely, the usual limits hold, and the button works
after a restart (it carries only the match's number)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.model import ChatRef, Message
from bot.core.service import Core
from gammon import Variant
from storage import ChallengeLimits, Database, MatchInfo
from tests.bot.scripted import PLATFORM, Room, headline
from tests.seeds import fixed_seeds


async def _resigned(room: Room, rules: str) -> Message:
    """Anna challenges Bob to ``rules``; Bob (who opens with the fixed seeds) resigns a
    backgammon at once, which Anna accepts; the end of the match."""
    await room.command("anna", f"/challenge @bob {rules}")
    await room.press("bob", "Accept")
    await room.command("bob", "/resign backgammon")
    await room.press("bob", "Resign")
    answer = await room.press("anna", "Accept")
    end = answer[-1]
    assert headline(end).startswith("Match over: Anna wins")
    return end


async def _info(room: Room, match_id: int) -> MatchInfo:
    return await room.stores.matches.match_info(match_id)


async def test_one_player_offers_the_same_match_and_the_other_accepts(room: Room) -> None:
    end = await _resigned(room, "3 time=2h hints unrated")
    assert [button.label for button in end.buttons] == ["Rematch"]
    offer = await room.press("anna", "Rematch")
    assert len(offer) == 1
    assert offer[0].private_to is None
    assert offer[0].text.startswith(
        "Anna offers Bob a rematch: a 3-point match of backgammon (2 h per move), hints allowed, "
        "unrated. The offer expires in a day.\nFair dice, commitment "
    )
    assert [button.label for button in offer[0].buttons] == ["Accept", "Decline", "Cancel"]
    assert offer[0].mention == ("bob",)
    # Bob's press on the same end accepts: the new match, with the old one's terms.
    started = await room.send("bob", token=end.buttons[0].token)
    assert started[0].text.startswith("Match 2: Anna vs Bob, 3-point match of backgammon (2 h ")
    old, new = await _info(room, 1), await _info(room, 2)
    assert new.status == "active"
    assert new.player_ids == old.player_ids  # the one who offered first
    assert (new.rules, new.move_time_limit, new.hints, new.rated) == (
        old.rules,
        7200,
        True,
        False,
    )


async def test_the_other_player_may_accept_with_the_challenges_own_button(room: Room) -> None:
    await _resigned(room, "1")
    await room.press("bob", "Rematch")  # the loser offers, this time
    started = await room.press("anna", "Accept")
    assert started[0].text.startswith("Match 2: Bob vs Anna, 1-point match")


async def test_a_second_or_late_press_is_refused_politely(room: Room) -> None:
    end = await _resigned(room, "1")
    await room.send("anna", token=end.buttons[0].token)
    again = await room.send("anna", token=end.buttons[0].token)
    assert [(message.private_to, message.text) for message in again] == [
        ("anna", "You have offered Bob a rematch already: it waits for their answer.")
    ]
    await room.send("bob", token=end.buttons[0].token)  # accepted: match 2 is on
    for name in ("anna", "bob"):
        late = await room.send(name, token=end.buttons[0].token)
        assert [(message.private_to, message.text) for message in late] == [
            (name, "You are already playing a match in this chat.")
        ]
    assert (
        await room.stores.matches.active_match_id_for(
            (await room.stores.chats.upsert_chat(PLATFORM, "group-1")).id,
            (await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")).id,
        )
        == 2
    )


async def test_only_the_players_may_press_it(room: Room) -> None:
    end = await _resigned(room, "1")
    refused = await room.send("carl", token=end.buttons[0].token)
    assert [(message.private_to, message.text) for message in refused] == [
        ("carl", "This is not your match.")
    ]
    elsewhere = Room(room.core, ChatRef(PLATFORM, "group-2"), prefix="x")
    moved = await elsewhere.send("anna", token=end.buttons[0].token)
    assert [message.text for message in moved] == ["That button is out of date."]


async def test_the_button_works_after_a_restart(room: Room, migrated_url: str) -> None:
    end = await _resigned(room, "1")
    database = Database(migrated_url)
    restarted = Room(
        Core(database, render_images=False, server_seeds=fixed_seeds()),
        room.chat,
        prefix="r",
    )
    try:
        offer = await restarted.send("bob", token=end.buttons[0].token)
        assert offer[0].text.startswith("Bob offers Anna a rematch: a 1-point match")
        started = await restarted.send("anna", token=end.buttons[0].token)
        assert started[0].text.startswith("Match 2: Bob vs Anna")
    finally:
        await database.close()


async def test_the_usual_limit_of_open_challenges_holds(migrated_url: str) -> None:
    database = Database(migrated_url)
    core = Core(
        database,
        render_images=False,
        server_seeds=fixed_seeds(),
        challenge_limits=ChallengeLimits(per_user=1),
    )
    room = Room(core, ChatRef(PLATFORM, "group-1"))
    try:
        end = await _resigned(room, "1")
        await room.command("anna", "/challenge @carl 1")
        refused = await room.send("anna", token=end.buttons[0].token)
        assert refused[0].private_to == "anna"
        assert refused[0].text.startswith("You already have 1 open challenge.")
    finally:
        await database.close()


@pytest.mark.parametrize(
    ("rules", "variant", "length"),
    [("money jacoby beaver time=1h", Variant.BACKGAMMON, 0), ("1 nardy", Variant.LONG_NARDY, 1)],
)
async def test_money_rules_and_long_nardy_are_offered_again(
    room: Room, rules: str, variant: Variant, length: int
) -> None:
    await room.command("anna", f"/challenge @bob {rules}")
    await room.press("bob", "Accept")
    loaded = await room.match_of("anna")
    assert loaded is not None
    waiting = "anna" if loaded.state.turn == 1 else "bob"
    if length:  # the one to act resigns: the match is over
        await room.command("bob" if waiting == "anna" else "anna", "/resign")
        await room.press("bob" if waiting == "anna" else "anna", "Resign")
        await room.press(waiting, "Accept")
    else:  # a money session ends only when a player's time runs out and the other claims
        later = room.core.clock() + timedelta(hours=2)
        room.core.clock = lambda: later
        await room.command(waiting, "/claim")
    old = await _info(room, 1)
    assert old.status != "active"
    assert (old.rules.variant, old.rules.length) == (variant, length)
    await room.press(waiting, "Rematch")
    await room.press("bob" if waiting == "anna" else "anna", "Rematch")
    new = await _info(room, 2)
    assert (new.rules, new.move_time_limit) == (old.rules, old.move_time_limit)


async def test_against_the_bot_a_press_offers_the_same_match_to_start(bot_room: Room) -> None:
    await bot_room.command("anna", "/play 1 beginner nocube")
    await bot_room.press("anna", "Start")
    await bot_room.command("anna", "/resign")
    answer = await bot_room.press("anna", "Resign")  # the bot accepts a whole match at once
    end = answer[-1]
    assert headline(end).startswith("Match over: gammonbot wins 1–0.")
    offer = await bot_room.send("anna", token=end.buttons[0].token)
    assert [button.label for button in offer[0].buttons] == ["Start", "Cancel"]
    started = await bot_room.press("anna", "Start")
    assert started[0].text.startswith(
        "Match 2: Anna vs gammonbot (beginner), 1-point match of backgammon (no cube, "
    )
    old, new = await _info(bot_room, 1), await _info(bot_room, 2)
    assert (new.rules, new.bot_level, new.status) == (old.rules, "beginner", "active")
