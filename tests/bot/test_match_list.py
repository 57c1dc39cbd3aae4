"""``/matches`` a page at a time: no page longer than a platform takes, each match on one
page, [◀] and [▶] turning the list's own message."""

from __future__ import annotations

import re

from bot.core.model import Frame, Message, Private
from bot.discord_app.posting import MAX_CONTENT, format_content
from bot.telegram_app.markup import html_text
from gammon.match_rules import MatchRules
from tests.bot.scripted import PLATFORM, Room
from tests.storage.players import create_match

# The longest name a player can have (64 characters), every character one that Discord's
# escaping doubles.
_LONG = "*_" * 32


async def _matches_of_anna(room: Room, count: int) -> list[int]:
    """Anna plays ``count`` matches, each in a chat of its own, against players with long
    names; their ids in order."""
    anna = await room.stores.users.upsert_user(PLATFORM, "anna", "Anna")
    ids = []
    for number in range(count):
        chat = await room.stores.chats.upsert_chat(PLATFORM, f"group-{number}")
        rival = await room.stores.users.upsert_user(PLATFORM, f"p{number}", _LONG)
        started = await create_match(
            room.stores.matches,
            chat_id=chat.id,
            player_ids=(anna.id, rival.id),
            rules=MatchRules(length=3),
            server_seed=bytes(32),
            client_seeds=("a", "b"),
            move_time_limit=86_400,
        )
        ids.append(started.info.id)
    return ids


def _listed(message: Message) -> list[int]:
    return [int(found) for found in re.findall(r"^Match (\d+) vs ", message.text, re.MULTILINE)]


def _labels(message: Message) -> list[str]:
    return [button.label for button in message.buttons]


def _fits_every_platform(message: Message) -> None:
    """The whole page goes out on Discord (2,000 characters, markdown escaped) and Telegram
    (4,096), nothing cut off."""
    discord = format_content(message)
    assert len(discord) <= MAX_CONTENT
    assert discord.count("\nMatch ") == len(_listed(message))
    assert not discord.endswith("…")
    assert len(html_text(message.text)) <= 4096


async def test_many_matches_are_listed_a_page_at_a_time(room: Room) -> None:
    ids = await _matches_of_anna(room, 25)
    [first] = await room.command("anna", "/matches")
    assert first.text.startswith("Your active matches, page 1 of 3:\n")
    assert first.private_to == "anna"
    assert _listed(first) == ids[:10]
    assert _labels(first) == ["▶"]
    _fits_every_platform(first)

    [second] = await room.press("anna", "▶")
    assert second.kind == Frame("anna")  # the list's own message turns to the page
    assert second.text.startswith("Your active matches, page 2 of 3:\n")
    assert _listed(second) == ids[10:20]
    assert _labels(second) == ["◀", "▶"]

    [third] = await room.command("anna", "/matches 3")
    assert _listed(third) == ids[20:]
    assert _labels(third) == ["◀"]
    _fits_every_platform(third)
    [back] = await room.press("anna", "◀")
    assert _listed(back) == ids[10:20]

    [beyond] = await room.command("anna", "/matches 99")  # the last page there is
    assert _listed(beyond) == ids[20:]


async def test_a_long_name_is_shortened_in_the_list(room: Room) -> None:
    await _matches_of_anna(room, 1)
    [listed] = await room.command("anna", "/matches")
    assert listed.text.startswith("Your active matches:\n")  # one page: no page number
    assert f"vs {_LONG[:23]}…: 0–0" in listed.text
    assert listed.buttons == ()


async def test_a_page_that_is_not_a_number_is_explained(room: Room) -> None:
    await _matches_of_anna(room, 11)
    for wrong in ("two", "#2", "-1", "²"):
        [refused] = await room.command("anna", f"/matches {wrong}")
        assert refused.text == "Which page? /matches alone shows the first, /matches 2 the second."
        assert refused.private_to == "anna"


async def test_only_the_lists_owner_turns_its_pages(room: Room) -> None:
    await _matches_of_anna(room, 11)
    await room.command("anna", "/matches")
    [refused] = await room.press("bob", "▶")
    assert refused.text == "This list belongs to someone else: /matches shows yours."
    assert refused.private_to == "bob"
    assert refused.kind == Private("bob")
