"""Replays in the chat: the animation at the end of each game, ``/replay`` and its step buttons,
who may see and step which replay, and links to the web pages or the check page as a file."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from bot.core.info.replays import ReplayFrames, frame_caption
from bot.core.model import ChatRef, Frame, Message, Public
from bot.core.service import Core
from bot.core.text.i18n import speech
from gammon.actions import Action, Move, OpeningRoll, Roll
from gammon.flow import apply, new_match
from gammon.match_rules import MatchRules
from gammon.position import Variant
from storage import Database
from tests.bot.scripted import PLATFORM, Room, headline, play_to_the_end
from tests.rendering.compare import moments
from tests.seeds import fixed_seeds

BASE = "https://gammon.example.org"


@pytest.fixture
async def database(migrated_url: str) -> AsyncIterator[Database]:
    opened = Database(migrated_url)
    yield opened
    await opened.close()


def _core(database: Database, *, pictures: bool, web: str | None = None) -> Core:
    return Core(database, render_images=pictures, server_seeds=fixed_seeds(), web_base_url=web)


@pytest.fixture
async def played(database: Database) -> Room:
    """A 1-point match between Anna and Bob played to the end, and the chat it was played in
    with a bot that draws pictures. The match is played by one that draws none: no test of
    the replay reads the boards of the match itself, and drawing them took seconds each time."""
    playing = Room(_core(database, pictures=False), ChatRef(PLATFORM, "group-1"))
    await playing.command("anna", "/challenge @bob 1")
    await playing.press("bob", "Accept")
    await play_to_the_end(playing, ("anna", "bob"), seed=3)
    return Room(_core(database, pictures=True), playing.chat, events=playing.events)


def _frames(gif: bytes) -> int:
    with Image.open(io.BytesIO(gif)) as image:
        assert image.format == "GIF"
        assert image.info.get("loop") == 0  # plays on and on, in both apps
    return len(moments(gif))


async def _moves(room: Room, match_id: int) -> list[Move]:
    return [
        action for action in await room.stores.matches.history(match_id) if isinstance(action, Move)
    ]


async def test_each_game_ends_with_its_animation(database: Database) -> None:
    room = Room(_core(database, pictures=True), ChatRef(PLATFORM, "group-1"))
    await room.command("anna", "/challenge @bob 3 nocube")
    await room.press("bob", "Accept")
    await play_to_the_end(room, ("anna", "bob"), seed=3)
    texts = [message.text for message in room.log]
    replays = [message for message in room.log if message.slot is None and message.animation]
    assert len(replays) >= 1
    for number, replay in enumerate(replays, start=1):
        # It says how the game ended (and the play that ended it) first, then which it is.
        said, which = replay.text.split("\n")
        assert re.search(rf"(^|\. )Game {number}: (Anna|Bob) wins \d+ points? \(", said), said
        assert which == f"Game {number} of match 1 (Anna vs Bob), play by play."
        assert replay.animation is not None
        assert _frames(replay.animation) > 1
    # The last game's replay is the end's picture: it ends on the final position.
    end = room.log[-1]
    assert headline(end).startswith("Match over")
    last = len(replays) + 1
    assert f"Game {last}: " in end.lead
    assert end.image is None
    assert end.animation is not None
    assert not any(text.startswith(f"Game {last} of match 1") for text in texts)
    moves = await _moves(room, 1)
    assert _frames(end.animation) < len(moves) + last  # one game, not the match
    assert len(end.animation) < 2_000_000


async def test_replay_steps_through_the_game_by_editing_its_board(played: Room) -> None:
    shown = await played.command("anna", "/replay")
    assert shown[0].animation is not None
    board = shown[1]
    assert [button.label for button in board.buttons] == ["⏮", "◀", "▶", "⏭"]
    assert board.image is not None
    assert board.kind == Public()
    first = board.text.splitlines()
    assert first[0].startswith("Replay of match 1, game 1: 1 of ")
    history = await played.core.ports.repositories.matches.history(1)
    opening = next(action for action in history if isinstance(action, OpeningRoll))
    dice = opening.dice
    if dice[0] == dice[1]:  # a tie rolls again: the replay shows the roll that decided
        opening = [action for action in history if isinstance(action, OpeningRoll)][-1]
        dice = opening.dice
    assert first[1].startswith(f"Opening roll: Anna {dice[0]}, Bob {dice[1]}.")
    count = int(first[0].rsplit(" ", 1)[1])

    step = await played.press("carol", "▶")  # anyone in the chat may step
    assert len(step) == 1
    assert step[0].kind == Frame()  # for everyone, in place of the pressed board
    line, caption = step[0].text.splitlines()
    assert line == f"Replay of match 1, game 1: 2 of {count}"
    move = (await _moves(played, 1))[0]
    assert caption.endswith(f"and played {move.play}.")
    assert caption.startswith(("Anna rolled", "Bob rolled"))

    last = await played.press("bob", "⏭")
    assert last[0].text.splitlines()[0] == f"Replay of match 1, game 1: {count} of {count}"
    assert "Game 1: " in last[0].text  # the last frame says how the game ended
    beyond = await played.press("bob", "▶")  # at the end, ▶ stays on the last frame
    assert beyond[0].text == last[0].text
    back = await played.press("bob", "⏮")
    assert back[0].text == board.text


async def test_replay_names_the_match_and_game_and_refuses_what_it_does_not_know(
    played: Room,
) -> None:
    explicit = await played.command("bob", "/replay 1 1")
    assert explicit[1].text.splitlines()[0].startswith("Replay of match 1, game 1: 1 of ")
    assert (await played.command("bob", "/replay #1 game 1"))[1].text == explicit[1].text
    missing = await played.command("bob", "/replay 1 2")
    assert missing[0].text == "Match 1 has no game 2: its games are 1 to 1."
    assert missing[0].private_to == "bob"
    unknown = await played.command("bob", "/replay 99")
    assert unknown[0].text == "I know no match 99 of this chat or of yours."
    garbage = await played.command("bob", "/replay next please")
    assert garbage[0].text.startswith("Which game? /replay shows")
    spectator = await played.command("dora", "/replay")  # the chat's last match
    assert spectator[1].text.splitlines()[0].startswith("Replay of match 1, game 1: 1 of ")
    empty = Room(played.core, ChatRef(PLATFORM, "group-3"))
    nothing = await empty.command("dora", "/replay")
    assert nothing[0].text == "There is no match in this chat yet."


async def test_another_chat_neither_sees_nor_steps_the_replay(played: Room) -> None:
    await played.command("anna", "/replay")
    token = next(button.token for button in played.log[-1].buttons if button.label == "▶")
    elsewhere = Room(played.core, ChatRef(PLATFORM, "group-2"))
    refused = await elsewhere.command("carol", "/replay 1")
    assert refused[0].text == "I know no match 1 of this chat or of yours."
    pressed = await elsewhere.send("carol", token=token)
    assert [message.text for message in pressed] == ["That button is out of date."]
    assert pressed[0].private_to == "carol"
    # A player of the match may replay it anywhere, e.g. in a private chat with the bot.
    private = Room(played.core, ChatRef(PLATFORM, "@anna", private=True))
    mine = await private.command("anna", "/replay 1")
    assert mine[1].text.startswith("Replay of match 1, game 1: 1 of ")


async def test_step_buttons_work_after_a_restart(played: Room, database: Database) -> None:
    await played.command("anna", "/replay")
    token = next(button.token for button in played.log[-1].buttons if button.label == "▶")
    restarted = Room(_core(database, pictures=False), ChatRef(PLATFORM, "group-1"))
    step = await restarted.send("bob", token=token)
    assert step[0].text.splitlines()[0].startswith("Replay of match 1, game 1: 2 of ")


def _texts(messages: list[Message]) -> str:
    return "\n".join(message.text for message in messages)


async def test_with_web_pages_the_messages_link_the_match_page(database: Database) -> None:
    core = _core(database, pictures=False, web=BASE)
    room = Room(core, ChatRef(PLATFORM, "group-1"))
    await room.command("anna", "/challenge @bob 1")
    started = await room.press("bob", "Accept")
    info = await core.ports.repositories.matches.match_info(1)
    assert len(info.slug) == 22
    assert f"The match's page: {BASE}/m/{info.slug}" in _texts(started)
    # The dice's details: /verify, or the check page, which shows the seeds already.
    check = f"{BASE}/m/{info.slug}/verify"
    assert f"commitment {info.dice_commitment[:12]}… (details: /verify or {check})" in (
        started[0].text
    )
    active = await room.command("anna", "/verify")
    assert f"Dice check in your browser: {check}" in active[0].text
    await play_to_the_end(room, ("anna", "bob"), seed=5)
    end = next(message for message in room.log if headline(message).startswith("Match over"))
    assert f"Replay: {BASE}/m/{info.slug}/replay" in end.text
    assert f"Check the dice in your browser: {BASE}/m/{info.slug}/verify." in end.text
    assert not any(file.filename.endswith(".html") for file in end.attachments)


async def test_without_web_pages_the_check_page_comes_as_a_file(database: Database) -> None:
    core = _core(database, pictures=False)
    room = Room(core, ChatRef(PLATFORM, "group-1"))
    await room.command("anna", "/challenge @bob 1")
    started = await room.press("bob", "Accept")
    assert "/m/" not in _texts(started)
    await play_to_the_end(room, ("anna", "bob"), seed=5)
    end = next(message for message in room.log if headline(message).startswith("Match over"))
    names = [file.filename for file in end.attachments]
    assert names == ["match-1-transcript.json", "match-1-check.html", "match-1.mat"]
    page = end.attachments[1].data.decode()
    seed = (await core.ports.repositories.dice.reveal_seed(1)).hex()
    assert seed in page
    assert "<script" in page
    asked = await room.command("bob", "/verify")
    assert [file.filename for file in asked[0].attachments] == [
        "match-1-transcript.json",
        "match-1-check.html",
    ]
    german = await room.command("bob", "/verify", locale="de")
    assert 'lang="de"' in german[0].attachments[1].data.decode()


async def test_every_frame_of_a_long_nardy_match_has_its_sentence(database: Database) -> None:
    """Long nardy's later games start without a lot: the starter is named from the log."""
    room = Room(_core(database, pictures=False), ChatRef(PLATFORM, "group-1"))
    await room.command("anna", "/challenge @bob 3 nardy")
    await room.press("bob", "Accept")
    await play_to_the_end(room, ("anna", "bob"), seed=2)
    info = await room.stores.matches.match_info(1)
    games = await ReplayFrames(room.stores.matches).games(info)
    assert len(games) >= 2
    _ = speech("en")
    for game in games:
        for frame in game.frames:
            assert frame_caption(_, frame, ["Anna", "Bob"]), (game.number, frame.kind)
    history = await room.stores.matches.history(1)
    first_game = games[0].result
    assert first_game is not None
    # The first roll after game 1 ended is the second game's starter's.
    ended_at = _index_after_game(history, 1)
    starter = next(action for action in history[ended_at:] if isinstance(action, Roll)).player
    second = frame_caption(_, games[1].frames[0], ["Anna", "Bob"])
    assert second == f"Game 2: {['Anna', 'Bob'][starter]} starts."
    lot = frame_caption(_, games[0].frames[0], ["Anna", "Bob"])
    assert lot.startswith("The lot: Anna ")


def _index_after_game(history: tuple[Action, ...], games: int) -> int:
    """The index of the first action after ``games`` games have ended (replayed by the rules)."""
    state = new_match(MatchRules(length=3, variant=Variant.LONG_NARDY))
    for index, action in enumerate(history):
        state = apply(state, action)
        if len(state.games) == games:
            return index + 1
    raise AssertionError("the game never ended")
