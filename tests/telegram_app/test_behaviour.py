"""How the adapter reads groups and private chats, answers presses, and places answers."""

from __future__ import annotations

from gammon.match_rules import MatchRules
from storage import LoadedMatch
from tests.fakes.telegram_bot_api import BOT_USERNAME
from tests.storage.players import create_match
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness


async def _start(telegram: Harness) -> LoadedMatch:
    """Anna and Bob start a 3-point match in the group; the board waits for a move."""
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")
    await telegram.press_label(BOB, GROUP, "Accept")
    return await _match(telegram)


async def _match(telegram: Harness) -> LoadedMatch:
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    anna = await telegram.stores.users.find_user("telegram", "11")
    assert chat is not None
    assert anna is not None
    loaded = await telegram.stores.matches.active_match_for(chat.id, anna.id)
    assert loaded is not None
    return loaded


def _sent(calls: list) -> list:  # type: ignore[type-arg]
    return [call for call in calls if call.method.startswith(("send", "edit"))]


async def test_privacy_mode_plain_text_is_ignored_but_replies_and_addressed_moves_count(
    telegram: Harness,
) -> None:
    loaded = await _start(telegram)
    mover = ANNA  # with the fixed seeds Anna opens, with 5-2
    assert loaded.state.turn == 0
    play = str(loaded.state.legal_plays()[0])
    assert play == "24/22 13/8"
    assert await telegram.say(mover, GROUP, play) == []  # chatter, not addressed to the bot
    assert await telegram.say(mover, GROUP, f"/move@other_bot {play}") == []
    assert (await _match(telegram)).info.version == loaded.info.version

    board = telegram.newest(GROUP, "photo").data
    asking = telegram.api.of("sendPhoto")[-1].params["reply_markup"]
    assert asking["force_reply"] is True  # asks the mover for a reply
    assert asking["selective"] is True
    await telegram.say(mover, GROUP, play, reply_to=board["message_id"])
    after = await _match(telegram)
    assert after.info.version > loaded.info.version

    # The other player's board: Bob may double, so he rolls with the button; then /move
    # addressed to this bot by name.
    assert (after.state.phase.name, after.state.player_on_roll) == ("ROLLING", 1)
    await telegram.press_label(BOB, GROUP, "Roll")
    after = await _match(telegram)
    assert (after.state.phase.name, after.state.turn) == ("MOVING", 1)
    play = str(after.state.legal_plays()[0])
    await telegram.say(BOB, GROUP, f"/move@{BOT_USERNAME} {play}")
    assert (await _match(telegram)).info.version > after.info.version


async def test_a_plain_move_in_a_private_chat_is_read(telegram: Harness) -> None:
    calls = await telegram.say(ANNA, 11, "13/10 6/5")
    assert [call.params["chat_id"] for call in _sent(calls)] == [11]
    assert "no active match" in calls[0].params["text"]


async def test_a_move_typed_in_the_private_chat_is_played_in_the_group(
    telegram: Harness,
) -> None:
    loaded = await _start(telegram)
    mover = ANNA  # with the fixed seeds Anna opens
    assert loaded.state.turn == 0
    play = str(loaded.state.legal_plays()[0])
    calls = await telegram.say(mover, mover["id"], play)
    after = await _match(telegram)
    assert after.info.version > loaded.info.version
    assert after.state.actions[loaded.info.version].play == play  # type: ignore[attr-defined]
    sent = _sent(calls)
    assert GROUP in [call.params["chat_id"] for call in sent]  # the board, for both players
    receipt = [call for call in sent if call.params["chat_id"] == mover["id"]]
    assert "the board is in the match's chat" in receipt[-1].params["text"]


async def test_a_strangers_press_is_refused_with_a_toast_and_changes_nothing(
    telegram: Harness,
) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")
    before = len(telegram.api.in_chat(GROUP))
    offer, accept = telegram.button(GROUP, "Accept")
    calls = await telegram.press(CARL, GROUP, offer, accept)
    assert [call.method for call in calls] == ["answerCallbackQuery"]
    assert calls[0].params["text"] == "This challenge is for someone else."
    assert len(telegram.api.in_chat(GROUP)) == before

    loaded = await _start_after_offer(telegram)
    late = await telegram.press(CARL, GROUP, offer, accept)
    assert late[0].params["text"] == "This challenge has already been answered."
    assert (await _match(telegram)).info.version == loaded.info.version


async def _start_after_offer(telegram: Harness) -> LoadedMatch:
    await telegram.press_label(BOB, GROUP, "Accept")
    return await _match(telegram)


async def test_a_double_press_acts_once_and_every_press_is_answered_first(
    telegram: Harness,
) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")
    message_id, data = telegram.button(GROUP, "Accept")
    first = await telegram.press(BOB, GROUP, message_id, data)
    before = await _match(telegram)
    second = await telegram.press(BOB, GROUP, message_id, data)
    assert (await _match(telegram)).info.version == before.info.version
    assert first[0].method == "answerCallbackQuery"  # before any message is posted
    assert "text" not in first[0].params
    assert [call.method for call in second] == ["answerCallbackQuery"]
    assert second[0].params["text"] == "This challenge has already been answered."
    started = [s for s in telegram.api.in_chat(GROUP) if "Match 1:" in s.data.get("text", "")]
    assert len(started) == 1
    assert all(count == 1 for count in telegram.api.queries.values())


async def test_callback_data_of_64_bytes_that_is_no_token_is_answered_and_ignored(
    telegram: Harness,
) -> None:
    before = await _start(telegram)
    board = telegram.newest(GROUP, "photo").data["message_id"]
    forged = "bg1:roll:m1:" + "9" * 52
    assert len(forged.encode()) == 64
    calls = await telegram.press(ANNA, GROUP, board, forged)
    assert [call.method for call in calls] == ["answerCallbackQuery"]
    assert calls[0].params["text"] == "That button is out of date."
    assert (await _match(telegram)).info.version == before.info.version
    every_button = [
        button["callback_data"]
        for call in telegram.api.calls
        for row in call.params.get("reply_markup", {}).get("inline_keyboard", [])
        for button in row
        if "callback_data" in button
    ]
    assert every_button
    assert all(len(data.encode()) <= 64 for data in every_button)


async def test_a_typed_refusal_replies_to_the_users_message(telegram: Harness) -> None:
    await _start(telegram)
    calls = await telegram.say(CARL, GROUP, "/move 24/18")
    [answer] = _sent(calls)
    asked = telegram.api.last_message_id[GROUP] - 1
    assert answer.params["reply_parameters"]["message_id"] == asked
    assert "no match in this chat" in answer.params["text"]


async def test_settings_change_in_place(telegram: Harness) -> None:
    await telegram.say(ANNA, GROUP, "/settings")
    panel = telegram.newest(GROUP, "text")
    assert "Your settings" in panel.data["text"]
    calls = await telegram.press_label(ANNA, GROUP, "Board: classic")
    assert [call.method for call in calls] == ["answerCallbackQuery", "editMessageText"]
    assert telegram.button(GROUP, "Board: dark")[0] == panel.data["message_id"]
    refused = await telegram.press_label(CARL, GROUP, "Board: dark")
    assert refused[0].params["text"] == "These are someone else's settings."


async def test_the_list_of_matches_turns_its_pages_in_place(telegram: Harness) -> None:
    anna = await telegram.stores.users.upsert_user("telegram", "11", "Anna")
    for number in range(11):  # eleven matches in chats of their own: two pages
        chat = await telegram.stores.chats.upsert_chat("telegram", str(-200 - number))
        rival = await telegram.stores.users.upsert_user("telegram", str(100 + number), "Rival")
        await create_match(
            telegram.stores.matches,
            chat_id=chat.id,
            player_ids=(anna.id, rival.id),
            rules=MatchRules(length=3),
            server_seed=bytes(32),
            client_seeds=("a", "b"),
        )
    await telegram.say(ANNA, GROUP, "/matches")
    listed = telegram.newest(GROUP, "text")
    assert listed.data["text"].startswith("Your active matches, page 1 of 2:")
    calls = await telegram.press_label(ANNA, GROUP, "▶")
    assert [call.method for call in calls] == ["answerCallbackQuery", "editMessageText"]
    assert telegram.newest(GROUP, "text") is listed
    assert listed.data["text"].startswith("Your active matches, page 2 of 2:")
    assert telegram.button(GROUP, "◀")[0] == listed.data["message_id"]
    refused = await telegram.press_label(CARL, GROUP, "◀")
    assert refused[0].params["text"] == "This list belongs to someone else: /matches shows yours."


async def test_a_confirmed_move_preview_is_edited_in_place(telegram: Harness) -> None:
    loaded = await _start(telegram)
    mover = ANNA  # with the fixed seeds Anna opens
    assert loaded.state.turn == 0
    await telegram.say(mover, GROUP, "/settings")
    await telegram.press_label(mover, GROUP, "Confirm each move: off")
    plays = [str(play) for play in loaded.state.legal_plays()[:2]]
    await telegram.say(mover, GROUP, f"/move {plays[0]}")
    preview = telegram.newest(GROUP, "photo")
    assert preview.data["caption"].startswith(f"Your play {plays[0]}")
    calls = await telegram.say(mover, GROUP, f"/move {plays[1]}")
    assert [call.method for call in _sent(calls)] == ["editMessageMedia"]
    assert telegram.newest(GROUP, "photo") is preview
    assert preview.data["caption"].startswith(f"Your play {plays[1]}")
    await telegram.press_label(mover, GROUP, "Confirm")
    assert (await _match(telegram)).info.version > loaded.info.version
    assert "reply_markup" not in preview.data  # the used preview cannot be pressed again


async def test_only_administrators_change_the_chats_defaults(telegram: Harness) -> None:
    refused = _sent(await telegram.say(CARL, GROUP, "/defaults length 5"))
    assert "Only an administrator" in refused[0].params["text"]
    telegram.api.admins.add((GROUP, 11))
    done = _sent(await telegram.say(ANNA, GROUP, "/defaults length 5"))
    assert done[0].params["text"] == "The chat's defaults are updated."
    assert len(telegram.api.of("getChatMember")) == 2
    await telegram.say(ANNA, GROUP, "/defaults length 7")
    assert len(telegram.api.of("getChatMember")) == 2  # remembered for a minute


async def test_an_unknown_username_is_explained(telegram: Harness) -> None:
    calls = _sent(await telegram.say(ANNA, GROUP, "/challenge @zoe 3"))
    # Her username as typed, with a word joiner after the @: Telegram would make "@zoe" a
    # mention that notifies her.
    assert "I have not met \u2068@\u2060zoe\u2069 yet" in calls[0].params["text"]
    assert "@zoe" not in calls[0].params["text"]
    # Answering one of her messages names her without a username.
    zoe = {"id": 44, "is_bot": False, "first_name": "Zoe"}
    await telegram.say(zoe, GROUP, "hello")
    asked = telegram.api.last_message_id[GROUP]
    calls = _sent(await telegram.say(ANNA, GROUP, "/challenge 3", reply_to=asked))
    assert "Anna challenges Zoe" in calls[0].params["text"]


async def test_the_command_menu_is_registered_in_english_and_german(telegram: Harness) -> None:
    english = {entry["command"]: entry["description"] for entry in telegram.api.commands[""]}
    german = {entry["command"]: entry["description"] for entry in telegram.api.commands["de"]}
    assert set(english) == set(german)
    assert {"challenge", "move", "roll", "double", "resign", "defaults"} <= set(english)
    assert english["roll"] != german["roll"]
    assert all(0 < len(text) <= 256 for text in [*english.values(), *german.values()])


async def test_unreachable_users_get_one_hint_and_no_more_attempts(telegram: Harness) -> None:
    telegram.api.unreachable.add(22)
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")
    await telegram.say(ANNA, GROUP, "/challenge @bob 3")  # refused: one open match per chat
    await telegram.press_label(BOB, GROUP, "Accept")
    private = [call for call in telegram.api.of("sendMessage") if call.params["chat_id"] == 22]
    assert len(private) == 1  # the first try, refused with 403
    bob = await telegram.stores.users.find_user("telegram", "22")
    assert bob is not None
    assert bob.unreachable is True
    # /start in the private chat makes him reachable again.
    telegram.api.unreachable.discard(22)
    await telegram.say(BOB, 22, "/start")
    bob = await telegram.stores.users.find_user("telegram", "22")
    assert bob is not None
    assert bob.unreachable is False


async def test_the_adapters_own_words_follow_the_language_of_the_message(
    telegram: Harness,
) -> None:
    german = {**ANNA, "language_code": "de"}
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(german, GROUP, "/challenge @bob 3")
    offer = [s for s in telegram.api.in_chat(GROUP) if "reply_markup" in s.data][-1]
    labels = [row[0]["text"] for row in offer.data["reply_markup"]["inline_keyboard"]]
    assert "Accept" in labels  # a group without a language of its own reads English
    assert labels[-1] == "Accept in a private chat (with notifications)"
    telegram.api.admins.add((GROUP, 11))
    await telegram.say(german, GROUP, "/defaults language de")
    await telegram.say(german, GROUP, "/challenge")
    offer = [s for s in telegram.api.in_chat(GROUP) if "reply_markup" in s.data][-1]
    labels = [row[0]["text"] for row in offer.data["reply_markup"]["inline_keyboard"]]
    assert "Annehmen" in labels
    assert labels[-1] == "Im privaten Chat annehmen (mit Benachrichtigungen)"
