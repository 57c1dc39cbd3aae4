"""The dice check page of a chouette session: one client seed, every dice event in nonce order
with who rolled it (seating dice, each game's opening roll between its box and captain, each
roll), and in a real browser the same check as a match's."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from selenium.webdriver.chrome.webdriver import WebDriver

from bot.pages.check_data import CheckData, RecordedRoll
from bot.pages.pages import PageText, check_page
from gammon.fair_dice import FairDice
from tests.web.html_parts import parts
from tests.web.matches import with_die_changed
from tests.web.pages_in_browser import errors_logged, open_check

ENGLISH = PageText.for_locale("en")
HOSTILE = "<script>alert(1)</script>"
DICE = FairDice(hashlib.sha256(b"a chouette").digest(), "telegram:4711")
# Who rolled each dice event, in nonce order: three seating dice (Ann and Cy tie at nonce 0
# and 2, and roll again at 3 and 4), game 1's opening roll (Bob the box, Ann the captain) and
# two rolls, then game 2's opening roll (Ann the box, Cy the captain) and a roll.
EVENTS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (0, "seating", ("Ann",)),
    (0, "seating", ("Bob",)),
    (0, "seating", ("Cy",)),
    (0, "seating", ("Ann",)),
    (0, "seating", ("Cy",)),
    (1, "opening", ("Bob", "Ann")),
    (1, "roll", ("Bob",)),
    (1, "roll", ("Ann",)),
    (2, "opening", ("Ann", "Cy")),
    (2, "roll", ("Cy",)),
)


def session(names: tuple[str, ...] = ("Ann", "Bob", "Cy"), revealed: bool = True) -> CheckData:
    rolls = tuple(
        RecordedRoll(
            nonce=nonce,
            game=game,
            player=None,
            opening=kind == "opening",
            dice=DICE.roll(nonce),
            names=who,
            seating=kind == "seating",
        )
        for nonce, (game, kind, who) in enumerate(EVENTS)
    )
    return CheckData(
        match_number=7,
        names=names,
        variant="backgammon",
        length=0,
        commitment=DICE.commitment,
        client_seeds=(DICE.client_seed,),
        server_seed=DICE.server_seed.hex() if revealed else None,
        finished=revealed,
        rolls=rolls,
        chouette=True,
    )


def test_the_page_names_the_session_its_one_client_seed_and_each_roller() -> None:
    html = check_page(session(), ENGLISH).html
    found = parts(html)
    assert "Dice check of chouette 7" in found.text
    assert "\u2068Ann\u2069, \u2068Bob\u2069, \u2068Cy\u2069" in found.text  # each isolated
    assert "Client seed of the session" in found.text
    assert 'id="client-seed-0"' not in html
    block = json.loads(found.data["check-data"])
    assert block["clientSeed"] == "telegram:4711"
    assert [row[0] for row in block["rolls"]] == list(range(len(EVENTS)))
    for label in (
        "seating die of \u2068Ann\u2069",
        "opening roll: \u2068Bob\u2069, \u2068Ann\u2069",
        "opening roll: \u2068Ann\u2069, \u2068Cy\u2069",
    ):
        assert label in found.text
    assert "–" in found.text  # the seating dice belong to no game


def test_names_are_text_and_the_sealed_page_says_when_the_seed_comes() -> None:
    data = session()
    hostile = CheckData(
        **{
            **data.__dict__,
            "names": (HOSTILE, "Bob", "Cy"),
            "rolls": tuple(
                RecordedRoll(**{**roll.__dict__, "names": (HOSTILE,)}) if roll.seating else roll
                for roll in data.rolls
            ),
        }
    )
    html = check_page(hostile, ENGLISH).html
    assert HOSTILE not in html
    assert f"seating die of \u2068{HOSTILE}\u2069" in parts(html).text
    sealed = parts(check_page(session(revealed=False), ENGLISH).html)
    assert DICE.server_seed.hex() not in " ".join(sealed.text)
    assert (
        "The server seed is revealed when the session ends; then this page checks every roll."
        in sealed.text
    )


def test_a_session_checks_out_in_the_browser(browser: WebDriver, tmp_path: Path) -> None:
    result = open_check(browser, tmp_path, session(), ENGLISH)
    assert (result.status, result.summary) == (
        "ok",
        f"Every roll matches the seeds ({len(EVENTS)} checked).",
    )
    assert result.digest == DICE.commitment
    changed = open_check(browser, tmp_path, with_die_changed(session(), 2), ENGLISH)
    assert changed.status == "bad"
    assert [nonce for nonce, status, _dice in changed.rows if status == "bad"] == [2]
    assert errors_logged(browser) == []
