"""A match in a Discord channel as people read it: each board starts with what was just played,
the dice's commitment is short in the channel and whole behind /verify, and the end's
[Rematch] offers the same match again, which the other player's press accepts."""

from __future__ import annotations

import hashlib

from tests.discord_app.conftest import ANNA, BOB, CARL, Bot, buttons, content, mentioned
from tests.discord_app.test_budget import _match
from tests.discord_app.test_match import challenge, move, start_match
from tests.fakes.discord_server import Call

COMMITMENT = hashlib.sha256(hashlib.sha256(b"seed-0").digest()).hexdigest()  # the first seed's


async def test_each_board_starts_with_the_play_before_it(bot: Bot) -> None:
    board = await start_match(bot)
    loaded = await _match(bot)
    assert loaded is not None
    assert loaded.state.dice is not None
    roll = f"{max(loaded.state.dice)}-{min(loaded.state.dice)}"
    player = mentioned(board)
    plays = await bot.suggestions(player)
    following = await move(bot, board)
    name = "Anna" if player == ANNA else "Bob"
    said = f"{name} rolled {roll} and played {plays[0]}.\n"
    assert content(following).startswith(f"<@{mentioned(following)}> {said}")


async def test_the_commitment_is_short_in_the_channel_and_whole_behind_verify(bot: Bot) -> None:
    offer = await challenge(bot)
    assert f"Fair dice, commitment {COMMITMENT[:12]}… (/verify shows the details)" in content(offer)
    assert COMMITMENT not in content(offer)
    mark = len(bot.fake.calls)
    await bot.fake.slash(BOB, "verify", [])
    details = await bot.next_private(mark, "Dice commitment")
    assert f"(SHA-256 of the secret server seed): {COMMITMENT}." in content(details)
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offer), buttons(offer)["Accept"])
    await bot.next_post(mark, " to play ")  # the first board, after the start
    start = bot.fake.messages[bot.message_id(offer)]["content"]  # the challenge became it
    assert start.startswith("Match 1: Anna vs Bob")
    assert COMMITMENT not in start
    assert "Client seeds" not in start
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "verify", [])
    during = await bot.next_private(mark, "Client seeds")
    assert "Client seeds: Anna “\u2068discord:" in content(during)  # a seed is isolated
    assert ", Bob “\u2068discord:" in content(during)


async def test_rematch_is_offered_and_accepted_with_the_ends_button(bot: Bot) -> None:
    board = await start_match(bot)  # with the fixed seeds Anna opens: she resigns
    assert mentioned(board) == ANNA
    end = await _resigned(bot)
    assert "Match over: Bob wins" in content(end)
    assert list(buttons(end)) == ["Rematch"]
    mark = len(bot.fake.calls)
    await bot.fake.click(CARL, bot.message_id(end), buttons(end)["Rematch"])
    refused = await bot.next_private(mark, "This is not your match.")
    assert refused.path.startswith("/webhooks/")  # ephemeral, to Carl alone
    mark = len(bot.fake.calls)
    await bot.fake.click(ANNA, bot.message_id(end), buttons(end)["Rematch"])
    rematch = await bot.next_post(mark, "offers Bob a rematch")
    assert content(rematch).startswith(f"<@{BOB}> Anna offers Bob a rematch: a 3-point match")
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(end), buttons(end)["Rematch"])
    await bot.next_post(mark, " to play ")  # the new match's first board
    started = bot.fake.messages[bot.message_id(rematch)]["content"]  # the offer became it
    assert started.startswith("Match 2: Anna vs Bob, 3-point match")
    # The end is kept as it was: the new match is posted below it.
    assert "Match over: Bob wins" in bot.fake.messages[bot.message_id(end)]["content"]


async def _resigned(bot: Bot) -> Call:
    """Anna, to act, resigns a backgammon; Bob accepts: the end of the match."""
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "resign", [{"name": "level", "type": 3, "value": "backgammon"}])
    question = await bot.next_private(mark, "resign")
    mark = len(bot.fake.calls)
    await bot.fake.click(ANNA, bot.message_id(question), buttons(question)["Resign"])
    offered = await bot.next_post(mark, "accept?")
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offered), buttons(offered)["Accept"])
    return await bot.next_post(mark, "Match over")
