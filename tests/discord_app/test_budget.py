"""The pace budget in a channel: Discord lets a bot send 5 messages in 5 seconds into one
channel, so each half-turn (a roll and its move, a double, a take) may cost at most 2 channel
calls (messages posted or edited), and a player who is at the table gets no DM."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

from gammon.flow import Phase
from storage import LoadedMatch
from tests.discord_app.conftest import ANNA, BOB, Bot, buttons, content
from tests.discord_app.test_match import challenge
from tests.fakes.discord_server import CHANNEL_ID, Call

PLAYERS = (ANNA, BOB)


def _channel_calls(bot: Bot, calls: list[Call]) -> list[str]:
    """Posts and edits of messages in the match's channel, directly or through a press's
    interaction (its @original is the pressed message); DMs and acknowledgements are not."""
    counted = []
    for call in calls:
        channel = call.path.startswith(f"/channels/{CHANNEL_ID}/messages")
        pressed = call.path.endswith("/messages/@original") and call.method == "PATCH"
        if call.method in ("POST", "PATCH") and (channel or pressed):
            counted.append(f"{call.method} {'pressed' if pressed else 'channel'}")
    return counted


def _dms(bot: Bot, calls: list[Call]) -> list[Call]:
    return [
        call
        for call in calls
        if call.method == "POST"
        and call.path.startswith("/channels/")
        and int(call.path.split("/")[2]) in bot.fake.dm_channels
    ]


async def _match(bot: Bot) -> LoadedMatch | None:
    chat = await bot.stores.chats.find_chat("discord", str(CHANNEL_ID))
    anna = await bot.stores.users.find_user("discord", str(ANNA))
    if chat is None or anna is None:
        return None
    return await bot.stores.matches.active_match_for(chat.id, anna.id)


def _newest_buttons(bot: Bot, label: str) -> tuple[int, dict[str, str]]:
    """The newest message in the channel (as the fake now holds it) with a ``label`` button:
    its id and its buttons by label."""
    for message_id in sorted(bot.fake.messages, reverse=True):
        message = bot.fake.messages[message_id]
        found = {
            component["label"]: component["custom_id"]
            for row in message.get("components", [])
            for component in row["components"]
        }
        if label in found:
            return message_id, found
    raise AssertionError(f"no [{label}] button")


async def _started(bot: Bot) -> None:
    """Anna challenges, Bob accepts: the first board is up."""
    offer = await challenge(bot)
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offer), buttons(offer)["Accept"])
    await bot.fake.wait_for(
        lambda call: isinstance(call.json, dict) and " to play " in content(call), after=mark
    )


async def _act(bot: Bot, user: int, rng: random.Random, state_phase: Phase) -> list[Call]:
    """One action of ``user``, and every call the bot made for it."""
    mark = len(bot.fake.calls)
    if state_phase is Phase.MOVING:
        plays = await bot.suggestions(user)
        mark = len(bot.fake.calls)
        sent = await bot.fake.slash(user, "move", [{"name": "play", "type": 3, "value": plays[0]}])
        await bot.fake.wait_for(
            lambda call: call.method == "DELETE" and sent.token in call.path, after=mark
        )
    else:
        label = {Phase.ROLLING: "Roll", Phase.DOUBLED: "Take"}[state_phase]
        message, shown = _newest_buttons(bot, label)
        if state_phase is Phase.ROLLING and rng.random() < 0.15 and "Double" in shown:
            label = "Double"
        await bot.fake.click(user, message, shown[label])
        await asyncio.sleep(0.05)
        await bot.adapter.settled()
    return bot.fake.calls[mark:]


async def test_a_whole_match_keeps_to_the_budget_and_dms_nobody_at_the_table(bot: Bot) -> None:
    await _started(bot)
    rng = random.Random(5)
    counts: list[int] = []
    dms: list[Call] = []
    previous: tuple[int, bool] | None = None
    for _step in range(400):
        loaded = await _match(bot)
        if loaded is None:
            break
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        calls = await _act(bot, PLAYERS[actor], rng, state.phase)
        spent = len(_channel_calls(bot, calls))
        dms += _dms(bot, calls)
        # A roll starts a half-turn; its move belongs to it.
        if previous is not None and previous == (actor, True) and state.phase is Phase.MOVING:
            counts[-1] += spent
        else:
            counts.append(spent)
        previous = (actor, state.phase is Phase.ROLLING)
    else:
        raise AssertionError("the match did not end")
    assert len(counts) > 20
    assert max(counts) <= 2, counts
    assert sum(counts) / len(counts) <= 1.5
    assert dms == []  # both played on without a pause: nobody was away


async def test_a_player_away_for_a_while_is_sent_a_dm(bot: Bot) -> None:
    await _started(bot)
    loaded = await _match(bot)
    assert loaded is not None
    mover = PLAYERS[loaded.state.player_on_roll]  # Anna opens with the fixed seeds
    later = bot.core.clock() + timedelta(minutes=11)  # Bob has not acted since he accepted
    bot.core.clock = lambda: later
    calls = await _act(bot, mover, random.Random(1), Phase.MOVING)
    dms = _dms(bot, calls)
    assert len(dms) == 1
    assert dms[0].path == f"/channels/{bot.fake._dm_for(BOB)}/messages"
