"""People in a tournament over the fake Telegram (issue 39's whole-tournament tests): the
pairings' announcements and their [Start], the players' typed /roll and /move, and the new
process's first clock round."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from storage import TournamentRecord
from tests.fakes.telegram_bot_api import FakeBotApi, Stored, user
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness, Process
from tests.tournament_runs import next_turn, nothing_announced

DORA = user(44, "Dora", "dora")
EMIL = user(55, "Emil", "emil")
FAY = user(66, "Fay", "fay")
GUS = user(77, "Gus", "gus")
HAL = user(88, "Hal", "hal")
PEOPLE = {str(person["id"]): person for person in (ANNA, BOB, CARL, DORA, EMIL, FAY, GUS, HAL)}
MENTION = re.compile(r'<a href="tg://user\?id=(\d+)">')
ANNOUNCED = "Commitment to its dice"


def waiting(api: FakeBotApi) -> list[Stored]:
    """The announcements whose [Start] nobody has pressed (the start replaces them)."""
    return [
        stored
        for stored in api.in_chat(GROUP)
        if ANNOUNCED in stored.data.get("text", "") and stored.data.get("reply_markup")
    ]


def pairing_players(announcement: Stored) -> tuple[dict[str, Any], dict[str, Any]]:
    first, second = MENTION.findall(announcement.data["text"])[:2]
    return PEOPLE[first], PEOPLE[second]


def start_data(announcement: Stored) -> str:
    (row,) = announcement.data["reply_markup"]["inline_keyboard"]
    (button,) = row
    assert button["text"] == "Start"
    return str(button["callback_data"])


def end_told(api: FakeBotApi, name: str) -> str:
    """The group's message that told the tournament's end (once)."""
    told = [stored.data.get("text", "") for stored in api.in_chat(GROUP)]
    (end,) = [text for text in told if f"{name} is over." in text]
    return str(end)


async def step(
    telegram: Harness, players: tuple[dict[str, Any], dict[str, Any]], rng: random.Random
) -> bool:
    """One typed step of the players' match: False once it has ended."""
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    first = await telegram.stores.users.find_user("telegram", str(players[0]["id"]))
    assert chat is not None
    assert first is not None
    turn = await next_turn(telegram.stores, chat.id, first.id, rng)
    if turn is None:
        return False
    mover = PEOPLE[(await telegram.stores.users.get_user(turn[0])).platform_user_id]
    await telegram.say(mover, GROUP, turn[1])
    return True


async def open_tournament(
    telegram: Harness, opening: str, people: tuple[dict[str, Any], ...]
) -> tuple[TournamentRecord, str]:
    """The first of ``people`` (an administrator of the group) opens the tournament with
    ``/tournament new OPENING``, three join with [Join] and the others with /tournament join,
    and the first starts it: the tournament, and the registration as it read before."""
    telegram.api.admins.add((GROUP, people[0]["id"]))
    await telegram.say(people[0], GROUP, f"/tournament new {opening}")
    for person in people[1:4]:
        await telegram.press_label(person, GROUP, "Join")
    for person in people[4:]:
        await telegram.say(person, GROUP, "/tournament join")
    registration = telegram.api.in_chat(GROUP)[-1].data["text"]
    await telegram.say(people[0], GROUP, "/tournament start")
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    assert chat is not None
    (tournament,) = await telegram.stores.tournaments.live_in_chat(chat.id)
    return tournament, str(registration)


@dataclass
class Played:
    """What :func:`play_through` saw: the announcements' texts in the order their matches
    were started, how many announcements waited when the process stopped mid-match, and how
    many pairings the new process's clock announced after the stop between a match's end
    and its news."""

    started: list[str] = field(default_factory=list)
    waiting_at_the_restart: int = 0
    swept: int = 0


async def play_through(
    bot: Process, rng: random.Random, *, restart_in: int, stop_after: int, most: int
) -> Played:
    """Every announced pairing, the oldest first, started by its second player's [Start] and
    played to its end, until none waits (``most`` matches at most). The process stops five
    turns into the match numbered ``restart_in`` (from 0): the new one announces nothing
    again and refuses the old process's [Start] of that match. It stops again after match
    ``stop_after``'s end is written but not its news, which the new process's clock posts."""
    played = Played()
    telegram = bot.harness
    assert telegram is not None
    while unstarted := waiting(bot.api):
        announcement = unstarted[0]
        message_id = announcement.data["message_id"]
        players = pairing_players(announcement)
        start = start_data(announcement)
        played.started.append(announcement.data["text"])
        assert len(played.started) <= most
        stops_after_the_commit = len(played.started) - 1 == stop_after
        if stops_after_the_commit:  # the match's end is written, its news never posted
            starts = telegram.core.ports.services.tournaments.starts
            starts.announce = nothing_announced  # type: ignore[method-assign]
        await telegram.press(players[1], GROUP, message_id, start)
        assert ANNOUNCED not in bot.api.messages[(GROUP, message_id)].data["text"]
        steps = 0
        while await step(telegram, players, rng):
            steps += 1
            if len(played.started) - 1 == restart_in and steps == 5:  # the process stops
                played.waiting_at_the_restart = len(unstarted) - 1
                telegram = await bot.restart()
                assert await api_delivers_the_clock(telegram) == 0  # nothing twice
                answered = await telegram.press(players[0], GROUP, message_id, start)
                assert "This match has already started." in str(answered[-1].params)
        if stops_after_the_commit:
            announced = len(waiting(bot.api))
            telegram = await bot.restart()
            played.swept = await api_delivers_the_clock(telegram)  # the pairings its end made
            assert len(waiting(bot.api)) == announced + played.swept
    return played


async def api_delivers_the_clock(telegram: Harness) -> int:
    """The new process's first clock round, posted: how many pairings it announced (those
    the old process wrote and stopped before announcing)."""
    swept = await telegram.core.ports.clock.tick()
    await telegram.adapter.deliver(swept)
    return len([message for message in swept if message.buttons])
