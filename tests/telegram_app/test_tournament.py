"""A whole round robin over Telegram (issue 39): six players, 1-point matches, opened by a
group administrator (``getChatMember``), registered with [Join] and /tournament join, each
pairing started with its [Start] and played with typed /roll and /move, and the bot restarted
mid-round (a new process on the same database, a match in play and pairings announced by the
old one), and again after a match's end was written but its new pairings not announced (the
new process's clock announces them): no pairing starts twice, everyone meets everyone once,
and the end is told with the table and the winner."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.core.model import Message
from bot.core.service import Core
from bot.telegram_app import TelegramAdapter
from gammon.flow import Phase
from storage import Database, TournamentSnapshot
from tests.fakes.telegram_bot_api import FakeBotApi, FakeRequest, Stored, user
from tests.seeds import fixed_seeds
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness, settings, unlimited

DORA = user(44, "Dora", "dora")
EMIL = user(55, "Emil", "emil")
FAY = user(66, "Fay", "fay")
PEOPLE = {str(person["id"]): person for person in (ANNA, BOB, CARL, DORA, EMIL, FAY)}
MENTION = re.compile(r'<a href="tg://user\?id=(\d+)">')
ANNOUNCED = "Commitment to its dice"


@dataclass
class Bot:
    """The bot as a process: a core and an adapter on the database, over one fake Bot API
    that outlives it (the chat keeps its messages across a restart)."""

    url: str
    api: FakeBotApi
    harness: Harness | None = None
    database: Database | None = None

    async def open(self) -> Harness:
        self.database = Database(self.url)
        core = Core(self.database, render_images=False, server_seeds=fixed_seeds())
        adapter = TelegramAdapter(
            core,
            settings=settings(),
            request=FakeRequest(self.api),
            updates_request=FakeRequest(self.api),
            rate_limiter=unlimited(),
        )
        await adapter.initialize()
        self.harness = Harness(self.api, adapter, core)
        return self.harness

    async def close(self) -> None:
        assert self.harness is not None
        assert self.database is not None
        await self.harness.adapter.application.shutdown()
        await self.database.close()


@pytest.fixture
async def bot(migrated_url: str) -> AsyncIterator[Bot]:
    running = Bot(migrated_url, FakeBotApi())
    await running.open()
    yield running
    await running.close()


def _waiting(api: FakeBotApi) -> list[Stored]:
    """The announcements whose [Start] nobody has pressed (the start replaces them)."""
    return [
        stored
        for stored in api.in_chat(GROUP)
        if ANNOUNCED in stored.data.get("text", "") and stored.data.get("reply_markup")
    ]


def _players(announcement: Stored) -> tuple[dict[str, Any], dict[str, Any]]:
    first, second = MENTION.findall(announcement.data["text"])[:2]
    return PEOPLE[first], PEOPLE[second]


def _start_data(announcement: Stored) -> str:
    (row,) = announcement.data["reply_markup"]["inline_keyboard"]
    (button,) = row
    assert button["text"] == "Start"
    return str(button["callback_data"])


async def _play(
    telegram: Harness, players: tuple[dict[str, Any], dict[str, Any]], rng: random.Random
) -> bool:
    """One typed step of the players' match: False once it has ended."""
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    first = await telegram.stores.users.find_user("telegram", str(players[0]["id"]))
    assert chat is not None
    assert first is not None
    loaded = await telegram.stores.matches.active_match_for(chat.id, first.id)
    if loaded is None:
        return False
    state = loaded.state
    actor = state.turn if state.turn is not None else state.player_on_roll
    seated = await telegram.stores.users.get_user(loaded.info.player_ids[actor])
    mover = PEOPLE[seated.platform_user_id]
    if state.phase is Phase.ROLLING:
        await telegram.say(mover, GROUP, "/roll")
    elif state.phase is Phase.MOVING:
        await telegram.say(mover, GROUP, f"/move {rng.choice(state.legal_plays())}")
    else:
        raise AssertionError(f"unexpected phase {state.phase}")
    return True


async def _snapshot(telegram: Harness) -> TournamentSnapshot:
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    assert chat is not None
    (tournament,) = await telegram.stores.tournaments.live_in_chat(chat.id)
    return await telegram.stores.tournaments.snapshot(tournament.id)


async def test_six_players_play_a_round_robin_across_a_restart(bot: Bot) -> None:
    telegram = bot.harness
    assert telegram is not None
    api = bot.api
    api.admins.add((GROUP, 11))
    refused = await telegram.say(BOB, GROUP, '/tournament new roundrobin 1 "Spring table"')
    assert "Only an administrator of the chat opens a tournament." in str(refused[-1].params)
    await telegram.say(ANNA, GROUP, '/tournament new roundrobin 1 "Spring table"')
    for person in (BOB, CARL, DORA):
        await telegram.press_label(person, GROUP, "Join")
    for person in (EMIL, FAY):
        await telegram.say(person, GROUP, "/tournament join")
    registration = api.in_chat(GROUP)[-1].data["text"]
    assert "Registered (6): Anna, Bob, Carl, Dora, Emil, Fay" in registration
    await telegram.say(ANNA, GROUP, "/tournament start")
    tournament_id = (await _snapshot(telegram)).tournament.id

    rng = random.Random(39)
    played = 0
    restarted = False
    for _turn in itertools.count():
        waiting = _waiting(api)
        if not waiting:
            break
        announcement = waiting[0]
        players = _players(announcement)
        start = _start_data(announcement)
        stops_after_the_commit = played == 8
        if stops_after_the_commit:  # the ninth match's end is written, its news never posted
            starts = telegram.core.ports.services.tournaments.starts
            starts.announce = nothing_announced  # type: ignore[method-assign]
        await telegram.press(players[1], GROUP, announcement.data["message_id"], start)
        assert ANNOUNCED not in api.messages[(GROUP, announcement.data["message_id"])].data["text"]
        steps = 0
        while await _play(telegram, players, rng):
            steps += 1
            if played == 4 and steps == 5:  # the fifth match in play: the process stops
                await bot.close()
                telegram = await bot.open()
                restarted = True
                assert await api_delivers_the_clock(telegram) == 0  # nothing twice
                # The old process's [Start] of a started pairing: the new one refuses it.
                answered = await telegram.press(
                    players[0], GROUP, announcement.data["message_id"], start
                )
                assert "This match has already started." in str(answered[-1].params)
        played += 1
        assert played <= 15
        if stops_after_the_commit:
            unstarted = len(_waiting(api))
            await bot.close()
            telegram = await bot.open()
            swept = await api_delivers_the_clock(telegram)  # the pairings its end made
            assert swept == 2  # the two pairings that waited for this match's players
            assert len(_waiting(api)) == unstarted + swept

    assert restarted
    assert played == 15  # C(6, 2): every pairing started once
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    assert chat is not None
    assert await telegram.stores.tournaments.live_in_chat(chat.id) == []
    snapshot = await telegram.stores.tournaments.snapshot(tournament_id)
    met = Counter(frozenset(match.player_ids) for match in snapshot.matches)
    assert len(met) == 15
    assert set(met.values()) == {1}
    assert all(m.decided and not m.walkover and m.match_id for m in snapshot.matches)
    assert len({m.match_id for m in snapshot.matches}) == 15

    wins = Counter(m.winner_id for m in snapshot.matches)
    (end,) = [
        s.data["text"]
        for s in api.in_chat(GROUP)
        if "Spring table is over." in s.data.get("text", "")
    ]
    assert end.count(" beat ") == 15
    table = end.split("Table:\n")[1].split("\n")
    assert len(table) == 7  # six places and the winner
    winner = await telegram.stores.users.get_user(snapshot.tournament.winner_id or 0)
    assert table[0].startswith(f"1. {winner.display_name}: {wins[winner.id]} points, ")
    assert wins[winner.id] == max(wins.values())
    assert table[-1] == f"Winner: {winner.display_name}"


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
