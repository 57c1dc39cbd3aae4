"""Matches in the database: the event log is the truth, the snapshot only a cache."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from gammon.actions import (
    AcceptResignation,
    Beaver,
    CannotMove,
    Double,
    Drop,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
    WinKind,
)
from gammon.fair_dice import FairDice, commitment, join_client_seeds, transcript, verify_transcript
from gammon.flow import ActionError, Phase, replay
from gammon.match_rules import MatchRules
from storage import ChallengeRepository, ConflictError, SeedStillSecretError, UserRepository
from tests.storage.players import Table, append_action, create_match, drop_snapshot, next_action


async def play(table: Table, match_id: int, steps: int, seed: int) -> int:
    rng = random.Random(seed)
    version = 0
    for _ in range(steps):
        loaded = await table.matches.load_match(match_id)
        if loaded.info.status != "active":
            break
        action = await next_action(table.dice, match_id, loaded.state, rng)
        appended = await append_action(table.matches, match_id, loaded.info.version, action)
        version = appended.match.info.version
    return version


async def test_a_new_match_waits_for_the_opening_roll(table: Table) -> None:
    loaded = await table.new_match()
    assert loaded.info.version == 0
    assert loaded.info.status == "active"
    assert loaded.state.phase is Phase.OPENING
    assert len(loaded.info.dice_commitment) == 64


async def test_appending_checks_and_bumps_the_version(table: Table) -> None:
    match = await table.new_match()
    dice = await table.dice.dice_for(match.info.id, 0)
    appended = await append_action(table.matches, match.info.id, 0, OpeningRoll(dice))
    assert appended.match.info.version == 1
    with pytest.raises(ConflictError):
        await append_action(table.matches, match.info.id, 0, OpeningRoll(dice))
    assert len(await table.matches.events(match.info.id)) == 1


async def test_a_refused_action_writes_nothing(table: Table) -> None:
    match = await table.new_match()
    with pytest.raises(ActionError):
        await append_action(table.matches, match.info.id, 0, Roll(0, (3, 1)))
    reloaded = await table.matches.load_match(match.info.id)
    assert reloaded.info.version == 0
    assert await table.matches.events(match.info.id) == []


async def test_a_dance_is_appended_together_with_its_roll(table: Table) -> None:
    rng = random.Random(17)
    for _game in range(30):
        match = await table.new_match(MatchRules(length=1))
        while True:
            loaded = await table.matches.load_match(match.info.id)
            if loaded.info.status != "active":
                break
            action = await next_action(table.dice, match.info.id, loaded.state, rng)
            appended = await append_action(
                table.matches, match.info.id, loaded.info.version, action
            )
            if len(appended.recorded) == 2:
                assert isinstance(appended.recorded[1], CannotMove)
                assert appended.match.info.version == loaded.info.version + 2
                events = await table.matches.events(match.info.id)
                assert events[-2:] == list(appended.recorded)
                return
    raise AssertionError("no dance in 30 random one-point matches")


async def test_deleted_snapshots_come_back_identical(table: Table) -> None:
    loaded = []
    for number in range(6):
        variant = "long_nardy" if number % 2 else "backgammon"
        match = await table.new_match(MatchRules(length=3, variant=variant))
        await play(table, match.info.id, 60 + number * 10, seed=number)
        loaded.append(await table.matches.load_match(match.info.id))
    for match in loaded:
        await drop_snapshot(table, match.info.id)
    for match in loaded:
        again = await table.matches.load_match(match.info.id)
        assert again.state == match.state
        assert again.info.version == match.info.version
        events = await table.matches.events(match.info.id)
        assert replay(match.info.rules, events) == match.state


async def test_every_action_type_round_trips_through_the_log(table: Table) -> None:
    money = await table.new_match(MatchRules(length=0, beavers=True))
    match_id = money.info.id
    actions = [
        OpeningRoll((3, 1)),
        Move(0, "8/5 6/5"),
        Roll(1, (6, 4)),
        Move(1, "24/14"),
        Double(0),
        Beaver(1),
        Roll(0, (2, 1)),
        Move(0, "13/11 6/5"),
        Double(1),
        Take(0),
        Resign(1, WinKind.GAMMON),
        RejectResignation(0),
        Roll(1, (6, 6)),
        Resign(0, WinKind.BACKGAMMON),
        AcceptResignation(1),
        OpeningRoll((2, 5)),
        Move(1, "13/11 13/8"),
        Double(0),
        Drop(1),
    ]
    version = 0
    for action in actions:
        appended = await append_action(table.matches, match_id, version, action)
        version = appended.match.info.version
    events = await table.matches.events(match_id)
    assert {type(event).__name__ for event in events} >= {
        "OpeningRoll",
        "Move",
        "Roll",
        "Double",
        "Beaver",
        "Take",
        "Drop",
        "Resign",
        "AcceptResignation",
        "RejectResignation",
    }
    await drop_snapshot(table, match_id)
    assert (await table.matches.load_match(match_id)).state == replay(
        MatchRules(length=0, beavers=True), events
    )
    nardy = await table.new_match(MatchRules(length=1, variant="long_nardy", last_roll=True))
    for action in (OpeningRoll((5, 2)), Roll(0, (6, 6)), Move(0, "24/18(2)"), Roll(1, (4, 4))):
        version = (await table.matches.load_match(nardy.info.id)).info.version
        await append_action(table.matches, nardy.info.id, version, action)
    events = await table.matches.events(nardy.info.id)
    assert events[-1] == Roll(1, (4, 4))
    assert replay(nardy.info.rules, events) == (await table.matches.load_match(nardy.info.id)).state


async def test_the_seed_stays_secret_until_the_match_ends(table: Table) -> None:
    match = await table.new_match(MatchRules(length=1))
    with pytest.raises(SeedStillSecretError):
        await table.dice.reveal_seed(match.info.id)
    listings = [
        await table.matches.load_match(match.info.id),
        await table.matches.active_match_for(table.chat_id, table.player_ids[0]),
        await table.matches.active_matches_of(table.player_ids[1]),
    ]
    await play(table, match.info.id, 2000, seed=3)
    seed = await table.dice.reveal_seed(match.info.id)
    for listing in listings:
        assert seed.hex() not in repr(listing)
    final = await table.matches.load_match(match.info.id)
    assert final.info.status == "finished"
    assert commitment(seed) == final.info.dice_commitment
    dice = FairDice(seed, join_client_seeds(*final.info.client_seeds))
    rolls = [
        action.dice
        for action in await table.matches.events(match.info.id)
        if isinstance(action, OpeningRoll | Roll)
    ]
    assert verify_transcript(transcript(dice, rolls)).ok


async def test_queries_for_the_command_layer(table: Table) -> None:
    now = datetime(2026, 11, 29, 12, tzinfo=UTC)
    match = await create_match(
        table.matches,
        chat_id=table.chat_id,
        player_ids=table.player_ids,
        rules=MatchRules(length=3),
        server_seed=bytes(32),
        client_seeds=("a", "b"),
        move_time_limit=3600,
        now=now,
    )
    found = await table.matches.active_match_for(table.chat_id, table.player_ids[1])
    assert found is not None
    assert found.info.id == match.info.id
    assert await table.matches.active_match_for(table.chat_id + 1, table.player_ids[1]) is None
    appended = await append_action(table.matches, match.info.id, 0, OpeningRoll((3, 1)), now=now)
    assert appended.match.info.turn_user_id == table.player_ids[0]  # 3-1: player 0 starts
    assert appended.match.info.deadline == now + timedelta(hours=1)
    timed = await table.matches.timed_matches()
    assert [(info.id, info.deadline) for info in timed] == [
        (match.info.id, now + timedelta(hours=1))
    ]
    mine = await table.matches.active_matches_of(table.player_ids[1])
    assert [info.id for info in mine] == [match.info.id]


async def test_users_chats_and_challenges(table: Table) -> None:
    users = UserRepository(table.database)
    again = await users.upsert_user("telegram", "1001", "Anna K.", "de")
    assert again.id == table.player_ids[0]
    assert (again.display_name, again.locale) == ("Anna K.", "de")
    updated = await users.set_preferences(again.id, {"auto_roll": False})
    assert updated.preferences == {"auto_roll": False}
    challenges = ChallengeRepository(table.database)
    offer = await challenges.create_challenge(
        chat_id=table.chat_id,
        challenger_id=table.player_ids[0],
        challenged_id=None,
        rules=MatchRules(length=5),
        move_time_limit=None,
    )
    found = await challenges.open_challenge_for(
        table.chat_id, table.player_ids[1], datetime.now(UTC)
    )
    assert found is not None
    assert found.id == offer.id
    accepted = await challenges.answer_challenge(offer.id, "accepted")
    assert accepted.state == "accepted"
    with pytest.raises(ConflictError):
        await challenges.answer_challenge(offer.id, "declined")
    assert await challenges.due_challenges(datetime.now(UTC) + timedelta(days=2)) == []


async def test_recent_events_say_who_made_each_write(table: Table) -> None:
    """A board's first line is told from the last writes and who made them: the first action
    of a write made for a person carries that person, what the dice did carries nobody."""
    match = await table.new_match()
    anna, bob = table.player_ids
    match_id = match.info.id
    await append_action(table.matches, match_id, 0, OpeningRoll((5, 3)))  # Anna opens
    await append_action(table.matches, match_id, 1, Move(0, "8/3 6/3"), actor_id=anna)
    await append_action(table.matches, match_id, 2, Roll(1, (6, 4)), actor_id=bob)
    everything = await table.matches.recent_events(match_id, 3)
    assert [(event.seq, event.action, event.actor_id) for event in everything] == [
        (0, OpeningRoll((5, 3)), None),
        (1, Move(0, "8/3 6/3"), anna),
        (2, Roll(1, (6, 4)), bob),
    ]
    last_two = await table.matches.recent_events(match_id, 3, 2)
    assert [event.seq for event in last_two] == [1, 2]
    at_version_two = await table.matches.recent_events(match_id, 2, 5)
    assert [event.seq for event in at_version_two] == [0, 1]


async def test_the_open_challenge_one_player_made_to_another(table: Table) -> None:
    challenges = ChallengeRepository(table.database)
    anna, bob = table.player_ids
    now = datetime.now(UTC)
    assert await challenges.open_challenge_from(table.chat_id, anna, bob, now) is None
    to_anyone = await challenges.create_challenge(
        chat_id=table.chat_id,
        challenger_id=anna,
        challenged_id=None,
        rules=MatchRules(length=3),
        move_time_limit=None,
    )
    assert await challenges.open_challenge_from(table.chat_id, anna, bob, now) is None
    to_bob = await challenges.create_challenge(
        chat_id=table.chat_id,
        challenger_id=anna,
        challenged_id=bob,
        rules=MatchRules(length=5),
        move_time_limit=None,
    )
    found = await challenges.open_challenge_from(table.chat_id, anna, bob, now)
    assert found is not None
    assert found.id == to_bob.id
    newest = await challenges.open_challenge_from(table.chat_id, anna, None, now)
    assert newest is not None
    assert newest.id == to_bob.id  # whoever it is for
    assert await challenges.open_challenge_from(table.chat_id, bob, anna, now) is None
    await challenges.answer_challenge(to_bob.id, "cancelled")
    left = await challenges.open_challenge_from(table.chat_id, anna, None, now)
    assert left is not None
    assert left.id == to_anyone.id
    later = now + timedelta(days=2)  # both expired
    assert await challenges.open_challenge_from(table.chat_id, anna, None, later) is None
