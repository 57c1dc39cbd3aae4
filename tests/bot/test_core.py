"""The command layer end to end: challenges, turns, the cube, resignations, refusals."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta

from gammon.fair_dice import verify_transcript
from tests.bot.scripted import PLATFORM, Room, headline, play_to_the_end


async def test_a_whole_match_from_challenge_to_the_revealed_seed(room: Room) -> None:
    offer = await room.command("anna", "/challenge @bob 3")
    assert "Anna challenges Bob" in offer[0].text
    assert [button.label for button in offer[0].buttons] == ["Accept", "Decline", "Cancel"]
    started = await room.press("bob", "Accept")
    assert any("commitment" in message.text for message in started)
    assert any("Position ID" in message.text for message in started)
    await play_to_the_end(room, ("anna", "bob"), seed=1)
    ending = [message for message in room.log if headline(message).startswith("Match over")]
    assert len(ending) == 1
    files = {file.filename: file.data for file in ending[0].attachments}
    transcript_file = next(name for name in files if name.endswith("transcript.json"))
    assert verify_transcript(json.loads(files[transcript_file])).ok
    assert any(name.endswith(".mat") for name in files)


async def test_only_the_challenged_player_accepts(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    refused = await room.press("carl", "Accept")
    assert refused[0].private_to == "carl"
    assert "someone else" in refused[0].text
    own = await room.press("anna", "Accept")
    assert "your own challenge" in own[0].text
    await room.press("bob", "Decline")
    again = await room.press("bob", "Accept")
    assert "already been answered" in again[0].text


async def test_an_open_challenge_can_be_taken_by_anyone(room: Room) -> None:
    await room.command("anna", "/challenge 1 nardy")
    started = await room.press("carl", "Accept")
    assert any("lot" in message.text for message in started)


async def test_refusals_go_only_to_the_one_who_caused_them(room: Room) -> None:
    await room.command("anna", "/challenge @bob 1")
    await room.press("bob", "Accept")
    for name, text in (("carl", "/move 8/5 6/5"), ("bob", "/move 24/1"), ("anna", "/move 24/1")):
        answer = await room.command(name, text)
        assert len(answer) >= 1
        assert all(message.private_to == name for message in answer)


async def test_an_illegal_move_explains_and_offers_legal_plays(room: Room) -> None:
    await room.command("anna", "/challenge @bob 1")
    started = await room.press("bob", "Accept")
    board = started[-1]
    assert headline(board).startswith("Bob to play 6-3")  # with the fixed seeds Bob opens
    answer = await room.command("bob", "/move 24/1")
    assert answer[0].text == (
        "Your dice do not fit that move. Legal plays include: 24/15, 13/4, 24/18 13/10"
    )


async def test_twenty_simultaneous_presses_apply_once(room: Room) -> None:
    await room.command("anna", "/challenge @bob 5 nocube")
    started = await room.press("bob", "Accept")
    mover = "bob"  # Bob opens with the fixed seeds
    assert headline(started[-1]).startswith(f"{mover.title()} to play")
    loaded = await room.stores.matches.active_match_for(
        (await room.stores.chats.upsert_chat(PLATFORM, "group-1")).id,
        (await room.stores.users.upsert_user(PLATFORM, mover, mover.title())).id,
    )
    assert loaded is not None
    version = loaded.info.version
    play = str(loaded.state.legal_plays()[0])
    answers = await asyncio.gather(*(room.command(mover, f"/move {play}") for _ in range(20)))
    # The state with its history: a state from memory or the snapshot may carry none.
    after = await room.stores.matches.with_history(
        await room.stores.matches.load_match(loaded.info.id)
    )
    moves = [action for action in after.state.actions[version:] if type(action).__name__ == "Move"]
    assert moves[0].play == play
    refused = [answer for answer in answers if answer and answer[0].private_to == mover]
    assert len(refused) == 19


async def test_stale_and_forged_buttons_change_nothing(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    before = await room.stores.matches.load_match(1)
    for token in ("bg1:roll:m1:0", "garbage", "bg1:take:m999:1", "x" * 500, "bg1:roll:c1:0"):
        answer = await room.send("anna", token=token)
        assert answer[0].private_to == "anna"
        after = await room.stores.matches.load_match(1)
        assert after.info.version == before.info.version, token


async def test_languages(room: Room) -> None:
    german = await room.command("anna", "/help", locale="de-DE")
    assert german[0].text.startswith("gammonbot spielt in diesem Chat Backgammon und Lang-Nardy.")
    switched = await room.command("anna", "/language en", locale="de-DE")
    assert switched[0].text == "I will speak English with you."
    english = await room.command("anna", "/dance", locale="de-DE")
    assert english[0].text == "I do not know that command. /help lists them all."
    back = await room.command("anna", "/language de")
    assert back[0].text == "Ich spreche ab jetzt Deutsch mit dir."
    refused = await room.command("anna", "/move 8/5 6/5")
    assert refused[0].text == "Du hast in diesem Chat kein Match. Starte eines mit /challenge."


async def test_unknown_commands_and_options_are_answered(room: Room) -> None:
    unknown = await room.command("anna", "/dance")
    assert "/help" in unknown[0].text
    bad = await room.command("anna", "/challenge @bob 99")
    assert "99" in bad[0].text


async def test_every_rules_chapter_in_both_languages(room: Room) -> None:
    """A chapter is posted for the whole chat, so it is in the chat's language."""
    from bot.core.info.rules_text import CHAPTERS

    english = [await room.command("dora", f"/rules {item.topic}", locale="de") for item in CHAPTERS]
    await room.command("anna", "/defaults language de", admin=True)
    german = [await room.command("anna", f"/rules {item.topic}") for item in CHAPTERS]
    for chapter, in_english, in_german in zip(CHAPTERS, english, german, strict=True):
        assert len(in_english[0].text) > 150
        assert (in_english[0].locale, in_german[0].locale) == ("en", "de")
        assert in_english[0].text != in_german[0].text
        assert (in_english[0].board is not None) == (chapter.picture is not None)
    unknown = await room.command("anna", "/rules chess")
    assert "bearingoff" in unknown[0].text
    overview = await room.command("anna", "/rules")
    assert overview[0].text.startswith("Überblick")


async def test_settings_toggle_and_confirm_moves(room: Room) -> None:
    settings = await room.command("anna", "/settings")
    labels = [button.label for button in settings[0].buttons]
    assert "Confirm each move: off" in labels
    toggled = await room.press("anna", "Confirm each move: off")
    assert "Confirm each move: on" in [button.label for button in toggled[0].buttons]
    foreign = await room.send("bob", token=settings[0].buttons[0].token)
    assert "someone else" in foreign[0].text
    await room.command("bob", "/settings")
    await room.press("bob", "Confirm each move: off")
    await room.command("anna", "/challenge @bob 1 nocube")
    started = await room.press("bob", "Accept")
    mover = "bob"  # Bob opens with the fixed seeds
    assert headline(started[-1]).startswith(f"{mover.title()} to play")
    loaded = await room.match_of(mover)
    assert loaded is not None
    play = str(loaded.state.legal_plays()[0])
    assert play == "24/22 24/18"
    preview = await room.command(mover, f"/move {play}")
    assert [button.label for button in preview[0].buttons] == ["Confirm", "Change"]
    unchanged = await room.stores.matches.load_match(loaded.info.id)
    assert unchanged.info.version == loaded.info.version
    await room.press(mover, "Confirm")
    moved = await room.stores.matches.load_match(loaded.info.id)
    assert moved.info.version > loaded.info.version
    again = await room.press(mover, "Confirm")  # the used preview, pressed once more
    assert "out of date" in again[0].text
    unmoved = await room.stores.matches.load_match(loaded.info.id)
    assert unmoved.info.version == moved.info.version


async def test_chat_defaults_are_for_administrators(room: Room) -> None:
    refused = await room.command("anna", "/defaults length 7")
    assert "administrator" in refused[0].text
    changed = await room.command("anna", "/defaults length 7 language de", admin=True)
    assert changed[0].text == "Die Voreinstellungen des Chats sind geändert."  # its new language
    offer = await room.command("bob", "/challenge @anna")  # now in the chat's language
    assert offer[0].text.startswith("Bob fordert Anna heraus: Match bis 7 Punkte")
    shown = await room.command("bob", "/defaults")
    assert "7" in shown[0].text


async def test_what_the_chat_sees_is_in_the_chats_language_what_one_sees_in_theirs(
    room: Room,
) -> None:
    """German-speaking Anna challenges English-speaking Bob in a chat without a language of
    its own: the challenge, its buttons and the board are in English; her refusals and her
    /help are in German."""
    offer = await room.command("anna", "/challenge @bob 3", locale="de")
    assert offer[0].locale == "en"
    assert offer[0].text.startswith("Anna challenges Bob to a 3-point match")
    assert [button.label for button in offer[0].buttons] == ["Accept", "Decline", "Cancel"]
    refused = await room.command("anna", "/move 13/10", locale="de")
    assert (refused[0].locale, refused[0].private_to) == ("de", "anna")
    assert refused[0].text.startswith("Du hast in diesem Chat kein Match")
    helped = await room.command("anna", "/help", locale="de")
    assert (helped[0].locale, helped[0].private_to) == ("de", "anna")
    assert "Backgammon" in helped[0].text
    started = await room.press("bob", "Accept")
    assert all(message.locale == "en" for message in started)
    assert started[-1].board is not None
    await room.command("anna", "/defaults language ru", admin=True)
    refused = await room.command("bob", "/seed", locale="en")
    assert refused[0].locale == "en"  # Bob's own language, not the chat's
    assert refused[0].text.startswith("Give your seed")
    board = await room.command("anna", "/board", locale="de")
    assert board[-1].locale == "ru"
    assert re.search("[а-яё]", board[-1].text), board[-1].text  # written in Cyrillic


async def test_every_answer_says_which_language_it_is_written_in(room: Room) -> None:
    offer = await room.command("anna", "/challenge @bob 3", locale="de")
    assert offer[0].locale == "en"  # the chat's
    refusal = await room.command("anna", "/move 13/10", locale="de")
    assert refusal[0].locale == "de"  # hers
    switched = await room.command("anna", "/language en")
    assert switched[0].locale == "en"
    assert switched[0].text == "I will speak English with you."
    assert (await room.command("anna", "/help"))[0].locale == "en"


async def test_a_private_notice_is_in_its_readers_language_the_post_in_the_chats(
    room: Room,
) -> None:
    """Bob reads German; the chat has no language of its own. The challenge in the chat is
    English, the private notification Bob gets about it German, and so is the one about the
    first board that waits for him."""
    await room.command("bob", "/help", locale="de")  # the platform tells us Bob's language
    offer = await room.command("anna", "/challenge @bob 3", locale="en")
    assert offer[0].text.startswith("Anna challenges Bob to a 3-point match")
    assert offer[0].notify == ("bob",)
    assert offer[0].notice_for("bob").startswith("Anna fordert Bob heraus")
    assert offer[0].notice_for("carl") == offer[0].text  # nobody else gets a notice
    await room.press("bob", "Accept")  # with the fixed seeds Bob opens, at the table
    opening = await room.match_of("bob")
    assert opening is not None
    await room.command("bob", f"/move {opening.state.legal_plays()[0]}")
    later = room.core.clock() + timedelta(minutes=30)
    room.core.clock = lambda: later  # Bob has been away for a while when his turn comes
    answer = await room.command("anna", "/roll")
    rolled = await room.match_of("anna")
    assert rolled is not None
    if rolled.state.legal_plays():
        answer = await room.command("anna", f"/move {rolled.state.legal_plays()[0]}")
    board = answer[-1]
    assert headline(board).startswith("Bob to ")  # the chat reads English
    assert board.notify == ("bob",)
    assert board.notice_for("bob").startswith("Bob ")
    assert board.notice_for("bob") != headline(board)  # Bob reads German
