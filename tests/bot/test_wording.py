"""What players read, worded as players say it: English articles before match lengths, the
settings' labels, the doubles in /stats, the Russian, Ukrainian and Bulgarian roll buttons and
headlines, and an unrated match's start."""

from __future__ import annotations

import pytest

from bot.core.info.standings import StatisticsText
from bot.core.text.i18n import speech
from bot.core.text.texts import rules_summary, turn_headline
from gammon.actions import Move, OpeningRoll
from gammon.flow import MatchState, Phase, replay
from gammon.match_rules import MatchRules
from gammon.rating import Standing
from storage import UserRecord
from storage.player_results import Statistics
from tests.bot.scripted import Room

ENGLISH = speech("en")


@pytest.mark.parametrize(
    ("length", "wanted"),
    [
        (1, "a 1-point match"),
        (3, "a 3-point match"),
        (7, "a 7-point match"),
        (8, "an 8-point match"),
        (11, "an 11-point match"),
        (17, "a 17-point match"),
        (18, "an 18-point match"),
        (25, "a 25-point match"),
    ],
)
def test_a_match_length_gets_the_article_english_says_before_it(length: int, wanted: str) -> None:
    summary = rules_summary(ENGLISH, MatchRules(length=length), None, article=True)
    assert summary == f"{wanted} of backgammon (no time limit)"


async def test_a_challenge_to_an_eleven_point_match(room: Room) -> None:
    offer = await room.command("anna", "/challenge @bob 11")
    assert offer[0].text.startswith("Anna challenges Bob to an 11-point match of backgammon (")
    open_offer = await room.command("carl", "/challenge money")
    assert open_offer[0].text.startswith("Carl offers a money game of backgammon (")


async def test_the_settings_say_auto_roll_and_auto_play(room: Room) -> None:
    shown = await room.command("anna", "/settings")
    labels = [button.label for button in shown[0].buttons]
    assert labels[:2] == ["Auto-roll when I cannot double: on", "Auto-play forced moves: on"]


def test_the_statistics_count_doubles_without_a_plural_to_get_wrong() -> None:
    stats = Statistics(matches_won=1, doubles_offered=1, doubles_taken=2, doubles_dropped=0)
    anna = UserRecord(1, "console", "anna", "Anna", "en")
    text = StatisticsText("en").text(anna, "backgammon", Standing(), None, stats, stats)
    assert "  Doubles offered: 1; taken: 2; dropped: 0" in text.splitlines()


async def test_an_unrated_match_says_so_when_it_starts(room: Room) -> None:
    await room.command("anna", "/challenge @bob 3 unrated hints")
    started = await room.press("bob", "Accept")
    start = started[0].text
    assert start.startswith("Match 1: Anna vs Bob, 3-point match of backgammon (")
    assert "), hints allowed, unrated.\nFair dice, commitment" in start


def _rolling() -> tuple[list[str], MatchState]:
    """Anna opened with 3-1 and made her 5 point: Dima is to roll (or double)."""
    state = replay(MatchRules(length=5), [OpeningRoll((3, 1)), Move(0, "8/5 6/5")])
    assert state.phase is Phase.ROLLING
    return ["anna", "dima"], state


@pytest.mark.parametrize(
    ("locale", "button", "headline"),
    [
        # "Бросить" alone reads "give up, throw away"; players say "бросок" for a roll.
        ("ru", "Бросок", "dima, твой бросок."),
        # "Кинути" alone reads "abandon"; "кидок" is the roll.
        ("uk", "Кидок", "dima, твій кидок."),
        ("bg", "Хвърли заровете", "dima, хвърляй заровете."),
    ],
)
def test_the_roll_button_and_headline_say_it_is_that_players_roll(
    locale: str, button: str, headline: str
) -> None:
    said = speech(locale)
    names, state = _rolling()
    assert said("Roll") == button
    assert turn_headline(said, state, names, bot_to_act=False) == headline


def test_german_says_who_is_on_roll_and_calls_the_cube_doppler() -> None:
    """ "dima würfelt" read as "dima is rolling"; "Würfel" alone is a die, not the cube."""
    german = speech("de")
    names, state = _rolling()
    assert turn_headline(german, state, names, bot_to_act=False) == "dima ist am Wurf."
    summary = rules_summary(german, MatchRules(length=5, cube=False), None)
    assert summary == "Match bis 5 Punkte, Backgammon (ohne Doppler, ohne Zeitlimit)"


@pytest.mark.parametrize(
    ("locale", "box", "captain"),
    [
        ("ru", "Ann (бокс), твой бросок.", "Cy, бросок за команду."),
        ("uk", "Ann (бокс), твій кидок.", "Cy, кидок за команду."),
        ("bg", "Ann (бокс), хвърляй заровете.", "Cy, хвърляй заровете за отбора."),
    ],
)
def test_the_chouette_headlines_say_whose_roll_it_is(locale: str, box: str, captain: str) -> None:
    """As a match's: "Ann (бокс) бросает кости" read as Ann rolling now, not Ann to roll."""
    said = speech(locale)
    assert said("{box} (box) to roll.").format(box="Ann") == box
    assert said("{captain} to roll for the team.").format(captain="Cy") == captain
