"""A whole match over Telegram: a deep-link challenge, moves typed three ways, buttons, the
cube, the end with the seed reveal; private notifications and their 403."""

from __future__ import annotations

import itertools
import json
import re

from gammon.fair_dice import verify_transcript
from gammon.flow import Phase
from storage import LoadedMatch
from tests.fakes.telegram_bot_api import BOT_USERNAME, Stored
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness

PLAYERS = {"11": ANNA, "22": BOB}


async def _match(telegram: Harness) -> LoadedMatch | None:
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    anna = await telegram.stores.users.find_user("telegram", "11")
    assert chat is not None
    assert anna is not None
    return await telegram.stores.matches.active_match_for(chat.id, anna.id)


def _board_id(telegram: Harness) -> int:
    return int(telegram.newest(GROUP, "photo").data["message_id"])


async def test_a_deep_link_challenge_played_to_the_seed_reveal(telegram: Harness) -> None:
    api = telegram.api
    api.unreachable.add(22)  # Bob has never started the bot
    await telegram.say(BOB, GROUP, "/help")  # so the bot knows who @bob is
    await telegram.say(ANNA, GROUP, "/challenge @bob 2")

    offer = api.in_chat(GROUP)[-2]
    assert offer.data["text"].startswith('<a href="tg://user?id=22">Bob</a>\nAnna challenges Bob')
    hint = [s for s in api.in_chat(GROUP) if "private notifications" in s.data.get("text", "")]
    assert len(hint) == 1  # the 403 on Bob's notification, answered once with a deep link
    assert hint[0].data["reply_markup"]["inline_keyboard"][0][0]["url"].endswith("start=notify")
    rows = offer.data["reply_markup"]["inline_keyboard"]
    url = rows[-1][0]["url"]
    payload = url.removeprefix(f"https://t.me/{BOT_USERNAME}?start=")
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload)

    api.unreachable.discard(22)  # pressing Start in the private chat opens it
    await telegram.say(BOB, 22, f"/start {payload}")
    started = [s for s in api.in_chat(GROUP) if s.data.get("text", "").startswith("Match 1:")]
    assert len(started) == 1
    assert "reply_markup" not in started[0].data
    assert started[0].history
    assert "challenges Bob" in started[0].history[0]
    assert telegram.newest(GROUP, "photo").photo_bytes > 10_000

    ways = itertools.cycle(("/move {}", f"/move@{BOT_USERNAME} {{}}", "reply"))
    doubles = 0
    for _step in range(100):
        loaded = await _match(telegram)
        if loaded is None:
            break
        state = loaded.state
        actor = state.turn if state.turn is not None else state.player_on_roll
        mover = PLAYERS[str(11 if actor == 0 else 22)]
        if state.phase is Phase.ROLLING:
            label = "Double" if state.double_refusal(actor) is None and not doubles else "Roll"
            doubles += label == "Double"
            await telegram.press_label(mover, GROUP, label)
        elif state.phase is Phase.DOUBLED:
            await telegram.press_label(mover, GROUP, "Take")
        elif state.phase is Phase.MOVING:
            play = str(state.legal_plays()[0])
            way = next(ways)
            if way == "reply":
                await telegram.say(mover, GROUP, play, reply_to=_board_id(telegram))
            else:
                await telegram.say(mover, GROUP, way.format(play))
        else:
            raise AssertionError(f"unexpected phase {state.phase}")
        after = await _match(telegram)
        assert after is None or after.info.version > loaded.info.version, "the step was ignored"
    else:
        raise AssertionError("the match did not end")

    assert doubles == 1
    assert any("takes. The cube is at 2" in _words(s) for s in api.in_chat(GROUP))
    # The end's picture is the last game's replay, which ends on the final position.
    end = telegram.newest(GROUP, "animation")
    assert "Match over" in end.data["caption"]
    assert "server seed" in end.data["caption"]
    # Two newcomers, 2 points: 4·√2·0.5 = 2.83, times 5.
    rated = r"Ratings: (Anna|Bob) 1,514\.1 \(\+14\.1\) · (Anna|Bob) 1,485\.9 \(−14\.1\)"
    assert re.search(rated, end.data["caption"])
    assert not api.of("sendDocument")  # the files come as one album: one call, not three
    (album,) = api.of("sendMediaGroup")
    documents = list(album.files.values())
    assert len(documents) == 3  # the transcript, the check page and the .mat file
    transcript = next(data for data in documents if data.startswith(b"{"))
    assert verify_transcript(json.loads(transcript)).ok
    # Every press was answered exactly once, and no old keyboard is left to press: only the
    # end's [Rematch].
    assert api.queries
    assert all(count == 1 for count in api.queries.values())
    pressable = [
        (s.data["message_id"], button["text"])
        for s in api.in_chat(GROUP)
        for row in s.data.get("reply_markup", {}).get("inline_keyboard", [])
        for button in row
        if "callback_data" in button
    ]
    assert pressable == [(end.data["message_id"], "Rematch")]
    await telegram.say(ANNA, GROUP, "/stats")
    assert "Anna — backgammon\nRating 1," in telegram.newest(GROUP, "text").data["text"]
    await telegram.say(BOB, GROUP, "/top all")
    top = telegram.newest(GROUP, "photo")
    assert top.data["caption"].startswith("Top 10 · backgammon · everyone\n")
    # Bob's turns reached his private chat once it was open.
    assert any(call.params["chat_id"] == 22 for call in api.of("sendMessage"))
    assert (
        len([s for s in api.in_chat(GROUP) if "private notifications" in s.data.get("text", "")])
        == 1
    )


async def test_each_board_that_needs_the_other_player_is_a_new_photo(telegram: Harness) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob money")
    await telegram.press_label(BOB, GROUP, "Accept")
    first = _board_id(telegram)
    loaded = await _match(telegram)
    assert loaded is not None
    assert loaded.state.turn == 0  # with the fixed seeds Anna opens
    play = str(loaded.state.legal_plays()[0])
    calls = await telegram.say(ANNA, GROUP, f"/move {play}")
    assert _board_id(telegram) > first
    photo = next(call for call in calls if call.method == "sendPhoto")
    assert photo.params["caption"].startswith('<a href="tg://user?id=')
    assert "Position ID" in photo.params["caption"]


async def test_a_dropped_double_ends_the_game_and_deals_a_new_board(telegram: Harness) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 2")
    await telegram.press_label(BOB, GROUP, "Accept")
    loaded = await _match(telegram)
    assert loaded is not None
    assert (loaded.state.phase, loaded.state.turn) == (Phase.MOVING, 0)  # Anna opens
    await telegram.say(ANNA, GROUP, f"/move {loaded.state.legal_plays()[0]}")
    loaded = await _match(telegram)
    assert loaded is not None
    assert (loaded.state.phase, loaded.state.player_on_roll) == (Phase.ROLLING, 1)
    await telegram.press_label(BOB, GROUP, "Double")
    doubled = telegram.newest(GROUP, "photo")
    await telegram.press_label(ANNA, GROUP, "Drop")
    texts = [_words(s) for s in telegram.api.in_chat(GROUP)]
    assert any(text.startswith("Game 1:") and "double was dropped" in text for text in texts)
    assert any("This is the Crawford game: nobody may double." in text for text in texts)
    assert "reply_markup" not in telegram.api.messages[(GROUP, doubled.data["message_id"])].data
    assert telegram.newest(GROUP, "photo").data["message_id"] > doubled.data["message_id"]


async def test_a_finished_game_is_replayed_as_an_animation_and_stepped_in_place(
    telegram: Harness,
) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 2")
    await telegram.press_label(BOB, GROUP, "Accept")
    loaded = await _match(telegram)
    assert loaded is not None
    play = str(loaded.state.legal_plays()[0])
    await telegram.say(ANNA, GROUP, f"/move {play}")
    await telegram.press_label(BOB, GROUP, "Double")
    await telegram.press_label(ANNA, GROUP, "Drop")
    sent = telegram.api.of("sendAnimation")
    assert len(sent) == 1  # game 1 ended: its replay, played inline by Telegram
    assert sent[0].files["animation"].startswith(b"GIF89a")
    # The game's result says it in the animation's caption, not in a message of its own.
    assert sent[0].params["caption"] == (
        "Game 1: Bob wins 1 point (the double was dropped, cube 1).\n"
        "Game 1 of match 1 (Anna vs Bob), play by play."
    )

    calls = await telegram.say(CARL, GROUP, "/replay 1 1")
    assert [call.method for call in calls if call.method.startswith("send")] == [
        "sendAnimation",
        "sendPhoto",
    ]
    board = telegram.newest(GROUP, "photo")
    caption = board.data["caption"]
    # The start, Anna's play, Bob's double and the drop that ended the game.
    assert caption.startswith("Replay of match 1, game 1: 1 of 4\nOpening roll: ")
    steps = await telegram.press_label(CARL, GROUP, "▶")  # anyone in the chat may step
    assert sorted(call.method for call in steps) == ["answerCallbackQuery", "editMessageMedia"]
    stepped = telegram.api.messages[(GROUP, board.data["message_id"])].data
    assert (
        stepped["caption"]
        == f"Replay of match 1, game 1: 2 of 4\nAnna rolled {_dice(loaded)} and played {play}."
    )
    await telegram.press_label(ANNA, GROUP, "⏭")
    last = telegram.api.messages[(GROUP, board.data["message_id"])].data["caption"]
    assert last.startswith("Replay of match 1, game 1: 4 of 4\n")
    assert "Game 1: Bob wins 1 point (the double was dropped, cube 1)." in last
    assert telegram.newest(GROUP, "photo").data["message_id"] == board.data["message_id"]


def _dice(loaded: LoadedMatch) -> str:
    dice = loaded.state.dice
    assert dice is not None
    return f"{max(dice)}-{min(dice)}"


def _words(stored: Stored) -> str:
    """What a stored message says: its text, or its picture's caption."""
    return str(stored.data.get("text") or stored.data.get("caption") or "")
