"""A whole chouette over the wire: ``/chouette`` with its options to open, join and start a
table in the channel, the box and the captain playing with the buttons and ``/move``, two
members doubling the box with [Double the box] and the box dropping both with its buttons;
the settlement and the next game's order are posted, a stranger's click is refused
ephemerally, and ``/chouette action:end`` reveals the seed."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from datetime import timedelta
from typing import Any

from bot.core.tokens import Token, format_token
from bot.discord_app.buttons import TOKEN_TEMPLATE
from gammon.chouette import ChouetteGame
from gammon.fair_dice import verify_transcript
from gammon.flow import Phase
from storage import LoadedChouette
from tests.discord_app.conftest import ANNA, BOB, CARL, NAMES, Bot, content, is_callback
from tests.fakes.discord_server import CHANNEL_ID, Interaction

DORA = 700000000000000004  # not at the table


async def _done(bot: Bot, sent: Interaction, mark: int) -> None:
    """Wait until the bot acknowledged the interaction and finished answering it."""
    await bot.fake.wait_for(lambda call: is_callback(call, sent.id), after=mark)
    for _tick in range(1000):
        if not bot.adapter._answering:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the interaction was never answered")


async def _slash(bot: Bot, user: int, name: str, **options: Any) -> str:
    """The command with its options; what the bot wrote, publicly or privately, since."""
    kinds = {str: 3, bool: 5}
    sent_options = [
        {"name": key, "type": kinds[type(value)], "value": value} for key, value in options.items()
    ]
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(user, name, sent_options)
    await _done(bot, sent, mark)
    return _written(bot, mark)


def _written(bot: Bot, mark: int) -> str:
    return "\n".join(
        str(call.json.get("content") or "")
        for call in bot.fake.calls[mark:]
        if isinstance(call.json, dict)
    )


def _button(bot: Bot, label: str, *, ephemeral: bool = False) -> tuple[int, str]:
    """The newest channel message with a button so labelled (a public one, or with
    ``ephemeral`` one only its user sees): its id and the custom id."""
    for message_id in sorted(bot.fake.messages, reverse=True):
        message = bot.fake.messages[message_id]
        if ephemeral != bool(message["flags"] & 64):
            continue
        if not ephemeral and int(message["channel_id"]) != CHANNEL_ID:
            continue
        for row in message.get("components", []):
            for component in row["components"]:
                if component.get("label") == label:
                    return message_id, component["custom_id"]
    raise AssertionError(f"no [{label}] button in the channel")


async def _click(bot: Bot, user: int, label: str, *, ephemeral: bool = False) -> str:
    message_id, custom_id = _button(bot, label, ephemeral=ephemeral)
    mark = len(bot.fake.calls)
    sent = await bot.fake.click(user, message_id, custom_id)
    await _done(bot, sent, mark)
    return _written(bot, mark)


async def _current(bot: Bot) -> LoadedChouette:
    chat = await bot.stores.chats.find_chat("discord", str(CHANNEL_ID))
    assert chat is not None
    loaded = await bot.stores.chouettes.active_for_chat(chat.id)
    assert loaded is not None
    return loaded


async def _senders(bot: Bot) -> dict[str, int]:
    """The Discord user of each of the rules' player ids."""
    found = {}
    for person in (ANNA, BOB, CARL):
        known = await bot.stores.users.find_user("discord", str(person))
        assert known is not None
        found[str(known.id)] = person
    return found


async def _three_started(bot: Bot) -> tuple[dict[str, int], list[int]]:
    """Anna opens a table, Bob and Carl join, Carl starts it: the senders, and the Discord
    users in the table's order (box, captain, third)."""
    await _slash(bot, ANNA, "chouette")
    await _slash(bot, BOB, "chouette", action="join")
    await _slash(bot, CARL, "chouette", action="join")
    await _slash(bot, CARL, "chouette", action="start")
    senders = await _senders(bot)
    return senders, [senders[str(seat)] for seat in (await _current(bot)).info.seats]


async def _play_until_the_team_rolls(
    bot: Bot, senders: dict[str, int], side: int = 1
) -> ChouetteGame:
    """[Roll] clicked and the first legal play sent with /move, by the box and the captain in
    turn, until the team (``side`` 1; 0: the box) is at the start of its turn."""
    for _step in range(200):
        loaded = await _current(bot)
        game = loaded.game
        assert game is not None
        assert not game.finished
        board = game.board
        mover = senders[game.table.box if board.player_on_roll == 0 else game.acting_captain or ""]
        if board.phase is Phase.ROLLING:
            if board.player_on_roll == side:
                return game
            await _click(bot, mover, "Roll")
        elif board.phase is Phase.MOVING:
            await _slash(bot, mover, "move", play=str(board.legal_plays()[0]))
        else:
            raise AssertionError(board.phase)
        after = await _current(bot)
        assert after.info.version > loaded.info.version, "the step was ignored"
    raise AssertionError("the team never rolled")


async def test_a_chouette_is_played_in_the_channel_to_the_seed_reveal(bot: Bot) -> None:
    bot.fake.add_user(DORA, "Dora")
    opened = await _slash(bot, ANNA, "chouette", advice="team")
    assert "Anna opens a chouette table (the team may advise the captain)" in opened
    commitment = re.search(r"Dice commitment: ([0-9a-f]{64})", opened)
    assert commitment
    assert "Bob sits down at the chouette." in await _slash(bot, BOB, "chouette", action="join")
    await _slash(bot, CARL, "chouette", action="join")
    started = await _slash(bot, CARL, "chouette", action="start")
    assert "Seating dice" in started
    assert "Opening roll" in started
    assert "Chouette, game 1" in started

    senders = await _senders(bot)
    loaded = await _current(bot)
    box, captain, third = (senders[str(seat)] for seat in loaded.info.seats)
    b, c, t = NAMES[box], NAMES[captain], NAMES[third]
    await _play_until_the_team_rolls(bot, senders)

    # A stranger's click: refused ephemerally, nothing changes.
    before = (await _current(bot)).info.version
    mark = len(bot.fake.calls)
    message_id, custom_id = _button(bot, "Roll")
    sent = await bot.fake.click(DORA, message_id, custom_id)
    await _done(bot, sent, mark)
    refusal = await bot.next_private(mark, "You do not sit at this chouette")
    assert isinstance(refusal.json, dict)
    assert refusal.json["flags"] & 64
    assert not any(
        call.method == "POST" and call.path == f"/channels/{CHANNEL_ID}/messages"
        for call in bot.fake.calls[mark:]
    )
    assert (await _current(bot)).info.version == before

    # Both members double the box with its button; the box drops both with its buttons.
    assert f"{c} doubles the box to 2." in await _click(bot, captain, "Double the box")
    await _click(bot, third, "Double the box")
    await _click(bot, box, f"Drop {c}")
    settled = await _click(bot, box, f"Drop {t}")
    assert f"{b} (box) drops {t}'s double and pays 1." in settled
    assert f"This game: {b} −2, {c} +1, {t} +1" in settled
    # The captain won: the captain is the box, the old box goes to the end of the line.
    assert f"Game 2: Box: {c} · captain: {t} · then: {b}" in settled
    after = await _current(bot)
    assert after.info.game_number == 2
    assert [senders[str(seat)] for seat in after.info.seats] == [captain, third, box]

    refused = await _slash(bot, BOB, "chouette", action="end")
    assert "Only the host" in refused
    asked = await _slash(bot, ANNA, "chouette", action="end")  # game 2 is being played
    assert "End the session?" in asked
    ended = await _click(bot, ANNA, "End the session", ephemeral=True)
    assert "The chouette is over. Games played: 1." in ended
    seed = re.search(r"server seed ([0-9a-f]+)", ended)
    assert seed
    assert hashlib.sha256(bytes.fromhex(seed.group(1))).hexdigest() == commitment.group(1)


def test_every_kind_of_token_fits_the_button_template() -> None:
    """discord.py refuses a button whose custom id does not match the template: a chouette's
    token (kind ``h``) included, and a tournament's registration and pairing (``t``, ``p``:
    once refused, so no tournament could be opened on Discord)."""
    for kind in "mcurhtp":
        token = format_token(Token("roll", kind, 123, 4))
        assert re.fullmatch(TOKEN_TEMPLATE, token), token


async def test_the_box_answers_with_the_member_option_of_the_slash_commands(bot: Bot) -> None:
    senders, (box, captain, third) = await _three_started(bot)
    b, c, t = NAMES[box], NAMES[captain], NAMES[third]
    await _play_until_the_team_rolls(bot, senders)
    await _click(bot, captain, "Double the box")
    await _click(bot, third, "Double the box")

    mark = len(bot.fake.calls)
    await _slash(bot, box, "take")  # two doubles wait: refused, privately, naming both
    refusal = await bot.next_private(mark, "Several doubles wait for you")
    assert (
        content(refusal) == f"Several doubles wait for you: {c}, {t}. Answer one with /take NAME."
    )
    assert refusal.method == "PATCH"  # in place of the "thinking…" placeholder

    # member:@captain, as Discord sends a user option: the id and the resolved user.
    user = {"id": str(captain), "username": c.lower(), "discriminator": "0", "avatar": None}
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(
        box,
        "take",
        [{"name": "member", "type": 6, "value": str(captain)}],
        resolved={"users": {str(captain): user}},
    )
    await _done(bot, sent, mark)
    assert f"{b} (box) takes {c}'s double: that cube is at 2." in _written(bot, mark)
    # One double waits now: the bare command answers it.
    assert f"{b} (box) drops {t}'s double and pays 1." in await _slash(bot, box, "drop")
    game = (await _current(bot)).game
    assert game is not None
    assert [(cube.value, cube.live) for cube in game.cubes] == [(2, True), (1, False)]


async def test_the_box_doubles_one_member_with_the_member_option_of_double(bot: Bot) -> None:
    senders, (box, captain, _third) = await _three_started(bot)
    await _play_until_the_team_rolls(bot, senders, side=0)
    user = {"id": str(captain), "username": NAMES[captain].lower(), "discriminator": "0"}
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(
        box,
        "double",
        [{"name": "member", "type": 6, "value": str(captain)}],
        resolved={"users": {str(captain): user | {"avatar": None}}},
    )
    await _done(bot, sent, mark)
    assert f"{NAMES[box]} (box) doubles {NAMES[captain]}." in _written(bot, mark)
    game = (await _current(bot)).game
    assert game is not None
    assert [senders[cube.member] for cube in game.pending] == [captain]


def _dms(bot: Bot) -> list[tuple[int, str]]:
    """The DMs the bot has sent: to whom, and what they say."""
    return [
        (bot.fake.dm_channels[int(call.path.split("/")[2])], str(call.json.get("content", "")))
        for call in bot.fake.calls
        if call.method == "POST"
        and call.path.startswith("/channels/")
        and int(call.path.split("/")[2]) in bot.fake.dm_channels
        and isinstance(call.json, dict)
    ]


async def _roll_and_play(bot: Bot, user: int) -> None:
    """``user`` clicks [Roll] and, when the roll can be played, plays the first legal play."""
    await _click(bot, user, "Roll")
    game = (await _current(bot)).game
    assert game is not None
    if game.board.phase is Phase.MOVING:
        await _slash(bot, user, "move", play=str(game.board.legal_plays()[0]))


async def test_only_a_player_away_from_the_table_gets_a_dm(bot: Bot) -> None:
    await _slash(bot, ANNA, "chouette", advice="team")
    await _slash(bot, BOB, "chouette", action="join")
    await _slash(bot, CARL, "chouette", action="join")
    await _slash(bot, CARL, "chouette", action="start")
    senders = await _senders(bot)
    game = await _play_until_the_team_rolls(bot, senders)
    assert _dms(bot) == []  # everyone played on at once: nobody was away
    box, captain = senders[game.table.box], senders[game.acting_captain or ""]

    # Eleven minutes later the captain rolls and plays: the box has not acted since.
    later = bot.core.clock() + timedelta(minutes=11)
    bot.core.clock = lambda: later
    await _roll_and_play(bot, captain)
    dms = _dms(bot)
    assert [user for user, _text in dms] == [box]
    chouette_id = (await _current(bot)).info.id
    assert dms[0][1].startswith(f"The chouette #c{chouette_id} waits for you. {NAMES[box]}")
    assert f"/{CHANNEL_ID}/" in dms[0][1]  # the link to the board in the channel

    # The box answers at once: the captain, who has just played, gets no DM.
    await _roll_and_play(bot, box)
    assert [user for user, _text in _dms(bot)] == [box]


async def test_ending_during_a_game_asks_first_and_sends_the_dice_files(bot: Bot) -> None:
    """The board says what was just played; the host's end during a game asks first, with
    buttons on a message only the host sees; the end posts the transcript and the check
    page, and /verify afterwards gives them again, privately."""
    _senders_by_id, (box, captain, _third) = await _three_started(bot)
    board = next(
        str(call.json.get("content"))
        for call in reversed(bot.fake.calls)
        if isinstance(call.json, dict) and "Chouette, game 1" in str(call.json.get("content"))
    )
    lines = board.splitlines()
    started = lines[lines.index("Chouette, game 1") + 1]
    assert started in (
        f"{NAMES[box]} (box) starts with {started.split()[-1]}",
        f"{NAMES[captain]} (captain) starts with {started.split()[-1]}",
    )
    assert lines[-1].startswith("Position ID: 4HPwATDgc/ABMA · Match ID: ")

    asked = await _slash(bot, ANNA, "chouette", action="end")
    assert asked.strip().startswith("Game 1 is being played.")
    message_id, _custom_id = _button(bot, "End the session", ephemeral=True)
    assert bot.fake.messages[message_id]["flags"] & 64  # only the host sees the question
    mark = len(bot.fake.calls)
    ended = await _click(bot, ANNA, "End the session", ephemeral=True)
    assert "Game 1 was abandoned: it scores no points." in ended
    files = {name: data for call in bot.fake.calls[mark:] for name, data in call.files.items()}
    assert sorted(files) == ["chouette-1-check.html", "chouette-1-transcript.json"]
    assert verify_transcript(json.loads(files["chouette-1-transcript.json"])).ok

    mark = len(bot.fake.calls)
    await _slash(bot, BOB, "verify")
    private = await bot.next_private(mark, "The dice of chouette #c1.")
    assert sorted(private.files) == ["chouette-1-check.html", "chouette-1-transcript.json"]
