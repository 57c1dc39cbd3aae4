"""A whole match over the wire: slash commands, autocomplete and buttons in, channel posts,
ephemeral followups, edits and DMs out, as a real discord.py client sends them."""

from __future__ import annotations

import asyncio
import json

from gammon.fair_dice import verify_transcript
from gammon.flow import Phase
from tests.discord_app.conftest import (
    ANNA,
    BOB,
    CARL,
    Bot,
    buttons,
    content,
    is_callback,
    is_followup,
    is_post,
    mentioned,
    open_bot,
)
from tests.fakes.discord_server import CHANNEL_ID, Call


def user_option(user_id: int, name: str) -> tuple[list[dict[str, object]], dict[str, object]]:
    """The ``opponent`` option as Discord sends it: an id plus the resolved user."""
    user = {"id": str(user_id), "username": name.lower(), "discriminator": "0", "avatar": None}
    return (
        [{"name": "opponent", "type": 6, "value": str(user_id)}],
        {"users": {str(user_id): user}},
    )


async def challenge(bot: Bot, length: int = 3) -> Call:
    options, resolved = user_option(BOB, "Bob")
    options.append({"name": "length", "type": 4, "value": length})
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(ANNA, "challenge", options, resolved=resolved)
    offer = await bot.next_post(mark, "challenges")
    # The answer is done (Bob's DM sent too) when the "thinking…" placeholder is removed. The
    # fake numbers DM channels, messages and interactions from one counter, and the accept's
    # interaction id makes the client seeds: clicking only now gives the same dice every run.
    await bot.fake.wait_for(
        lambda call: call.method == "DELETE" and sent.token in call.path, after=mark
    )
    return offer


async def start_match(bot: Bot) -> Call:
    """Anna challenges Bob, Bob accepts: the first board (the opening roll is played)."""
    offer = await challenge(bot)
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offer), buttons(offer)["Accept"])
    return await bot.next_post(mark, " to play ")


async def move(bot: Bot, board: Call) -> Call:
    """The player the board pings plays the first play autocomplete offers; the next board."""
    player = mentioned(board)
    plays = await bot.suggestions(player)
    assert plays, content(board)
    mark = len(bot.fake.calls)
    await bot.fake.slash(player, "move", [{"name": "play", "type": 3, "value": plays[0]}])
    return await bot.next_post(mark, "<@")


async def test_challenge_accept_moves_double_take_resign_end(migrated_url: str) -> None:
    """The wire-level match: boards as PNG attachments, buttons as components, pings limited
    to the player to act, ephemeral confirmations, and the files at the end."""
    bot = await open_bot(migrated_url)  # draws the board pictures
    with bot.fake.routed():
        await bot.adapter.start()
        try:
            offer = await challenge(bot)
            assert content(offer).startswith(f"<@{BOB}> ")
            assert offer.json is not None
            assert isinstance(offer.json, dict)
            allowed = offer.json["allowed_mentions"]
            assert allowed["parse"] == []
            assert [int(user) for user in allowed["users"]] == [BOB]
            assert list(buttons(offer)) == ["Accept", "Decline", "Cancel"]
            assert buttons(offer)["Accept"].startswith("bg1:accept:c")

            mark = len(bot.fake.calls)
            await bot.fake.click(BOB, bot.message_id(offer), buttons(offer)["Accept"])
            board = await bot.next_post(mark, " to play ")
            assert any(is_post(call) and "Opening roll" in content(call) for call in bot.fake.calls)
            assert "board.png" in board.files
            assert board.files["board.png"].startswith(b"\x89PNG")
            assert content(board).startswith(f"<@{ANNA}> ")  # Bob accepted: Anna is called
            assert "\nAnna to play 6-3" in content(board)  # the fixed seeds
            assert isinstance(board.json, dict)
            assert [int(user) for user in board.json["allowed_mentions"]["users"]] == [ANNA]

            # The opening play, then the other player may double: [Roll] [Double].
            board = await move(bot, board)
            doubler, taker = BOB, ANNA
            assert mentioned(board) == doubler
            assert list(buttons(board)) == ["Roll", "Double"]
            mark = len(bot.fake.calls)
            await bot.fake.click(doubler, bot.message_id(board), buttons(board)["Double"])
            offered = await bot.next_post(mark, "take or drop")
            # The old board lost its buttons: an edit through the channel, not the token.
            stripped = await bot.fake.wait_for(
                lambda call: (
                    call.method == "PATCH"
                    and call.path == f"/channels/{CHANNEL_ID}/messages/{bot.message_id(board)}"
                ),
                after=mark,
            )
            assert isinstance(stripped.json, dict)
            assert stripped.json["components"] == []
            assert mentioned(offered) == taker
            mark = len(bot.fake.calls)
            await bot.fake.click(taker, bot.message_id(offered), buttons(offered)["Take"])
            board = await bot.next_post(mark, "<@")
            # The cube is the taker's now: the doubler's roll is automatic, no buttons.
            assert content(board).startswith(f"<@{doubler}> Anna takes. The cube is at 2.\n")
            assert "\nBob to play 2-1" in content(board)
            assert buttons(board) == {}

            # The doubler gives up a gammon: an ephemeral question, then the opponent accepts.
            mark = len(bot.fake.calls)
            await bot.fake.slash(
                doubler, "resign", [{"name": "level", "type": 3, "value": "gammon"}]
            )
            question = await bot.next_private(mark, "resign")
            assert question.method == "PATCH"  # replaces the "thinking…" placeholder
            assert list(buttons(question)) == ["Resign", "Keep playing"]
            mark = len(bot.fake.calls)
            await bot.fake.click(doubler, bot.message_id(question), buttons(question)["Resign"])
            offer_to_resign = await bot.next_post(mark, "accept?")
            assert mentioned(offer_to_resign) == taker
            mark = len(bot.fake.calls)
            await bot.fake.click(
                taker, bot.message_id(offer_to_resign), buttons(offer_to_resign)["Accept"]
            )
            end = await bot.next_post(mark, "Match over")
            transcript = next(name for name in end.files if name.endswith("transcript.json"))
            assert verify_transcript(json.loads(end.files[transcript])).ok
            assert any(name.endswith(".mat") for name in end.files)
            # The end's picture is the game's replay (a GIF, which Discord plays inline): it
            # ends on the final position.
            assert end.files["replay.gif"].startswith(b"GIF89a")
            assert "board.png" not in end.files
            assert isinstance(end.json, dict)
            # Anna accepted the resignation: Bob, who offered it, is called.
            assert [int(user) for user in end.json["allowed_mentions"]["users"]] == [BOB]
            # Without web pages, the dice check comes along as a page to open from disk.
            assert "match-1-check.html" in end.files
            # Two newcomers, 3 points: 4·√3·0.5 = 3.46, times 5.
            assert "Ratings: Anna 1,517.3 (+17.3) · Bob 1,482.7 (−17.3)" in content(end)
            await _replay_is_stepped_in_place(bot)
            await _a_refused_post_leaves_the_rest_of_the_answer(bot)
            await _stats_and_the_leaderboard(bot)
        finally:
            await bot.adapter.stop()
            await bot.fake.stop()
            await bot.database.close()


async def _replay_is_stepped_in_place(bot: Bot) -> None:
    """``/replay``: the animation, then a board whose buttons edit that same message."""
    mark = len(bot.fake.calls)
    options = [{"name": "match", "type": 4, "value": 1}, {"name": "game", "type": 4, "value": 1}]
    await bot.fake.slash(CARL, "replay", options)
    board = await bot.next_post(mark, "Replay of match 1, game 1: 1 of ")
    assert any(is_post(call) and "replay.gif" in call.files for call in bot.fake.calls[mark:])
    assert list(buttons(board)) == ["⏮", "◀", "▶", "⏭"]
    mark = len(bot.fake.calls)
    await bot.fake.click(ANNA, bot.message_id(board), buttons(board)["▶"])
    edit = await bot.fake.wait_for(
        lambda call: call.method == "PATCH" and call.path.endswith("/messages/@original"),
        after=mark,
    )
    assert "board.png" in edit.files
    stepped = bot.fake.messages[bot.message_id(board)]
    assert stepped["content"].startswith("Replay of match 1, game 1: 2 of ")
    assert "Anna rolled 6-3 and played" in stepped["content"]
    assert [item["filename"] for item in stepped["attachments"]] == ["board.png"]
    assert not any(is_post(call) for call in bot.fake.calls[mark:])


async def _stats_and_the_leaderboard(bot: Bot) -> None:
    """``/stats`` with a user option, ``/top all``: text and the leaderboard picture."""
    options, resolved = user_option(BOB, "Bob")
    options[0]["name"] = "player"
    mark = len(bot.fake.calls)
    await bot.fake.slash(CARL, "stats", options, resolved=resolved)
    stats = await bot.next_post(mark, "Bob — backgammon")
    assert "Rating 1,482.7 · experience 3" in content(stats)
    assert "Everywhere: 1 played, 0 won, 1 lost" in content(stats)
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "top", [{"name": "where", "type": 3, "value": "all"}])
    top = await bot.next_post(mark, "Top 10 · backgammon · everyone")
    assert "Nobody has played 10 points of rated matches yet." in content(top)
    assert any(data.startswith(b"\x89PNG") for data in top.files.values())


async def _a_refused_post_leaves_the_rest_of_the_answer(bot: Bot) -> None:
    """Discord refuses the animation of a ``/replay`` (a 400): the board still comes."""
    bot.fake.rejected_posts = 1
    mark = len(bot.fake.calls)
    options = [{"name": "match", "type": 4, "value": 1}, {"name": "game", "type": 4, "value": 1}]
    await bot.fake.slash(CARL, "replay", options)
    board = await bot.next_post(mark, "Replay of match 1, game 1: 1 of ")
    assert list(buttons(board)) == ["⏮", "◀", "▶", "⏭"]
    refused = [
        call for call in bot.fake.calls[mark:] if is_post(call) and "replay.gif" in call.files
    ]
    assert len(refused) == 1
    assert bot.fake.rejected_posts == 0


async def test_autocomplete_offers_the_movers_legal_plays_filtered_by_what_is_typed(
    bot: Bot,
) -> None:
    board = await start_match(bot)
    player, waiting = ANNA, BOB  # with the fixed seeds Anna opens, with 6-3
    assert mentioned(board) == player
    plays = await bot.suggestions(player)
    assert len(plays) == 14  # the distinct plays of 6-3 from the starting position
    assert all("/" in play for play in plays)
    assert plays[-1] == "8/2 6/3"
    narrowed = await bot.suggestions(player, plays[-1][:4])
    assert narrowed == ["8/2 6/3", "24/21 8/2", "13/10 8/2", "8/5 8/2"]
    assert set(narrowed) <= set(plays)
    assert await bot.suggestions(waiting) == []
    assert await bot.suggestions(CARL) == []


async def test_a_strangers_click_is_refused_privately_and_the_board_stays(bot: Bot) -> None:
    offer = await challenge(bot)
    mark = len(bot.fake.calls)
    sent = await bot.fake.click(CARL, bot.message_id(offer), buttons(offer)["Accept"])
    ack = await bot.fake.wait_for(lambda call: is_callback(call, sent.id), after=mark)
    assert isinstance(ack.json, dict)
    assert ack.json["type"] == 6
    refusal = await bot.next_private(mark, "someone else")
    assert refusal.method == "POST"
    assert isinstance(refusal.json, dict)
    assert refusal.json["flags"] & 64  # ephemeral
    assert not any(call.method == "PATCH" for call in bot.fake.calls[mark:])
    assert not any(is_post(call) for call in bot.fake.calls[mark:])


async def test_a_double_click_is_applied_once(bot: Bot) -> None:
    offer = await challenge(bot)
    mark = len(bot.fake.calls)
    accept = buttons(offer)["Accept"]
    await asyncio.gather(
        bot.fake.click(BOB, bot.message_id(offer), accept),
        bot.fake.click(BOB, bot.message_id(offer), accept),
    )
    await bot.next_post(mark, " to play ")
    await bot.next_private(mark, "already been answered")
    # The start replaces the challenge in place: one message says it, once.
    starts = [
        call
        for call in bot.fake.calls[mark:]
        if call.method in ("POST", "PATCH")
        and isinstance(call.json, dict)
        and "Match 1" in content(call)
    ]
    assert len(starts) == 1
    assert not any("Match 2" in content(call) for call in bot.fake.calls if is_post(call))
    before = await bot.stores.matches.load_match(1)
    assert before.info.version == 1  # one accept: the opening roll, written once
    # A late press from a client that still shows the (since removed) buttons changes nothing.
    assert isinstance(offer.json, dict)
    bot.fake.messages[bot.message_id(offer)]["components"] = offer.json["components"]
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offer), accept)
    await bot.next_private(mark, "already been answered")
    after = await bot.stores.matches.load_match(1)
    assert after.info.version == before.info.version


async def test_a_button_still_works_after_a_restart(bot: Bot) -> None:
    offer = await challenge(bot)
    identified = bot.fake.identified
    await bot.restart()
    assert bot.fake.identified == identified + 1
    mark = len(bot.fake.calls)
    await bot.fake.click(BOB, bot.message_id(offer), buttons(offer)["Accept"])
    board = await bot.next_post(mark, " to play ")
    assert content(board).startswith(f"<@{ANNA}> ")
    assert "\nAnna to play 6-3" in content(board)  # the fixed seeds


async def test_closed_dms_fall_back_to_the_mention_and_are_remembered(bot: Bot) -> None:
    bot.fake.closed_dms.add(BOB)
    mark = len(bot.fake.calls)
    options, resolved = user_option(BOB, "Bob")
    sent = await bot.fake.slash(ANNA, "challenge", options, resolved=resolved)
    # The answer is done when the "thinking…" placeholder is removed.
    await bot.fake.wait_for(
        lambda call: call.method == "DELETE" and sent.token in call.path, after=mark
    )
    offer = next(call for call in bot.fake.calls[mark:] if is_post(call))
    assert content(offer).startswith(f"<@{BOB}>")
    tried = [call for call in bot.fake.calls[mark:] if is_dm(bot, call)]
    assert len(tried) == 1
    assert tried[0].created is None
    bob = await bot.stores.users.find_user("discord", str(BOB))
    assert bob is not None
    assert bob.unreachable is True
    # The next ping is only the mention in the channel: no DM is tried again.
    mark = len(bot.fake.calls)
    again = await challenge(bot)
    assert content(again).startswith(f"<@{BOB}>")
    assert not any(is_dm(bot, call) for call in bot.fake.calls[mark:])


def is_dm(bot: Bot, call: Call) -> bool:
    return (
        call.method == "POST"
        and call.path.startswith("/channels/")
        and int(call.path.split("/")[2]) in bot.fake.dm_channels
    )


async def test_dms_with_the_bot_work_and_count_as_admin(bot: Bot) -> None:
    mark = len(bot.fake.calls)
    options = [{"name": "set", "type": 1, "options": [{"name": "length", "type": 4, "value": 7}]}]
    await bot.fake.slash(ANNA, "defaults", options, channel_id=None)
    answer = await bot.fake.wait_for(
        lambda call: is_dm(bot, call) and "defaults are updated" in content(call), after=mark
    )
    assert answer.created is not None


async def test_only_server_managers_change_the_defaults(bot: Bot) -> None:
    options = [{"name": "set", "type": 1, "options": [{"name": "length", "type": 4, "value": 7}]}]
    mark = len(bot.fake.calls)
    await bot.fake.slash(CARL, "defaults", options)
    await bot.next_private(mark, "Only an administrator")
    mark = len(bot.fake.calls)
    await bot.fake.slash(CARL, "defaults", options, permissions=1 << 5)  # MANAGE_GUILD
    await bot.next_post(mark, "defaults are updated")
    assert not any(is_followup(call) and "Only" in content(call) for call in bot.fake.calls[mark:])


async def test_a_move_in_a_dm_with_the_bot_is_played_in_the_channel(bot: Bot) -> None:
    board = await start_match(bot)
    player = ANNA  # with the fixed seeds Anna opens, with 6-3
    assert mentioned(board) == player
    plays = await bot.suggestions(player)
    assert plays[0] == "24/21 24/18"
    mark = len(bot.fake.calls)
    await bot.fake.slash(
        player, "move", [{"name": "play", "type": 3, "value": plays[0]}], channel_id=None
    )
    after = await bot.next_post(mark, "<@")  # the next board, in the match's channel
    # What Anna played, then whom the board waits for.
    assert content(after).startswith(
        f"<@{BOB}> Anna rolled 6-3 and played 24/21 24/18.\nBob to roll."
    )
    receipt = await bot.next_private(mark, "the board is in the match's chat")
    assert receipt.path.startswith("/webhooks/")  # the answer to the DM's interaction


async def test_a_roll_in_a_dm_names_its_match_with_the_game_option(bot: Bot) -> None:
    """/roll's game option is the match's number written before the argument, as a move
    typed in a private chat names it: the roll is made in that match's channel."""
    board = await start_match(bot)
    await move(bot, board)  # Anna's opening play: Bob is to roll
    bob = await bot.stores.users.upsert_user("discord", str(BOB), "Bob")
    (match,) = await bot.stores.matches.active_matches_of(bob.id)
    before = await bot.stores.matches.load_match(match.id)
    mark = len(bot.fake.calls)
    await bot.fake.slash(
        BOB, "roll", [{"name": "game", "type": 3, "value": "#999"}], channel_id=None
    )
    await bot.next_private(mark, "You have no active match 999. /matches lists yours.")
    assert (await bot.stores.matches.load_match(match.id)).info.version == before.info.version
    mark = len(bot.fake.calls)
    await bot.fake.slash(
        BOB, "roll", [{"name": "game", "type": 3, "value": f"#{match.id}"}], channel_id=None
    )
    await bot.next_private(mark, f"Done in match {match.id}: the board is in the match's chat.")
    after = await bot.stores.matches.load_match(match.id)
    assert after.info.version > before.info.version
    assert after.state.phase is Phase.MOVING
