"""A whole match against the bot through the command layer: offered with its dice commitment,
started with [Start], it answers at once, by the rules, with the same fair dice; hints and
the analysis that follows."""

from __future__ import annotations

import json
import random
import re
from collections.abc import AsyncIterator

import pytest

from bot.core.computer.computer import Computer
from bot.core.model import ChatRef, Message
from bot.core.service import Core
from gammon.fair_dice import verify_transcript
from gammon.flow import Phase
from storage import Database
from tests.bot.scripted import PLATFORM, Room, headline
from tests.seeds import fixed_seeds


@pytest.fixture
async def bot_room(migrated_url: str) -> AsyncIterator[Room]:
    database = Database(migrated_url)
    computer = Computer(processes=False)
    core = Core(database, render_images=False, server_seeds=fixed_seeds(), computer=computer)
    yield Room(core, ChatRef(PLATFORM, "group-1"))
    computer.close()
    await database.close()


async def _play_against_the_bot(room: Room, name: str, seed: int, limit: int = 400) -> None:
    """The person plays random legal moves, takes every double, never doubles."""
    rng = random.Random(seed)
    for _turn in range(limit):
        loaded = await room.match_of(name)
        if loaded is None:
            return
        state = loaded.state
        assert state.turn == 0, "the bot left its turn unplayed"
        if state.phase is Phase.ROLLING:
            await room.command(name, "/roll")
        elif state.phase is Phase.MOVING:
            play = rng.choice(state.legal_plays())
            await room.command(name, f"/move {play}")
        elif state.phase is Phase.DOUBLED:
            await room.press(name, "Take")
        else:
            await room.press(name, "Accept")
    raise AssertionError("the match did not end")


def _texts(messages: list[Message]) -> str:
    return "\n".join(message.text for message in messages)


async def _started(room: Room, name: str, command: str) -> list[Message]:
    """``command`` offers the bot a match; ``name`` presses its [Start]: the answer."""
    offer = await room.command(name, command)
    assert [button.label for button in offer[0].buttons] == ["Start", "Cancel"], offer
    return await room.press(name, "Start")


async def test_a_whole_match_against_the_bot(bot_room: Room) -> None:
    offer = await bot_room.command("anna", "/play 3 expert")
    assert "commitment" in offer[0].text
    started = await bot_room.press("anna", "Start")
    assert "vs gammonbot (expert)" in started[0].text
    assert "commitment" in started[0].text
    await _play_against_the_bot(bot_room, "anna", seed=3)
    log = _texts(bot_room.log)
    assert "gammonbot rolled" in log
    assert "and played" in log
    ending = [message for message in bot_room.log if headline(message).startswith("Match over")]
    assert len(ending) == 1
    files = {file.filename: file.data for file in ending[0].attachments}
    transcript = next(name for name in files if name.endswith("transcript.json"))
    assert verify_transcript(json.loads(files[transcript])).ok
    # No board ever offered the bot's buttons or pinged it.
    for message in bot_room.log:
        if "gammonbot is thinking" in message.text:
            assert message.buttons == ()
            assert message.mention == ()
    posted = await bot_room.core.ports.analyst.work()
    assert len(posted) == 1
    assert posted[0].chat == ChatRef(PLATFORM, "group-1", locale="en")
    assert "Analysis of match" in posted[0].text
    assert "error rate" in posted[0].text
    # Against the bot: no rating, a record for the level, and the analysis's error rate.
    assert not any("Ratings:" in message.text for message in ending)
    stats = (await bot_room.command("anna", "/stats"))[0].text
    assert "Rating 1,500.0 · experience 0" in stats
    assert re.search(r"Against the bot: expert [01]–[01]\n", stats + "\n")
    assert "(analysed matches: 1)" in stats
    assert posted[0].image is not None
    assert posted[0].image.startswith(b"\x89PNG")
    again = await bot_room.command("anna", "/analysis")
    assert again[0].text == posted[0].text
    # GNU Backgammon's depth first; another level on request: queued, made by the worker at
    # that level, then shown.
    assert "(level world class)" in posted[0].text
    quick = await bot_room.command("anna", "/analysis expert")
    assert "is being analysed at the level expert" in quick[0].text
    waiting = await bot_room.command("anna", "/analysis")
    assert "is being analysed" in waiting[0].text
    (redone,) = await bot_room.core.ports.analyst.work()
    assert "(level expert)" in redone.text
    assert (await bot_room.command("anna", "/analysis expert"))[0].text == redone.text
    assert (await bot_room.command("anna", "/analysis"))[0].text == redone.text


async def test_each_move_is_answered_in_the_same_reply(bot_room: Room) -> None:
    await _started(bot_room, "anna", "/play 5 nocube")
    loaded = await bot_room.match_of("anna")
    assert loaded is not None
    assert loaded.state.turn == 0
    if loaded.state.phase is Phase.ROLLING:
        await bot_room.command("anna", "/roll")
        loaded = await bot_room.match_of("anna")
        assert loaded is not None
    play = loaded.state.legal_plays()[0]
    answer = await bot_room.command("anna", f"/move {play}")
    after = await bot_room.match_of("anna")
    assert after is not None
    assert after.state.turn == 0
    assert any("gammonbot rolled" in message.text for message in answer)
    assert after.state.rules.uses_cube is False
    assert after.info.bot_level == "expert"


async def test_a_challenge_to_the_bot_is_an_offer_to_start(bot_room: Room) -> None:
    answer = await _started(bot_room, "anna", "/challenge @gammonbot 1 beginner")
    assert "vs gammonbot (beginner)" in answer[0].text
    loaded = await bot_room.match_of("anna")
    assert loaded is not None
    assert loaded.info.bot_level == "beginner"


async def test_hints_against_the_bot(bot_room: Room) -> None:
    await _started(bot_room, "anna", "/play 3")
    loaded = await bot_room.match_of("anna")
    assert loaded is not None
    if loaded.state.phase is Phase.ROLLING:
        cube = await bot_room.command("anna", "/hint")
        assert "Cube action" in cube[0].text
        assert cube[0].private_to == "anna"
        await bot_room.command("anna", "/roll")
    plays = await bot_room.command("anna", "/hint")
    assert plays[0].private_to == "anna"
    assert "Best plays for" in plays[0].text
    assert plays[0].text.count("\n") >= 1


async def test_two_people_play_the_bot_in_one_chat(bot_room: Room) -> None:
    await _started(bot_room, "anna", "/play 1")
    await _started(bot_room, "bert", "/play 1")
    first = await bot_room.match_of("anna")
    second = await bot_room.match_of("bert")
    assert first is not None
    assert second is not None
    assert first.info.id != second.info.id
    twice = await bot_room.command("anna", "/play 1")
    assert "already playing" in twice[0].text
