"""A match's double answered by typing /take, /drop or /beaver: the same as the buttons, and
refused for the same reasons, in the player's words."""

from __future__ import annotations

from bot.core.model import ChatRef
from gammon.flow import Phase
from storage import LoadedMatch
from tests.bot.scripted import PLATFORM, Room, headline

NAMES = ("anna", "bob")  # Anna challenges, so she is player 0


async def _doubled(room: Room, options: str = "3") -> tuple[LoadedMatch, str, str]:
    """Anna challenges Bob; whoever opens plays, the other doubles at the start of their turn.
    The doubled match, the doubled player and the doubler."""
    await room.command("anna", f"/challenge @bob {options}")
    await room.press("bob", "Accept")
    opened = await room.match_of("anna")
    assert opened is not None
    doubled, doubler = NAMES[opened.state.player_on_roll], NAMES[1 - opened.state.player_on_roll]
    await room.command(doubled, f"/move {opened.state.legal_plays()[0]}")
    board = await room.command(doubler, "/double")
    assert headline(board[-1]).startswith(f"{doubled.title()}, take or drop the double to 2?")
    loaded = await room.match_of("anna")
    assert loaded is not None
    assert loaded.state.phase is Phase.DOUBLED
    return loaded, doubled, doubler


async def test_a_double_is_taken_by_typing_take(room: Room) -> None:
    loaded, doubled, _doubler = await _doubled(room)
    await room.command(doubled, "/take")
    after = await room.stores.matches.load_match(loaded.info.id)
    assert after.state.phase is not Phase.DOUBLED
    assert (after.state.cube_value, after.state.cube_owner) == (2, NAMES.index(doubled))


async def test_a_double_is_dropped_by_typing_drop_and_the_game_ends(room: Room) -> None:
    loaded, doubled, doubler = await _doubled(room)
    answer = await room.command(doubled, "/drop")
    assert any(
        f"Game 1: {doubler.title()} wins 1 point (the double was dropped, cube 1)." in message.text
        for message in answer
    ), [message.text for message in answer]
    after = await room.stores.matches.load_match(loaded.info.id)
    assert after.state.score[NAMES.index(doubler)] == 1
    assert len(after.state.games) == 1


async def test_a_beaver_is_typed_at_a_money_table_that_plays_them(room: Room) -> None:
    loaded, doubled, _doubler = await _doubled(room, "money beaver")
    await room.command(doubled, "/beaver")
    after = await room.stores.matches.load_match(loaded.info.id)
    assert (after.state.cube_value, after.state.cube_owner) == (4, NAMES.index(doubled))


async def test_typed_answers_are_refused_with_the_rules_reason(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3")
    await room.press("bob", "Accept")
    opened = await room.match_of("anna")
    assert opened is not None
    nothing = await room.command(NAMES[opened.state.player_on_roll], "/take")
    assert [(message.text, message.private_to) for message in nothing] == [
        ("There is no double to answer.", NAMES[opened.state.player_on_roll])
    ]
    stranger = await room.command("carl", "/drop")
    assert stranger[0].text == "You have no match in this chat. Start one with /challenge."
    after = await room.stores.matches.load_match(opened.info.id)
    assert after.info.version == opened.info.version


async def test_only_the_doubled_player_answers_and_beavers_need_the_option(room: Room) -> None:
    loaded, doubled, doubler = await _doubled(room)
    own = await room.command(doubler, "/take")
    assert own[0].text == "Only the doubled player answers a double."
    assert own[0].private_to == doubler
    beaver = await room.command(doubled, "/beaver")
    assert beaver[0].text == "Beavers are not played in this match."
    after = await room.stores.matches.load_match(loaded.info.id)
    assert after.info.version == loaded.info.version
    assert after.state.phase is Phase.DOUBLED


async def test_take_typed_in_the_private_chat_answers_the_match_that_waits(room: Room) -> None:
    loaded, doubled, _doubler = await _doubled(room)
    private = Room(room.core, ChatRef(PLATFORM, f"@{doubled}", private=True), events=100)
    answer = await private.command(doubled, "/take")
    after = await room.stores.matches.load_match(loaded.info.id)
    assert after.state.cube_value == 2
    assert answer[-1].chat == private.chat
    assert answer[-1].text == f"Done in match {loaded.info.id}: the board is in the match's chat."
    assert any(message.chat == room.chat for message in answer)
