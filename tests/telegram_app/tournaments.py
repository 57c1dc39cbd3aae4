"""People in a tournament over the fake Telegram (issue 39's whole-tournament tests): the
pairings' announcements and their [Start], the players' typed /roll and /move, and the new
process's first clock round."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.core.model import Message
from tests.fakes.telegram_bot_api import FakeBotApi, Stored, user
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness
from tests.tournament_runs import next_turn

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


async def api_delivers_the_clock(telegram: Harness) -> int:
    """The new process's first clock round, posted: how many pairings it announced (those
    the old process wrote and stopped before announcing)."""
    swept = await telegram.core.ports.clock.tick()
    await telegram.adapter.deliver(swept)
    return len([message for message in swept if message.buttons])


async def nothing_announced(_context: object, _tournament_id: int) -> list[Message]:
    """An old process that stops between writing a match's end (its new pairings with it)
    and announcing them."""
    return []
