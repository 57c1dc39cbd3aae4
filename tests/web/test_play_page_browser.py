"""The board page in a real browser against a stand-in server (tests/web/play_site.py): taps
make a play, Done sends it with the key, spectators get no controls, refusals show, the live
stream redraws the board, the page fits a phone and the keyboard plays too."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from bot.pages.pages import PageText
from tests.web.pages_in_browser import errors_logged
from tests.web.play_site import (
    INIT_DATA,
    REFUSED,
    PlaySite,
    after_alice_played,
    opening_state,
    serving,
)

CONTROLS = ("roll", "double", "take", "drop", "beaver", "undo", "done", "accept", "reject")


@contextmanager
def _served(browser: WebDriver, state: dict[str, Any]) -> Iterator[PlaySite]:
    """The stand-in server with ``state``; at the end the browser leaves the page first (its
    stream would complain of the closed server to the next test's console log)."""
    with serving(PlaySite(state, PageText.for_locale("en"))) as running:
        try:
            yield running
        finally:
            browser.get("about:blank")
    errors_logged(browser)


@pytest.fixture
def site(browser: WebDriver) -> Iterator[PlaySite]:
    with _served(browser, opening_state()) as running:
        yield running


def _wait(browser: WebDriver, script: str, timeout: float = 5) -> Any:
    """Wait until ``script`` (a JS expression) is truthy; its value."""
    return WebDriverWait(browser, timeout, poll_frequency=0.05).until(
        lambda driver: driver.execute_script(f"return {script};")
    )


def _go(browser: WebDriver, url: str) -> None:
    errors_logged(browser)  # what earlier pages logged (a refusal is a console error) is theirs
    browser.get(url)


def _open_as_alice(browser: WebDriver, site: PlaySite) -> None:
    _go(browser, f"{site.url}#key=k")
    _wait(browser, "document.getElementById('seat').textContent === 'You play \u2068alice\u2069.'")


def _tap(browser: WebDriver, point: int) -> None:
    browser.find_element("css selector", f'#board [data-point="{point}"]').click()


def _destinations(browser: WebDriver) -> list[int]:
    found = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board [data-dest]'), (cell) =>"
        " Number(cell.dataset.dest));"
    )
    return sorted(int(value) for value in found)


def _checkers(browser: WebDriver, point: int) -> int:
    return int(
        browser.execute_script(
            f"return document.querySelectorAll('#board [data-point=\"{point}\"] .checker').length;"
        )
    )


def _visible(browser: WebDriver, ids: tuple[str, ...]) -> list[str]:
    return [name for name in ids if browser.find_element("id", name).is_displayed()]


def test_taps_make_a_play_and_done_sends_it_with_the_key(
    browser: WebDriver, site: PlaySite
) -> None:
    _open_as_alice(browser, site)
    assert _visible(browser, CONTROLS) == ["undo", "done"]
    done = browser.find_element("id", "done")
    assert not done.is_enabled()
    _tap(browser, 8)
    assert _destinations(browser) == [5]
    _tap(browser, 5)
    assert (_checkers(browser, 8), _checkers(browser, 5)) == (2, 1)
    assert not done.is_enabled()  # one step of two
    _tap(browser, 6)
    assert _destinations(browser) == [5]
    _tap(browser, 5)
    assert (_checkers(browser, 6), _checkers(browser, 5)) == (4, 2)
    assert done.is_enabled()
    assert browser.find_element("id", "pips-0").text == "Pips: 163"
    done.click()
    WebDriverWait(browser, 5, poll_frequency=0.05).until(lambda driver: site.acts)
    authorization, body = site.acts[0]
    assert authorization == "Bearer signed-k"
    assert body["action"] == "play"
    assert body["play"] == "8/5 6/5"
    assert body["version"] == 40
    assert len(body["id"]) == 22
    assert set(body["id"]) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    )
    assert errors_logged(browser) == []


def test_undo_steps_back_within_the_turn(browser: WebDriver, site: PlaySite) -> None:
    _open_as_alice(browser, site)
    undo = browser.find_element("id", "undo")
    assert not undo.is_enabled()
    _tap(browser, 24)
    _tap(browser, 23)
    _tap(browser, 13)
    _tap(browser, 10)
    assert browser.find_element("id", "done").is_enabled()
    undo.click()
    assert (_checkers(browser, 13), _checkers(browser, 10)) == (5, 0)
    assert not browser.find_element("id", "done").is_enabled()
    ActionChains(browser).send_keys("u").perform()  # the key U does the same
    assert (_checkers(browser, 24), _checkers(browser, 23)) == (2, 0)
    assert not undo.is_enabled()
    _tap(browser, 6)  # a fresh start: 6/5 then 8/5, the other order of the same play
    _tap(browser, 5)
    _tap(browser, 8)
    _tap(browser, 5)
    browser.find_element("id", "done").click()
    WebDriverWait(browser, 5, poll_frequency=0.05).until(lambda driver: site.acts)
    assert site.acts[0][1]["play"] == "8/5 6/5"


def test_a_spectator_sees_the_board_and_no_controls(browser: WebDriver, site: PlaySite) -> None:
    _go(browser, site.url)
    _wait(browser, "document.getElementById('seat').textContent === 'You are watching.'")
    assert _visible(browser, (*CONTROLS, "resign")) == []
    assert _checkers(browser, 8) == 3
    _tap(browser, 8)
    assert _destinations(browser) == []
    assert browser.find_element("id", "clock-1").text == "0:55"
    assert (
        browser.find_element("id", "score").text == "Score: \u2068alice\u2069 0 – 1 \u2068bob\u2069"
    )
    assert site.acts == []
    leaked = browser.execute_script(  # the script's names stay inside its one function
        "return [typeof play, typeof picked, typeof key, typeof path, typeof draw, typeof act,"
        " typeof TEXTS, typeof buttons]"  # not state, seat: ids, so names of window
    )
    assert leaked == ["undefined"] * 8


def test_a_refused_key_shows_why_and_leaves_a_spectator(browser: WebDriver, site: PlaySite) -> None:
    _go(browser, f"{site.url}#key=wrong")
    _wait(browser, f"document.getElementById('status').textContent === {REFUSED!r}")
    assert _visible(browser, (*CONTROLS, "resign")) == []
    assert browser.find_element("id", "status").get_attribute("role") == "status"


def test_a_refused_action_shows_the_server_s_reason(browser: WebDriver, site: PlaySite) -> None:
    site.refusal = "It is not your turn."
    _open_as_alice(browser, site)
    _tap(browser, 8)
    _tap(browser, 5)
    _tap(browser, 6)
    _tap(browser, 5)
    browser.find_element("id", "done").click()
    _wait(browser, "document.getElementById('status').textContent === 'It is not your turn.'")
    assert browser.find_element("id", "done").is_enabled()  # free to send again


def test_the_live_stream_redraws_the_board(browser: WebDriver, site: PlaySite) -> None:
    _open_as_alice(browser, site)
    assert browser.find_element("id", "board").get_attribute("data-version") == "40"
    _tap(browser, 8)  # a half-made play is dropped when the next state comes
    site.push(after_alice_played())
    _wait(browser, "document.getElementById('board').dataset.version === '41'")
    assert (_checkers(browser, 8), _checkers(browser, 6), _checkers(browser, 5)) == (2, 4, 2)
    assert _visible(browser, (*CONTROLS, "resign")) == []  # bob's turn now
    assert browser.find_element("id", "turn").text == "\u2068bob\u2069 is to roll."
    assert errors_logged(browser) == []


def test_bob_gets_roll_and_double_when_it_is_his_turn(browser: WebDriver) -> None:
    with _served(browser, after_alice_played()) as site:
        _go(browser, f"{site.url}#key=k1")
        _wait(
            browser, "document.getElementById('seat').textContent === 'You play \u2068bob\u2069.'"
        )
        assert _visible(browser, (*CONTROLS, "resign")) == ["roll", "double", "resign"]
        # bob sees his own side at the bottom: his 6 point (alice's 19) bottom right of home
        below = browser.find_element("id", "player-1").rect["y"]
        assert below > browser.find_element("id", "board").rect["y"]
        browser.find_element("id", "double").click()
        WebDriverWait(browser, 5, poll_frequency=0.05).until(lambda driver: site.acts)
        assert site.acts[0][0] == "Bearer signed-k1"
        assert {key: site.acts[0][1][key] for key in ("action", "version")} == {
            "action": "double",
            "version": 41,
        }


def test_the_page_fits_a_phone(browser: WebDriver, site: PlaySite) -> None:
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 360, "height": 740, "deviceScaleFactor": 2, "mobile": True},
    )
    try:
        _open_as_alice(browser, site)
        widths = browser.execute_script(
            "return [document.documentElement.scrollWidth, window.innerWidth];"
        )
        assert widths == [360, 360]
        board = browser.find_element("id", "board").rect
        assert board["x"] >= 0
        assert board["x"] + board["width"] <= 360
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_the_keyboard_picks_and_moves_a_checker(browser: WebDriver, site: PlaySite) -> None:
    _open_as_alice(browser, site)
    browser.find_element("id", "title").click()
    keys = ActionChains(browser)
    for _ in range(40):  # Tab through the page until the 8 point has the focus
        keys.send_keys(Keys.TAB).perform()
        if browser.execute_script("return document.activeElement.dataset.point") == "8":
            break
    else:
        pytest.fail("Tab never reached the 8 point")
    keys.send_keys(Keys.ENTER).perform()
    assert _destinations(browser) == [5]
    for _ in range(4):  # 8 → 7 → the bar → 6 → 5 along the bottom row
        keys.send_keys(Keys.ARROW_RIGHT).perform()
    assert browser.execute_script("return document.activeElement.dataset.point") == "5"
    keys.send_keys(Keys.SPACE).perform()
    assert (_checkers(browser, 8), _checkers(browser, 5)) == (2, 1)
    assert browser.execute_script("return document.activeElement.dataset.point") == "5"
    keys.send_keys(Keys.ARROW_LEFT).send_keys(Keys.ENTER).perform()  # the 6 point
    assert _destinations(browser) == [5]
    keys.send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ENTER).perform()
    assert browser.execute_script("return document.activeElement.id") == "done"
    keys.send_keys(Keys.ENTER).perform()  # the play is complete: Enter on Done sends it
    WebDriverWait(browser, 5, poll_frequency=0.05).until(lambda driver: site.acts)
    assert site.acts[0][1]["play"] == "8/5 6/5"


def test_the_key_leaves_the_address_and_survives_a_reload(
    browser: WebDriver, site: PlaySite
) -> None:
    _open_as_alice(browser, site)
    assert "key=" not in browser.current_url  # a shared address carries no key
    browser.refresh()
    _wait(browser, "document.getElementById('seat').textContent === 'You play \u2068alice\u2069.'")
    assert site.hellos == [{"key": "k"}, {"key": "signed-k"}]


def test_a_telegram_mini_app_says_hello_with_its_init_data(
    browser: WebDriver, site: PlaySite
) -> None:
    fragment = "tgWebAppData=user%3Dbob%26hash%3Dx&tgWebAppVersion=7.0&tgWebAppPlatform=web"
    _go(browser, f"{site.url}#{fragment}")
    _wait(browser, "document.getElementById('seat').textContent === 'You play \u2068bob\u2069.'")
    assert site.hellos == [{"init_data": INIT_DATA}]
    assert _visible(browser, (*CONTROLS, "resign")) == []  # alice's turn, not bob's


def test_resigning_asks_first_then_sends_the_level(browser: WebDriver, site: PlaySite) -> None:
    _open_as_alice(browser, site)
    browser.find_element("id", "resign").click()
    menu = browser.find_element("id", "resign-menu")
    assert menu.is_displayed()
    menu.find_element("css selector", '[data-level="2"]').click()
    assert not menu.is_displayed()
    assert browser.find_element("id", "resign-question").text == (
        "Do you really offer to resign a gammon?"
    )
    browser.find_element("id", "resign-no").click()  # changed her mind: nothing sent
    assert not browser.find_element("id", "resign-confirm").is_displayed()
    assert site.acts == []
    browser.find_element("id", "resign").click()
    menu.find_element("css selector", '[data-level="3"]').click()
    browser.find_element("id", "resign-yes").click()
    WebDriverWait(browser, 5, poll_frequency=0.05).until(lambda driver: site.acts)
    assert site.acts[0][1]["action"] == "resign"
    assert site.acts[0][1]["level"] == 3


def test_the_doubled_side_answers_with_take_drop_or_beaver(browser: WebDriver) -> None:
    state = after_alice_played()
    state.update(
        phase="doubled",
        turn=0,
        on_roll=None,
        beavers=True,
        cube={"value": 1, "owner": None, "visible": True, "offered": True},
    )
    with _served(browser, state) as site:
        _open_as_alice(browser, site)
        assert _visible(browser, (*CONTROLS, "resign")) == ["take", "drop", "beaver"]
        assert browser.find_element("id", "turn").text == "\u2068bob\u2069 doubles to 2."
        assert browser.find_element("css selector", "#board .cube.offered").text == "2"
        browser.find_element("id", "beaver").click()
        WebDriverWait(browser, 5, poll_frequency=0.05).until(lambda driver: site.acts)
        assert site.acts[0][1]["action"] == "beaver"


def test_an_action_in_flight_is_sent_once(browser: WebDriver, site: PlaySite) -> None:
    site.act_delay = 0.4
    _open_as_alice(browser, site)
    for point in (8, 5, 6, 5):
        _tap(browser, point)
    done = browser.find_element("id", "done")
    done.click()
    assert not done.is_enabled()  # greyed until the answer comes
    browser.execute_script("document.getElementById('done').click();")  # a second press
    _tap(browser, 5)  # and the board takes no taps meanwhile
    WebDriverWait(browser, 5, poll_frequency=0.05).until(lambda driver: site.acts)
    assert len(site.acts) == 1
    # answered: the buttons wait for the state the play made, not to send it again
    time.sleep(0.5)  # act has answered by now
    assert not done.is_enabled()
    site.push(after_alice_played())
    _wait(browser, "document.getElementById('board').dataset.version === '41'")
    assert len(site.acts) == 1


def test_a_dropped_stream_shows_a_note_and_comes_back(browser: WebDriver, site: PlaySite) -> None:
    _open_as_alice(browser, site)
    note = "Connection lost; reconnecting…"
    site.drop_streams()
    _wait(browser, f"document.getElementById('connection').textContent === {note!r}")
    _wait(browser, "document.getElementById('connection').textContent === ''")
    site.push(after_alice_played())
    _wait(browser, "document.getElementById('board').dataset.version === '41'")


def test_the_running_clock_counts_down(browser: WebDriver, site: PlaySite) -> None:
    _open_as_alice(browser, site)
    clock = browser.find_element("id", "clock-0")
    # alice's period: 67.3 s left of which her reserve is 60 s: 1:00 and 8 s of delay
    assert clock.text.startswith("1:00")
    assert clock.find_element("class name", "delay").text in {"delay 8 s", "delay 7 s"}
    _wait(browser, "document.querySelector('#clock-0 .delay').textContent === 'delay 6 s'", 6)
    assert browser.find_element("id", "clock-1").text == "0:55"  # bob's waits
