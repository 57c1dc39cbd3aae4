"""People in a tournament over the fake Telegram (issue 39's whole-tournament tests): the
pairings' announcements and their [Start], the players' typed /roll and /move, and the new
process's first clock round. In a forum group each pairing is announced in a topic of its own:
its [Start] is pressed and its moves typed there (elsewhere, in the group itself)."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from storage import TournamentRecord
from tests.fakes.telegram_bot_api import Call, FakeBotApi, Stored, user
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


def topic_of(stored: Stored) -> int | None:
    """The forum topic a message is in (None: the group itself, or a forum's General)."""
    if not stored.data.get("is_topic_message"):
        return None
    return int(stored.data["message_thread_id"])


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
    telegram: Harness,
    players: tuple[dict[str, Any], dict[str, Any]],
    rng: random.Random,
    topic: int | None = None,
) -> bool:
    """One typed step of the players' match, in the group or its forum ``topic``: False once
    it has ended."""
    key = str(GROUP) if topic is None else f"{GROUP}:{topic}"
    chat = await telegram.stores.chats.find_chat("telegram", key)
    first = await telegram.stores.users.find_user("telegram", str(players[0]["id"]))
    assert chat is not None
    assert first is not None
    turn = await next_turn(telegram.stores, chat.id, first.id, rng)
    if turn is None:
        return False
    mover = PEOPLE[(await telegram.stores.users.get_user(turn[0])).platform_user_id]
    await telegram.say(mover, GROUP, turn[1], topic=topic)
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
    were started, the forum topic each was announced and played in (None: the group), the
    Bot API calls the bot made from each [Start] to its match's end and news, how many
    announcements waited when the process stopped mid-match, and how many pairings the new
    process's clock announced after the stop between a match's end and its news."""

    started: list[str] = field(default_factory=list)
    topics: list[int | None] = field(default_factory=list)
    calls: list[list[Call]] = field(default_factory=list)
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
        topic = topic_of(announcement)
        played.started.append(announcement.data["text"])
        played.topics.append(topic)
        mark = len(bot.api.calls)
        assert len(played.started) <= most
        stops_after_the_commit = len(played.started) - 1 == stop_after
        if stops_after_the_commit:  # the match's end is written, its news never posted
            starts = telegram.core.ports.services.tournaments.starts
            starts.announce = nothing_announced  # type: ignore[method-assign]
        await telegram.press(players[1], GROUP, message_id, start)
        assert ANNOUNCED not in bot.api.messages[(GROUP, message_id)].data["text"]
        steps = 0
        while await step(telegram, players, rng, topic):
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
        played.calls.append(bot.api.calls[mark:])
    return played


async def api_delivers_the_clock(telegram: Harness) -> int:
    """The new process's first clock round, posted: how many pairings it announced (those
    the old process wrote and stopped before announcing)."""
    swept = await telegram.core.ports.clock.tick()
    await telegram.adapter.deliver(swept)
    return len([message for message in swept if message.buttons])


TOPIC_LINK = "https://t.me/c/123/"  # GROUP is the supergroup -100123
POINTER = "play in their thread: "


def _where(api: FakeBotApi, call: Call) -> tuple[int, int | None] | None:
    """The group and topic a call sent or edited a message in (None: no message of the
    group's, such as a player's private notification or a button's answer)."""
    chat_id = call.params.get("chat_id")
    if not isinstance(chat_id, int) or chat_id > 0:
        return None
    if call.method.startswith("send"):
        return chat_id, call.params.get("message_thread_id")
    if call.method.startswith("edit"):
        return chat_id, topic_of(api.messages[(chat_id, call.params["message_id"])])
    return None


def check_played_in_topics(api: FakeBotApi, played: Played, name: str) -> None:
    """Every pairing of the tournament ``name`` in the forum GROUP was announced in a topic of
    its own, named after its stage and players, that a line in General links; its [Start] was
    pressed and its moves typed there, and every message of its match went there: what its
    end made known was posted in General (the lines that lead to the next pairings' new
    topics, the tournament's end) and in those topics (their announcements), nothing else."""
    topics = played.topics
    assert None not in topics
    assert len(set(topics)) == len(topics)
    general = [stored.data.get("text", "") for stored in api.in_topic(GROUP, None)]
    for text, topic, calls in zip(played.started, topics, played.calls, strict=True):
        found = re.search(
            f"^{re.escape(name)}, (.+): (\\w+) vs (\\w+), a 1-point match", text, re.M
        )
        assert found is not None
        stage, first, second = found.groups()
        assert topic is not None
        assert api.topics[(GROUP, topic)] == f"{stage} · {first} – {second}"
        link = f"{name}, {stage}: {first} vs {second} {POINTER}{TOPIC_LINK}{topic}"
        assert general.count(link) == 1
        in_topic = api.in_topic(GROUP, topic)
        assert in_topic[0].data["text"].startswith(f"{name}, {stage}, match ")  # the [Start]
        assert not any(ANNOUNCED in stored.data.get("text", "") for stored in in_topic)
        opened = [call.params["name"] for call in calls if call.method == "createForumTopic"]
        new = {thread for (group, thread), named in api.topics.items() if named in opened}
        assert len(new) == len(opened)
        where = [(_where(api, call), call.method, call.params.get("text", "")) for call in calls]
        assert ((GROUP, topic), "sendMessage") in {(place, method) for place, method, _ in where}
        for place, _method, said in where:
            if place is None or place == (GROUP, topic):
                continue
            assert place[0] == GROUP
            if place[1] is None:  # General: a line to a new topic, or the end
                assert POINTER in said or f"{name} is over." in said
            else:
                assert place[1] in new
                assert ANNOUNCED in said
    begun = next(i for i, said in enumerate(general) if f"{name} has begun." in said)
    rest = [said for said in general[begun + 1 :] if POINTER not in said]
    assert len(rest) == 1
    assert rest[0].startswith(f"{name} is over.")
    assert len(general) - begun - 2 == len(topics)  # one line per pairing
    typed = [s.data for s in api.messages.values() if s.data.get("text", "").startswith("/")]
    moves = [data for data in typed if data["text"].split()[0] in ("/roll", "/move")]
    assert moves
    assert all(data.get("is_topic_message") for data in moves)
