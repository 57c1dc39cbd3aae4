"""A whole tournament over the fake Discord (issue 39): eight players, single elimination with
a consolation, 1-point matches. /tournament as slash commands (opening it needs *Manage
Server*), [Join] and each pairing's [Start] as button clicks, /roll and /move as slash
commands, down to the final's winner, the consolation's final and the end told in the
channel."""

from __future__ import annotations

import random
import re
from typing import Any

from gammon.flow import Phase
from tests.bot.test_tournament_console import SLOTS  # the slots of eight with a consolation
from tests.discord_app.conftest import ANNA, BOB, CARL, NAMES, Bot, buttons, content, is_callback
from tests.discord_app.conftest import is_post as is_channel_post
from tests.fakes.discord_server import CHANNEL_ID, EVERYONE_PERMISSIONS, MANAGE_GUILD, Call

MORE = {
    700000000000000004: "Dora",
    700000000000000005: "Emil",
    700000000000000006: "Fay",
    700000000000000007: "Gus",
    700000000000000008: "Hal",
}
ANNOUNCED = "Commitment to its dice"


async def _answered(bot: Bot, mark: int, interaction_id: int) -> str:
    """What the bot wrote since ``mark``, once the interaction is answered and settled."""
    await bot.fake.wait_for(lambda call: is_callback(call, interaction_id), after=mark)
    await bot.adapter.settled()
    return "\n".join(content(call) for call in bot.fake.calls[mark:] if isinstance(call.json, dict))


async def _slash(
    bot: Bot,
    user: int,
    name: str,
    options: list[Any] | None = None,
    permissions: int = EVERYONE_PERMISSIONS,
) -> str:
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(user, name, options, permissions=permissions)
    return await _answered(bot, mark, sent.id)


async def _click(bot: Bot, user: int, post: Call, label: str) -> str:
    mark = len(bot.fake.calls)
    sent = await bot.fake.click(user, bot.message_id(post), buttons(post)[label])
    return await _answered(bot, mark, sent.id)


def _tournament(action: str, settings: str | None = None) -> list[Any]:
    options: list[Any] = [{"name": "action", "type": 3, "value": action}]
    if settings is not None:
        options.append({"name": "settings", "type": 3, "value": settings})
    return options


def _announcements(bot: Bot) -> list[Call]:
    return [
        call
        for call in bot.fake.calls
        if is_channel_post(call) and ANNOUNCED in content(call) and "Start" in buttons(call)
    ]


async def _play(bot: Bot, players: tuple[int, int], rng: random.Random) -> None:
    chat = await bot.stores.chats.find_chat("discord", str(CHANNEL_ID))
    assert chat is not None
    first = await bot.stores.users.find_user("discord", str(players[0]))
    assert first is not None
    for _step in range(2000):
        loaded = await bot.stores.matches.active_match_for(chat.id, first.id)
        if loaded is None:
            return
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        seated = await bot.stores.users.get_user(loaded.info.player_ids[actor])
        mover = int(seated.platform_user_id)
        if state.phase is Phase.ROLLING:
            await _slash(bot, mover, "roll")
        elif state.phase is Phase.MOVING:
            play = str(rng.choice(state.legal_plays()))
            await _slash(bot, mover, "move", [{"name": "play", "type": 3, "value": play}])
        else:
            raise AssertionError(f"unexpected phase {state.phase}")
    raise AssertionError("the match did not end")


async def test_eight_players_play_a_knockout_with_consolation_over_discord(bot: Bot) -> None:
    for user_id, name in MORE.items():
        bot.fake.add_user(user_id, name)
    new = _tournament("new", 'single consolation 1 "Cup"')
    refused = await _slash(bot, BOB, "tournament", new)
    assert "Only an administrator of the chat opens a tournament." in refused
    opened = await _slash(bot, ANNA, "tournament", new, permissions=MANAGE_GUILD)
    assert "Cup: single elimination, consolation to 1" in opened
    (registration,) = [c for c in bot.fake.calls if is_channel_post(c) and "Join" in buttons(c)]
    for user_id in (BOB, CARL, *list(MORE)[:2]):
        await _click(bot, user_id, registration, "Join")
    for user_id in list(MORE)[2:]:
        await _slash(bot, user_id, "tournament", _tournament("join"))
    shown = await _slash(bot, CARL, "tournament")
    assert "Registered (8): Anna, Bob, Carl, Dora, Emil, Fay, Gus, Hal" in shown
    started = await _slash(bot, ANNA, "tournament", _tournament("start"))
    assert "Cup has begun. Seeds: 1. Anna, 2. Bob, 3. Carl, 4. Dora" in started

    rng = random.Random(39)
    done: set[int] = set()
    for _match in range(len(SLOTS) + 1):
        waiting = [call for call in _announcements(bot) if bot.message_id(call) not in done]
        if not waiting:
            break
        announcement = waiting[0]
        players = tuple(int(user) for user in re.findall(r"<@(\d+)>", content(announcement))[:2])
        assert len(players) == 2
        begun = await _click(bot, players[1], announcement, "Start")
        assert "Cup, " in begun
        assert ", match " in begun
        done.add(bot.message_id(announcement))
        await _play(bot, (players[0], players[1]), rng)
    assert len(done) == len(SLOTS)

    chat = await bot.stores.chats.find_chat("discord", str(CHANNEL_ID))
    assert chat is not None
    assert await bot.stores.tournaments.live_in_chat(chat.id) == []
    ends = [
        content(c) for c in bot.fake.calls if is_channel_post(c) and "Cup is over." in content(c)
    ]
    (end,) = ends
    names = {**NAMES, **MORE}
    assert "consolation, round 2, match 1: " in end
    final = re.search(r"\nthe final: (\w+) beat (\w+) [123]–0\n", end)
    assert final is not None
    assert end.endswith(f"Winner: {final.group(1)}")
    assert final.group(1) in names.values()
    assert final.group(2) in names.values()
    assert end.count(" beat ") == len(SLOTS)  # every match once
    consolation = re.search(r"consolation, round 2, match 1: (\w+) beat (\w+)", end)
    assert consolation is not None
    semifinals = re.findall(r"semifinal \d: (\w+) beat (\w+)", end)
    semifinal_players = {name for pair in semifinals for name in pair}
    assert len(semifinal_players) == 4
    assert not semifinal_players & set(consolation.groups())  # round-1 losers only
