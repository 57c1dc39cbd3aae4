"""Playing against the bot on Telegram: /play and /challenge @thisbot offer a match against the
bot's own account, with its dice commitment, and the person's [Start] begins it (their client
seed is the id of that press); its turns come in the answer to the person's move; the analysis
of the finished match is posted in the group with its picture."""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import AsyncIterator

import pytest
from telegram import Update

from bot.core.computer.computer import Computer
from bot.core.service import Core
from bot.telegram_app import TelegramAdapter
from bot.telegram_app.commands import register_commands
from gammon.flow import Phase
from storage import Database, LoadedMatch
from tests.fakes.telegram_bot_api import BOT_ID, BOT_USERNAME, Call, FakeBotApi, FakeRequest
from tests.seeds import fixed_seeds
from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness, settings, unlimited

BOT_NOTE = re.compile(r"Gammon rolled (\d)-(\d) and played \S")
ANNA_BOARD = "\nAnna to play "  # no mention: Anna has just played and is at the table


@pytest.fixture
async def telegram(migrated_url: str) -> AsyncIterator[Harness]:
    """The adapter logged in as the bot (so the core knows its account), the engine in
    threads, no board pictures (the analysis picture is drawn all the same)."""
    database = Database(migrated_url)
    core = Core(
        database,
        render_images=False,
        server_seeds=fixed_seeds(),
        computer=Computer(processes=False),
    )
    api = FakeBotApi()
    adapter = TelegramAdapter(
        core,
        settings=settings(),
        request=FakeRequest(api),
        updates_request=FakeRequest(api),
        rate_limiter=unlimited(),
    )
    await adapter.initialize()
    await register_commands(adapter.application.bot)
    try:
        yield Harness(api, adapter, core)
    finally:
        await adapter.application.shutdown()
        core.ports.workers.computer.close()
        await database.close()


async def active_match(telegram: Harness) -> LoadedMatch | None:
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    anna = await telegram.stores.users.find_user("telegram", "11")
    assert chat is not None
    assert anna is not None
    return await telegram.stores.matches.active_match_for(chat.id, anna.id)


def texts(calls: list[Call]) -> list[str]:
    """What the bot wrote in the group with these calls: message texts and photo captions
    (not the private notifications Anna gets in her own chat with the bot)."""
    return [
        str(call.params.get("text", call.params.get("caption", "")))
        for call in calls
        if call.method in ("sendMessage", "sendPhoto", "editMessageText")
        and call.params["chat_id"] == GROUP
    ]


async def test_the_bot_runs_as_its_own_account_and_play_is_in_the_menu(
    telegram: Harness,
) -> None:
    account = await telegram.core.ports.bots.of("telegram")
    assert (account.platform_user_id, account.display_name) == (str(BOT_ID), "Gammon")
    assert account.is_bot
    for language in ("", "de"):
        names = [command["command"] for command in telegram.api.commands[language]]
        assert {"play", "hint", "analysis"} <= set(names)


async def started(telegram: Harness, chat_id: int, command: str) -> list[Call]:
    """``command`` offers the bot a match in the chat; Anna presses its [Start]."""
    offer = private_texts(await telegram.say(ANNA, chat_id, command), chat_id)
    assert offer[0].startswith("Anna challenges Gammon ("), offer
    return await telegram.press_label(ANNA, chat_id, "Start")


async def test_the_commitment_is_posted_before_the_press_that_fixes_the_seeds(
    telegram: Harness,
) -> None:
    seed = hashlib.sha256(b"seed-0").hexdigest()  # the first of the fixed server seeds
    short = hashlib.sha256(bytes.fromhex(seed)).hexdigest()[:12]
    calls = await telegram.say(ANNA, GROUP, "/play 1 expert")
    (offer,) = [call for call in calls if call.method == "sendMessage"]
    assert offer.params["chat_id"] == GROUP
    assert f"commitment {short}…" in str(offer.params["text"])
    assert await active_match(telegram) is None
    message_id, data = telegram.button(GROUP, "Start")
    update = telegram.api.press(ANNA, GROUP, message_id, data)
    press_id = update["callback_query"]["id"]  # made by the platform after the offer
    await telegram.adapter.application.process_update(
        Update.de_json(update, telegram.adapter.application.bot)
    )
    loaded = await active_match(telegram)
    assert loaded is not None
    assert loaded.info.client_seeds == (f"telegram:{press_id}", f"telegram:bot:{press_id}")


async def test_only_anna_starts_her_match_and_once(telegram: Harness) -> None:
    await telegram.say(ANNA, GROUP, "/play 1")
    message_id, data = telegram.button(GROUP, "Start")
    calls = await telegram.press(BOB, GROUP, message_id, data)
    (answer,) = [call for call in calls if call.method == "answerCallbackQuery"]
    assert "someone else's" in str(answer.params.get("text"))
    assert await active_match(telegram) is None
    await telegram.press(ANNA, GROUP, message_id, data)
    first = await active_match(telegram)
    assert first is not None
    calls = await telegram.press(ANNA, GROUP, message_id, data)  # a second tap
    (answer,) = [call for call in calls if call.method == "answerCallbackQuery"]
    assert "already started" in str(answer.params.get("text"))
    again = await active_match(telegram)
    assert again is not None
    assert (again.info.id, again.info.version) == (first.info.id, first.info.version)


async def test_a_whole_match_against_the_bot_then_its_analysis(telegram: Harness) -> None:
    offer = texts(await telegram.say(ANNA, GROUP, "/play 1 expert"))
    seed = hashlib.sha256(b"seed-0").hexdigest()  # the first of the fixed server seeds
    # Its commitment, in short, with the offer: /verify shows it whole.
    assert f"commitment {hashlib.sha256(bytes.fromhex(seed)).hexdigest()[:12]}…" in offer[0]
    calls = await telegram.press_label(ANNA, GROUP, "Start")
    written = texts(calls)
    assert written[0].startswith("Match 1: Anna vs Gammon (expert), 1-point match")
    rng = random.Random(15)
    bot_turns = 0
    for _turn in range(200):
        loaded = await active_match(telegram)
        if loaded is None:
            break
        # The bot has answered already: the match waits for Anna (seat 0), and the last thing
        # the bot wrote is her board.
        assert (loaded.state.phase, loaded.state.turn) == (Phase.MOVING, 0)
        assert ANNA_BOARD in f"\n{written[-1]}", written[-1]
        assert "tg://user?id=11" not in written[-1]
        play = rng.choice(loaded.state.legal_plays())
        calls = await telegram.say(ANNA, GROUP, f"/move {play}")
        written = texts(calls)
        notes = [index for index, text in enumerate(written) if BOT_NOTE.search(text)]
        if notes:
            bot_turns += 1
            # Its board follows in the same answer: the note is the first line of its caption.
            assert "Anna to play " in written[notes[-1]] or "Match over" in written[notes[-1]]
    else:
        raise AssertionError("the match did not end")
    assert bot_turns >= 2
    end = written[-1]
    assert "\nMatch over: " in end
    assert f"tg://user?id={BOT_ID}" not in end  # the bot does not mention itself
    assert "match-1-transcript.json holds the server seed and every roll." in end
    (album,) = telegram.api.of("sendMediaGroup")  # the files: the seed is revealed there
    assert any(seed.encode() in data for data in album.files.values())
    assert not any(call.params.get("chat_id") == BOT_ID for call in telegram.api.calls)

    before = len(telegram.api.calls)
    await telegram.adapter.deliver(await telegram.core.ports.analyst.work())
    delivered = telegram.api.calls[before:]
    photos = [call for call in delivered if call.method == "sendPhoto"]
    assert len(photos) == 1
    assert photos[0].params["chat_id"] == GROUP
    assert photos[0].files["photo"].startswith(b"\x89PNG")
    assert any(text.startswith("Analysis of match 1") for text in texts(delivered))
    (document,) = [call for call in delivered if call.method == "sendDocument"]
    assert document.files["document"].startswith(b"Analysis of match 1")


async def test_challenging_the_bot_by_its_username_offers_a_match_against_it(
    telegram: Harness,
) -> None:
    calls = await started(telegram, GROUP, f"/challenge @{BOT_USERNAME} 1")
    assert texts(calls)[0].startswith("Match 1: Anna vs Gammon (expert), 1-point match")
    loaded = await active_match(telegram)
    assert loaded is not None
    assert loaded.info.bot_level == "expert"


async def test_a_text_mention_of_the_bot_challenges_it_too(telegram: Harness) -> None:
    """A mention by name (a text mention: the bot's user attached to the entity)."""
    api = telegram.api
    update = api.text(ANNA, GROUP, "/challenge Gammon 1")
    gammon = {"id": BOT_ID, "is_bot": True, "first_name": "Gammon", "username": BOT_USERNAME}
    entity = {"type": "text_mention", "offset": 11, "length": 6, "user": gammon}
    update["message"]["entities"].append(entity)
    before = len(api.calls)
    bot = telegram.adapter.application.bot
    await telegram.adapter.application.process_update(Update.de_json(update, bot))
    assert texts(api.calls[before:])[0].startswith("Anna challenges Gammon (expert) to a 1-")
    calls = await telegram.press_label(ANNA, GROUP, "Start")
    assert texts(calls)[0].startswith("Match 1: Anna vs Gammon (expert)")


async def test_a_match_in_a_private_chat_answers_there_without_a_receipt(
    telegram: Harness,
) -> None:
    """A match against the bot played in Anna's private chat: a move typed there is answered
    with the board there, not with the receipt meant for moves typed away from the match."""
    private = int(ANNA["id"])
    calls = await started(telegram, private, "/play 1 expert")
    assert any("1-point match" in text for text in private_texts(calls, private))
    chat = await telegram.stores.chats.find_chat("telegram", str(private))
    anna = await telegram.stores.users.find_user("telegram", "11")
    assert chat is not None
    assert anna is not None
    for _move in range(3):
        loaded = await telegram.stores.matches.active_match_for(chat.id, anna.id)
        assert loaded is not None
        play = loaded.state.legal_plays()[0]
        written = private_texts(await telegram.say(ANNA, private, f"/move {play}"), private)
        assert written
        assert not any("Done in match" in text for text in written), written


def private_texts(calls: list[Call], chat_id: int) -> list[str]:
    return [
        str(call.params.get("text", call.params.get("caption", "")))
        for call in calls
        if call.method.startswith(("send", "edit")) and call.params.get("chat_id") == chat_id
    ]


async def test_rematch_against_the_bot_offers_a_match_and_keeps_the_end(
    telegram: Harness,
) -> None:
    await started(telegram, GROUP, "/play 1 beginner nocube")
    await telegram.say(ANNA, GROUP, "/resign")
    await telegram.press_label(ANNA, GROUP, "Resign")  # the bot accepts the whole match
    end_id, _token = telegram.button(GROUP, "Rematch")
    ended = str(telegram.api.messages[(GROUP, end_id)].data["text"])
    assert "Match over: Gammon wins 1–0." in ended
    offer = texts(await telegram.press_label(ANNA, GROUP, "Rematch"))
    assert offer[0].startswith("Anna challenges Gammon (beginner) to a 1-point match"), offer
    calls = await telegram.press_label(ANNA, GROUP, "Start")
    assert any(text.startswith("Match 2: Anna vs Gammon (beginner)") for text in texts(calls))
    # The end is a record: the new match is posted below it, nothing takes its place.
    assert telegram.api.messages[(GROUP, end_id)].data["text"] == ended
    loaded = await active_match(telegram)
    assert loaded is not None
    assert (loaded.info.id, loaded.info.bot_level) == (2, "beginner")
