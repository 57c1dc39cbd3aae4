"""/tournament's picture: drawn when pictures are on, with the text as its caption; none when
they are off; and what it shows of a bracket (seeds, byes, winners and scores, round names)."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from bot.core.model import ChatRef, Message
from bot.core.service import Core
from bot.core.text.i18n import speech
from bot.core.tournament.picture import PictureOf
from bot.core.tournament.settings import Kind
from gammon.tournament import DoubleElimination, Result, RoundRobin, Swiss
from rendering import BracketMatch, Entry
from storage import Database
from tests.bot.scripted import PLATFORM, Room
from tests.seeds import fixed_seeds


@pytest.fixture
async def drawing_room(migrated_url: str) -> AsyncIterator[Room]:
    """A group chat with a bot that draws pictures."""
    database = Database(migrated_url)
    core = Core(database, render_images=True, server_seeds=fixed_seeds())
    yield Room(core, ChatRef(PLATFORM, "group-1"))
    await database.close()


async def _started(room: Room) -> None:
    await room.command("ann", '/tournament new single 1 "Club cup"', admin=True)
    for player in ("bob", "cy", "dee"):
        await room.command(player, "/tournament join")
    await room.command("ann", "/tournament start")


def _only(answer: list[Message]) -> Message:
    (message,) = answer
    return message


async def test_the_state_of_a_tournament_comes_with_its_picture(drawing_room: Room) -> None:
    await _started(drawing_room)
    shown = _only(await drawing_room.command("bob", "/tournament"))
    assert "semifinal 1: Ann vs Dee" in shown.text  # the text is the picture's caption
    assert shown.image is not None
    picture = Image.open(io.BytesIO(shown.image))
    assert picture.format == "PNG"
    assert picture.width >= 540


async def test_without_pictures_the_state_is_text_only(room: Room) -> None:
    await _started(room)
    shown = _only(await room.command("bob", "/tournament"))
    assert "semifinal 1: Ann vs Dee" in shown.text
    assert shown.image is None


NAMES = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee", 5: "Eve", 6: "Fay"}


def test_a_double_elimination_shows_byes_seeds_winners_and_scores() -> None:
    players = [1, 2, 3, 4, 5, 6]
    results = {"winners-1-2": Result(5, 4, 5, 2)}
    view = DoubleElimination().view(players, results)
    picture = PictureOf(speech("en"), players, NAMES, results).picture("Cup", Kind.DOUBLE, view)
    assert [part.heading for part in picture.brackets] == [
        "Winners' bracket",
        "Losers' bracket",
        "Grand final",
    ]
    winners = picture.brackets[0]
    assert [r.title for r in winners.rounds] == ["Quarterfinals", "Semifinals", "Final"]
    first_round = winners.rounds[0].matches
    assert first_round[0] == BracketMatch(Entry("Ann", 1), Entry(), bye=True)
    assert first_round[1] == BracketMatch(Entry("Dee", 4, "2"), Entry("Eve", 5, "5", winner=True))
    assert winners.rounds[1].matches[0] == BracketMatch(Entry("Ann", 1), Entry("Eve", 5))
    assert [r.title for r in picture.brackets[1].rounds] == [
        "Round 1",
        "Round 2",
        "Round 3",
        "Round 4",
    ]
    assert picture.tables == ()


def test_groups_and_swiss_standings_are_tables() -> None:
    players = [1, 2, 3, 4, 5, 6]
    groups = PictureOf(speech("en"), players, NAMES, {}).picture(
        "League", Kind.ROUND_ROBIN, RoundRobin(3).view(players, {})
    )
    assert [table.heading for table in groups.tables] == ["Group 1", "Group 2"]
    assert [line.name for line in groups.tables[0].lines] == ["Ann", "Dee", "Eve"]
    assert not groups.tables[0].buchholz
    results = {"swiss-1-1": Result(1, 2, 3, 1)}
    swiss = PictureOf(speech("en"), players, NAMES, results).picture(
        "Open", Kind.SWISS, Swiss(3).view(players, results)
    )
    (table,) = swiss.tables
    assert table.heading == "Standings"
    assert table.buchholz
    ann = table.lines[0]
    assert (ann.name, ann.played, ann.won_lost, ann.points, ann.difference) == (
        "Ann",
        "1",
        "1–0",
        "1",
        "+2",
    )
