"""A whole chouette over Telegram: three people open, join and start a table in the group, the
box and the captain play with the buttons and typed moves, two members double the box with
[Double the box] and the box drops both with its buttons; the settlement and the next game's
order are posted, a stranger's press is refused with a toast, and /chouette end reveals the
seed."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import timedelta
from typing import Any

import pytest

from gammon.chouette import ChouetteGame
from gammon.fair_dice import verify_transcript
from gammon.flow import Phase
from storage import LoadedChouette
from tests.fakes.telegram_bot_api import user
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness

DORA = user(44, "Dora", "dora")  # not at the table
PEOPLE = (ANNA, BOB, CARL)


async def _current(telegram: Harness) -> LoadedChouette:
    chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
    assert chat is not None
    loaded = await telegram.stores.chouettes.active_for_chat(chat.id)
    assert loaded is not None
    return loaded


async def _senders(telegram: Harness) -> dict[str, dict[str, Any]]:
    """The Telegram sender of each of the rules' player ids."""
    found = {}
    for person in PEOPLE:
        known = await telegram.stores.users.find_user("telegram", str(person["id"]))
        assert known is not None
        found[str(known.id)] = person
    return found


def _texts(telegram: Harness) -> str:
    return "\n".join(
        stored.data.get("text") or stored.data.get("caption") or ""
        for stored in telegram.api.in_chat(GROUP)
    )


async def _play_until_the_team_rolls(
    telegram: Harness, senders: dict[str, dict[str, Any]]
) -> ChouetteGame:
    """[Roll] pressed and the first legal play typed, by the box and the captain in turn,
    until the team is at the start of its turn."""
    for _step in range(200):
        loaded = await _current(telegram)
        game = loaded.game
        assert game is not None
        assert not game.finished
        board = game.board
        mover = senders[game.table.box if board.player_on_roll == 0 else game.acting_captain or ""]
        if board.phase is Phase.ROLLING:
            if board.player_on_roll == 1:
                return game
            await telegram.press_label(mover, GROUP, "Roll")
        elif board.phase is Phase.MOVING:
            await telegram.say(mover, GROUP, f"/move {board.legal_plays()[0]}")
        else:
            raise AssertionError(board.phase)
        after = await _current(telegram)
        assert after.info.version > loaded.info.version, "the step was ignored"
    raise AssertionError("the team never rolled")


async def test_a_chouette_is_played_in_the_group_to_the_seed_reveal(telegram: Harness) -> None:
    api = telegram.api
    await telegram.say(ANNA, GROUP, "/chouette")
    opened = telegram.newest(GROUP, "text").data["text"]
    assert "Anna opens a chouette table" in opened
    commitment = re.search(r"Dice commitment: ([0-9a-f]{64})", opened)
    assert commitment
    await telegram.say(BOB, GROUP, "/chouette join")
    assert "Bob sits down at the chouette." in _texts(telegram)
    await telegram.say(CARL, GROUP, "/chouette join")
    await telegram.say(CARL, GROUP, "/chouette start")
    assert "Seating dice" in _texts(telegram)
    assert "Opening roll" in _texts(telegram)
    board = telegram.newest(GROUP, "photo")
    assert board.data["caption"].count("Chouette, game 1") == 1
    assert board.photo_bytes > 10_000

    senders = await _senders(telegram)
    loaded = await _current(telegram)
    box, captain, third = (senders[str(seat)] for seat in loaded.info.seats)

    # A stranger's press: a toast, nothing changes.
    game = await _play_until_the_team_rolls(telegram, senders)
    before = (await _current(telegram)).info.version
    calls = await telegram.press_label(DORA, GROUP, "Roll")
    assert [call.method for call in calls] == ["answerCallbackQuery"]
    assert calls[0].params["text"].startswith("You do not sit at this chouette")
    assert (await _current(telegram)).info.version == before

    # Both members double the box with its button; the box drops both with its buttons.
    assert game.table.captain == str(next(k for k, v in senders.items() if v is captain))
    await telegram.press_label(captain, GROUP, "Double the box")
    assert f"{captain['first_name']} doubles the box to 2." in _texts(telegram)
    await telegram.press_label(third, GROUP, "Double the box")
    await telegram.press_label(box, GROUP, f"Drop {captain['first_name']}")
    await telegram.press_label(box, GROUP, f"Drop {third['first_name']}")
    texts = _texts(telegram)
    b, c, t = box["first_name"], captain["first_name"], third["first_name"]
    assert f"{b} (box) drops {c}'s double and pays 1." in texts
    assert f"This game: {b} −2, {c} +1, {t} +1" in texts
    # The captain won: the captain is the box, the old box goes to the end of the line.
    assert f"Game 2: Box: {c} · captain: {t} · then: {b}" in texts
    after = await _current(telegram)
    assert after.info.game_number == 2
    assert [senders[str(seat)] for seat in after.info.seats] == [captain, third, box]

    # The host ends the session (game 2 is being played: asked first): the seed whose
    # SHA-256 was the commitment.
    await telegram.say(ANNA, GROUP, "/chouette end")
    await telegram.press_label(ANNA, GROUP, "End the session")
    end = telegram.newest(GROUP, "text").data["text"]
    assert "The chouette is over. Games played: 1." in end
    seed = re.search(r"server seed ([0-9a-f]+)", end)
    assert seed
    assert hashlib.sha256(bytes.fromhex(seed.group(1))).hexdigest() == commitment.group(1)
    assert all(count == 1 for count in api.queries.values())


async def test_doubles_are_answered_by_typed_commands_in_the_group(telegram: Harness) -> None:
    await telegram.say(ANNA, GROUP, "/chouette")
    await telegram.say(BOB, GROUP, "/chouette join")
    await telegram.say(CARL, GROUP, "/chouette join")
    await telegram.say(CARL, GROUP, "/chouette start")
    senders = await _senders(telegram)
    loaded = await _current(telegram)
    box, captain, third = (senders[str(seat)] for seat in loaded.info.seats)
    b, c, t = box["first_name"], captain["first_name"], third["first_name"]
    await _play_until_the_team_rolls(telegram, senders)
    await telegram.say(captain, GROUP, "/double")
    await telegram.say(third, GROUP, "/double")

    # The bare /take while two doubles wait: a reply to the box's own message, naming both.
    calls = await telegram.say(box, GROUP, "/take")
    [refusal] = [call for call in calls if call.method == "sendMessage"]
    assert refusal.params["text"] == (
        f"Several doubles wait for you: {c}, {t}. Answer one with /take NAME."
    )
    assert "reply_parameters" in refusal.params
    # A @username the bot has seen, and a name typed as it is.
    await telegram.say(box, GROUP, f"/take @{captain['username']}")
    await telegram.say(box, GROUP, f"/drop {t}")
    texts = _texts(telegram)
    assert f"{b} (box) takes {c}'s double: that cube is at 2." in texts
    assert f"{b} (box) drops {t}'s double and pays 1." in texts
    game = (await _current(telegram)).game
    assert game is not None
    assert [(cube.value, cube.live) for cube in game.cubes] == [(2, True), (1, False)]


def _private_messages(telegram: Harness) -> list[int]:
    """The private chats the bot has written to (a user's private chat has the user's id)."""
    people = {person["id"] for person in PEOPLE}
    return [
        call.params["chat_id"]
        for call in telegram.api.of("sendMessage")
        if call.params["chat_id"] in people
    ]


async def test_only_a_player_away_from_the_table_gets_a_private_message(
    telegram: Harness,
) -> None:
    await telegram.say(ANNA, GROUP, "/chouette")
    await telegram.say(BOB, GROUP, "/chouette join")
    await telegram.say(CARL, GROUP, "/chouette join")
    await telegram.say(CARL, GROUP, "/chouette start")
    senders = await _senders(telegram)
    game = await _play_until_the_team_rolls(telegram, senders)
    assert _private_messages(telegram) == []  # everyone played on at once: nobody was away
    box, captain = senders[game.table.box], senders[game.acting_captain or ""]

    # Eleven minutes later the captain rolls and plays: the box has not acted since.
    later = telegram.core.clock() + timedelta(minutes=11)
    telegram.core.clock = lambda: later
    await telegram.press_label(captain, GROUP, "Roll")
    board = (await _current(telegram)).game
    assert board is not None
    if board.board.phase is Phase.MOVING:
        await telegram.say(captain, GROUP, f"/move {board.board.legal_plays()[0]}")
    assert _private_messages(telegram) == [box["id"]]
    notice = telegram.api.of("sendMessage")[-1].params["text"]
    chouette_id = (await _current(telegram)).info.id
    assert notice.startswith(f"The chouette #c{chouette_id} waits for you. {box['first_name']}")

    # The box answers at once: the captain, who has just played, gets no private message.
    await telegram.press_label(box, GROUP, "Roll")
    after = (await _current(telegram)).game
    assert after is not None
    if after.board.phase is Phase.MOVING:
        await telegram.say(box, GROUP, f"/move {after.board.legal_plays()[0]}")
    assert _private_messages(telegram) == [box["id"]]


async def test_ending_during_a_game_asks_first_and_sends_the_dice_files(
    telegram: Harness,
) -> None:
    """The board's caption says what was just played; the host's /chouette end during the
    game asks first with two buttons only the host may press; the end sends the transcript
    and the check page, which check out."""
    api = telegram.api
    await telegram.say(ANNA, GROUP, "/chouette")
    await telegram.say(BOB, GROUP, "/chouette join")
    await telegram.say(CARL, GROUP, "/chouette join")
    await telegram.say(CARL, GROUP, "/chouette start")
    caption = telegram.newest(GROUP, "photo").data["caption"].splitlines()
    started = caption[caption.index("Chouette, game 1") :]  # after the notes folded into it
    assert re.fullmatch(r"\S+ \((box|captain)\) starts with \d-\d\.", started[1]), started
    assert started[-1].startswith("Position ID: 4HPwATDgc/ABMA · Match ID: ")
    # The client seed: the platform's id of the start message (chat and message).
    assert re.search(r"Client seed of the dice: telegram:-?\d+:\d+\n", _texts(telegram))

    await telegram.say(ANNA, GROUP, "/chouette end")
    question = telegram.newest(GROUP, "text").data
    assert question["text"].startswith("Game 1 is being played.")
    labels = [
        button["text"] for row in question["reply_markup"]["inline_keyboard"] for button in row
    ]
    assert labels == ["End the session", "Keep playing"]
    calls = await telegram.press_label(BOB, GROUP, "End the session")
    assert [call.method for call in calls] == ["answerCallbackQuery"]
    assert calls[0].params["text"] == "Only the one who asked can answer this."
    assert (await _current(telegram)).info.status == "playing"

    pressed, data = telegram.button(GROUP, "End the session")
    await telegram.press(ANNA, GROUP, pressed, data)
    texts = _texts(telegram)
    assert "Game 1 was abandoned: it scores no points." in texts
    (album,) = api.of("sendMediaGroup")
    documents = list(album.files.values())
    transcript = next(document for document in documents if document.startswith(b"{"))
    assert verify_transcript(json.loads(transcript)).ok
    assert any(b"Dice check of chouette" in document for document in documents)
    # The question lost its buttons; the same press again (a stale client): a toast only,
    # saying what happened.
    with pytest.raises(AssertionError, match="no \\[End the session\\] button"):
        telegram.button(GROUP, "End the session")
    calls = await telegram.press(ANNA, GROUP, pressed, data)
    assert [call.method for call in calls] == ["answerCallbackQuery"]
    assert calls[0].params["text"].startswith("This chouette has ended already.")
