"""/rules tournament: the formats gammonbot runs, in the reader's chat language, found by its
topic, its aliases and its title in each language."""

from __future__ import annotations

from tests.bot.scripted import Room


async def test_rules_tournament_explains_every_format(room: Room) -> None:
    answer = await room.command("anna", "/rules tournament")
    title, chapter = answer[0].text.split("\n", 1)
    assert title == "Tournaments"
    assert answer[0].board is None
    for rule in (
        "/tournament new",
        "with the option random, by the dice",
        "are byes for the top seeds",
        "seeds 1 and 2 can meet only in the final",
        "The progressive consolation (from eight players)",
        "the last chance takes the consolation's early losers",
        "the losers' bracket winner must beat the winners' bracket winner twice",
        "then the matches among the players still level, then seed",
        "with playoff the group winners play a knockout",
        "no rematch while one can be avoided",
        "nobody has a second bye before everyone has had one",
        "then Buchholz (the points of every opponent met)",
        "go up one division and the last go down one",
        "loses every match still to play by walkover (the match's length to nothing)",
    ):
        assert rule in chapter, rule


async def test_rules_tournament_in_the_chat_language_by_its_alias_or_title(room: Room) -> None:
    await room.command("anna", "/defaults language de", admin=True)
    by_alias = await room.command("anna", "/rules turnier")
    by_title = await room.command("anna", "/rules Turniere")
    assert by_alias[0].text == by_title[0].text
    title, chapter = by_alias[0].text.split("\n", 1)
    assert title == "Turniere"
    for rule in ("Freilose", "Trostrunde", "Doppel-K.-o.", "Schweizer System", "kampflos"):
        assert rule in chapter, rule
