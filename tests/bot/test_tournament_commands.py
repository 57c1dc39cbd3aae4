"""/tournament in a chat: an administrator opens it, players register with [Join], the
organiser starts it, each pairing is announced with [Start] for its two players, and every
match's end announces the pairings it decides, to the winner."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.model import ChatRef, Message, Private
from bot.core.service import Core
from bot.core.tournament.advance import advance_locked
from storage import Database, UserRecord
from storage.transaction import Transaction
from tests.bot.scripted import PLATFORM, Room, play_to_the_end
from tests.bot.test_clock import FakeTime
from tests.seeds import fixed_seeds

MOMENT = datetime(2026, 12, 4, 21, 0, tzinfo=UTC)


@pytest.fixture
async def timed(migrated_url: str) -> AsyncIterator[tuple[Room, FakeTime]]:
    """A group chat whose bot's clock is a fake one the test moves."""
    database = Database(migrated_url)
    time = FakeTime()
    core = Core(database, render_images=False, clock=time, server_seeds=fixed_seeds())
    yield Room(core, ChatRef(PLATFORM, "group-1")), time
    await database.close()


PLAYERS = ("ann", "bob", "cy", "dee")


def _texts(answer: list[Message]) -> str:
    return "\n".join(message.text for message in answer)


def _announcements(room: Room) -> list[Message]:
    return [m for m in room.log if any(b.label == "Start" for b in m.buttons)]


async def _opened(room: Room) -> None:
    refused = await room.command("bob", '/tournament new single 1 "Club cup"')
    assert "Only an administrator of the chat opens a tournament." in _texts(refused)
    opened = await room.command("ann", '/tournament new single 1 "Club cup"', admin=True)
    text = _texts(opened)
    assert "Club cup: single elimination" in text
    assert "Registered (1): Ann" in text
    assert [button.label for button in opened[0].buttons] == ["Join", "Leave"]
    await room.press("bob", "Join")
    joined = await room.command("cy", "/tournament join")
    assert "Registered (3): Ann, Bob, Cy" in _texts(joined)
    again = await room.command("cy", "/tournament join")
    assert "You are registered already." in _texts(again)
    await room.press("dee", "Join")


async def test_a_knockout_of_four_is_played_to_its_winner(room: Room) -> None:
    await _opened(room)
    refused = await room.command("bob", "/tournament start")
    assert "Only the organiser who opened the tournament or an administrator may." in _texts(
        refused
    )
    started = await room.command("ann", "/tournament start")
    text = _texts(started)
    assert "Club cup has begun. Seeds: 1. Ann, 2. Bob, 3. Cy, 4. Dee" in text  # equal ratings
    first_round = _announcements(room)
    assert [m.mention for m in first_round] == [("ann", "dee"), ("bob", "cy")]
    assert "semifinal 1: Ann vs Dee, a 1-point match." in first_round[0].text
    late = await room.command("bob", "/tournament join")
    assert "Registration for Club cup is closed." in _texts(late)

    stranger = await room.send("cy", token=first_round[0].buttons[0].token)
    assert "Only the two players of this pairing can start its match." in _texts(stranger)
    for announcement, players in zip(first_round, (("ann", "dee"), ("bob", "cy")), strict=True):
        begun = await room.send(players[1], token=announcement.buttons[0].token)
        assert "match" in _texts(begun)
        twice = await room.send(players[0], token=announcement.buttons[0].token)
        assert "This match has already started." in _texts(twice)
        await play_to_the_end(room, players, seed=len(room.log))

    (final,) = _announcements(room)[2:]
    assert "the final:" in final.text
    finalists = final.mention
    assert len(finalists) == 2
    await room.send(finalists[0], token=final.buttons[0].token)
    await play_to_the_end(room, (finalists[0], finalists[1]), seed=7)
    assert await room.stores.tournaments.live_in_chat(1) == []  # finished: nothing live
    shown = _texts(await room.command("bob", "/tournament"))  # the last one's outcome
    assert "Winner: " in shown
    assert "the final: " in shown


async def test_a_paused_tournament_starts_no_match(room: Room) -> None:
    await _opened(room)
    await room.command("ann", "/tournament start")
    paused = await room.command("ann", "/tournament pause")
    assert "Club cup is paused" in _texts(paused)
    announcement = _announcements(room)[0]
    held = await room.send("ann", token=announcement.buttons[0].token)
    assert "The tournament is paused: its matches start when it resumes." in _texts(held)
    await room.command("ann", "/tournament resume")
    begun = await room.send("ann", token=announcement.buttons[0].token)
    assert "match" in _texts(begun)


async def test_a_withdrawal_gives_the_opponent_a_walkover(room: Room) -> None:
    await _opened(room)
    await room.command("ann", "/tournament start")
    shown = _texts(await room.command("dee", "/tournament withdraw"))
    assert "Dee has withdrawn from Club cup" in shown
    table = _texts(await room.command("bob", "/tournament"))
    assert "semifinal 1: Ann by walkover" in table


async def test_the_clock_announces_pairings_a_stopped_process_left_unannounced(
    room: Room,
) -> None:
    await _opened(room)
    (tournament,) = await room.stores.tournaments.live_in_chat(1)
    players = (await room.stores.tournaments.snapshot(tournament.id)).seeded

    def first_pairings(transaction: Transaction) -> None:
        advance_locked(transaction, tournament.id)

    # What /tournament start writes, without what it posts after (the process stopped).
    await room.stores.tournaments.start(
        tournament.id, tournament.version, players, [], MOMENT, then=first_pairings
    )
    swept = await room.core.ports.clock.tick()
    announced = [m for m in swept if any(b.label == "Start" for b in m.buttons)]
    assert [m.mention for m in announced] == [("ann", "dee"), ("bob", "cy")]
    assert not [m for m in await room.core.ports.clock.tick() if m.buttons]  # once only


async def test_past_the_deadline_the_waiting_player_claims_and_the_organiser_decides(
    timed: tuple[Room, FakeTime],
) -> None:
    room, time = timed
    core = room.core
    await room.command("ann", '/tournament new single 3 days=2 "Slow cup"', admin=True)
    for player in PLAYERS[1:]:
        await room.command(player, "/tournament join")
    await room.command("ann", "/tournament start")
    first, _second = _announcements(room)  # Ann v Dee, Bob v Cy
    await room.send("dee", token=first.buttons[0].token)  # Bob and Cy never start theirs
    match = await room.match_of("ann")
    assert match is not None
    waiting = "dee" if match.info.turn_user_id != (await _user(room, "dee")).id else "ann"
    early = await room.command(waiting, "/claim")
    assert early
    assert all(isinstance(message.kind, Private) for message in early)  # refused
    assert (await room.match_of("ann")) is not None  # nothing was claimed yet

    time.now += timedelta(days=2, minutes=1)
    said = await core.ports.clock.tick()
    overdue = [m for m in said if "deadline" in m.text]
    assert len(overdue) == 2
    claim, unstarted = overdue
    assert [b.label for b in claim.buttons] == ["Claim win"]
    assert "Bob and Cy did not start their match before its deadline" in unstarted.text
    assert "ann" in unstarted.mention  # the organiser
    assert [m for m in await core.ports.clock.tick() if "deadline" in m.text] == []

    refused = await room.command("bob", "/tournament decide @cy")
    assert "Only the organiser" in _texts(refused)
    decided = await room.command("ann", "/tournament decide @cy")
    assert "The organiser gives Cy the match" in _texts(decided)
    claimed = await room.command(waiting, "/claim")
    assert f"{waiting.title()} wins the match" in _texts(claimed)
    final = _announcements(room)[-1]
    assert "the final:" in final.text
    assert "cy" in final.mention


async def _user(room: Room, name: str) -> UserRecord:
    return await room.stores.users.upsert_user(PLATFORM, name, name.title())


async def test_a_leagues_next_season_opens_with_its_players(room: Room) -> None:
    await room.command("ann", '/tournament new league 1 "Club league"', admin=True)
    for player in ("bob", "cy"):
        await room.command(player, "/tournament join")
    early = await room.command("ann", "/tournament next")
    assert "The season must end before the next one opens." in _texts(early)
    await room.command("ann", "/tournament start")
    played = 0
    while len(_announcements(room)) > played:  # each end announces the next pairing
        announcement = _announcements(room)[played]
        first, second = announcement.mention
        await room.send(first, token=announcement.buttons[0].token)
        await play_to_the_end(room, (first, second), seed=len(room.log))
        played += 1
    assert played == 3  # every pair once
    opened = await room.command("ann", "/tournament next")
    assert "Registered (3): " in _texts(opened)
    await room.command("cy", "/tournament leave")
    await room.command("dee", "/tournament join")
    started = _texts(await room.command("ann", "/tournament start"))
    assert "Club league has begun." in started
    (season,) = await room.stores.tournaments.live_in_chat(1)
    assert season.season == 2
    snapshot = await room.stores.tournaments.snapshot(season.id)
    dee = (await room.stores.users.upsert_user(PLATFORM, "dee", "Dee")).id
    assert snapshot.seeded[-1] == dee  # a newcomer starts at the bottom
    assert len(snapshot.seeded) == 3


async def test_registration_closes_at_its_time_and_the_tournament_starts(
    timed: tuple[Room, FakeTime],
) -> None:
    room, time = timed
    core = room.core
    opened = await room.command("ann", '/tournament new single closes=2h "Quick cup"', admin=True)
    assert "Registration closes at 2026-11-29 14:00 UTC" in _texts(opened)
    for player in PLAYERS[1:]:
        await room.command(player, "/tournament join")
    time.now += timedelta(hours=1, minutes=59)
    assert [m for m in await core.ports.clock.tick() if m.buttons] == []
    time.now += timedelta(minutes=1)
    ticked = await core.ports.clock.tick()
    assert "Quick cup has begun." in _texts(ticked)
    assert [m.mention for m in ticked if any(b.label == "Start" for b in m.buttons)] == [
        ("ann", "dee"),
        ("bob", "cy"),
    ]
    assert "has begun" not in _texts(await core.ports.clock.tick())  # once


async def test_a_lonely_registration_is_cancelled_when_it_closes(
    timed: tuple[Room, FakeTime],
) -> None:
    room, time = timed
    core = room.core
    await room.command("ann", '/tournament new single closes=1h "Lonely cup"', admin=True)
    time.now += timedelta(hours=1)
    ticked = _texts(await core.ports.clock.tick())
    assert "Registration for Lonely cup has closed with fewer than two players" in ticked
    assert await room.stores.tournaments.live_in_chat(1) == []


async def test_tournament_offers_start_again_for_announced_pairings(room: Room) -> None:
    await _opened(room)
    await room.command("ann", "/tournament start")
    shown = await room.command("cy", "/tournament")
    labels = [button.label for message in shown for button in message.buttons]
    assert labels == ["Start: Ann – Dee", "Start: Bob – Cy"]
    (again,) = [b.token for m in shown for b in m.buttons if b.label == "Start: Bob – Cy"]
    begun = await room.send("cy", token=again)
    assert "match" in _texts(begun)
    labels = [b.label for m in await room.command("cy", "/tournament") for b in m.buttons]
    assert labels == ["Start: Ann – Dee"]
