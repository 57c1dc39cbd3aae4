"""The replay page in a real browser, served with its pictures from a local server: every
frame reached with the buttons, the keys and the game selector."""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageOps
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from bot.pages.pages import Frame, PageText, ReplayPageData, replay_page
from tests.web.pages_in_browser import alert_open, errors_logged

HOSTILE = "<img src=x onerror=alert(1)>"
COLOURS = ("red", "green", "blue", "yellow", "purple")
GAMES = (
    (Frame("/pictures/1/0.png", "Game 1 begins"), Frame("/pictures/1/1.png", "Alice 31: 8/5 6/5")),
    (
        Frame("/pictures/2/0.png", "Game 2 begins"),
        Frame("/pictures/2/1.png", HOSTILE),
        Frame("/pictures/2/2.png", "Bob wins"),
    ),
)


def _png(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 6), colour).save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """The replay page and its pictures on 127.0.0.1 (a secure context, like https)."""
    english = PageText.for_locale("en")
    page = replay_page(ReplayPageData(9, ("Alice", HOSTILE), GAMES), english)
    second = replay_page(ReplayPageData(9, ("Alice", HOSTILE), GAMES, start=1), english)
    pictures = [frame.image_url for game in GAMES for frame in game]
    files: dict[str, tuple[str, bytes, dict[str, str]]] = {
        "/replay": (
            "text/html; charset=utf-8",
            page.html.encode(),
            {"Content-Security-Policy": page.csp},
        ),
        "/replay-game-2": (
            "text/html; charset=utf-8",
            second.html.encode(),
            {"Content-Security-Policy": second.csp},
        ),
        **{
            url: ("image/png", _png(colour), {})
            for url, colour in zip(pictures, COLOURS, strict=True)
        },
    }

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            kind, body, headers = files.get(self.path, ("text/plain", b"not found", {}))
            self.send_response(200 if self.path in files else 404)
            self.send_header("Content-Type", kind)
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _shown(browser: WebDriver) -> tuple[str, str, str, bool, bool]:
    """(picture path, caption, counter, ◀ disabled, ▶ disabled) once the picture has loaded."""
    shown: list[object] = browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const image = document.getElementById("frame");
        const report = () => done([
          new URL(image.src).pathname + "|" + image.naturalWidth,
          document.getElementById("caption").textContent,
          document.getElementById("counter").textContent,
          document.getElementById("previous").disabled,
          document.getElementById("next").disabled,
        ]);
        if (image.complete) report(); else image.addEventListener("load", report, { once: true });
        """
    )
    path, caption, counter, first, last = shown
    assert str(path).endswith("|8"), f"the picture did not load: {path}"
    return str(path).split("|")[0], str(caption), str(counter), bool(first), bool(last)


def test_buttons_step_through_every_frame(browser: WebDriver, site: str) -> None:
    browser.get(f"{site}/replay")
    assert _shown(browser) == ("/pictures/1/0.png", "Game 1 begins", "Play 1 of 2", True, False)
    browser.find_element("id", "next").click()
    assert _shown(browser) == ("/pictures/1/1.png", "Alice 31: 8/5 6/5", "Play 2 of 2", False, True)
    browser.find_element("id", "last").click()  # already at the end: stays
    assert _shown(browser)[0] == "/pictures/1/1.png"
    browser.find_element("id", "previous").click()
    assert _shown(browser)[0] == "/pictures/1/0.png"
    Select(browser.find_element("id", "game")).select_by_index(1)
    assert _shown(browser) == ("/pictures/2/0.png", "Game 2 begins", "Play 1 of 3", True, False)
    for expected in ("/pictures/2/1.png", "/pictures/2/2.png"):
        browser.find_element("id", "next").click()
        assert _shown(browser)[0] == expected
    browser.find_element("id", "first").click()
    assert _shown(browser)[0] == "/pictures/2/0.png"
    assert errors_logged(browser) == []


def test_arrow_keys_home_and_end(browser: WebDriver, site: str) -> None:
    browser.get(f"{site}/replay")
    Select(browser.find_element("id", "game")).select_by_index(1)
    browser.find_element("tag name", "h1").click()  # the keys go to the page, not the selector
    keys = ActionChains(browser)
    seen = []
    for key in (Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.HOME, Keys.END):
        keys.send_keys(key).perform()
        seen.append(_shown(browser)[2])
    assert seen == ["Play 2 of 3", "Play 3 of 3", "Play 3 of 3", "Play 1 of 3", "Play 3 of 3"]
    keys.send_keys(Keys.ARROW_LEFT).perform()
    assert _shown(browser)[:3] == ("/pictures/2/1.png", HOSTILE, "Play 2 of 3")
    assert not alert_open(browser)
    assert browser.find_element("id", "title").text == (
        f"Replay of match 9: \u2068Alice\u2069 vs \u2068{HOSTILE}\u2069"
    )
    assert errors_logged(browser) == []


def _ink(browser: WebDriver, button_id: str) -> Image.Image:
    """What is drawn inside a button (its border and rounded corners left out), as a mask."""
    shot = Image.open(io.BytesIO(browser.find_element("id", button_id).screenshot_as_png))
    inside = shot.convert("RGB").crop((4, 4, shot.width - 4, shot.height - 4))
    background = Image.new("RGB", inside.size, inside.getpixel((0, 0)))
    red, green, blue = ImageChops.difference(inside, background).split()
    strongest = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    return strongest.point(lambda value: 255 if value > 64 else 0)


def _overlap(first: Image.Image, second: Image.Image) -> float:
    """Intersection over union of two masks of one size."""
    both = ImageChops.multiply(first, second).histogram()[255]
    either = ImageChops.lighter(first, second).histogram()[255]
    return both / either if either else 0.0


def test_the_buttons_show_icons_that_point_their_way(browser: WebDriver, site: str) -> None:
    """Each button draws its icon (a font without ⏮ shows an empty box, the same both ways):
    ⏭ and ▶ point right, ⏮ and ◀ are their mirror images."""
    browser.get(f"{site}/replay")
    Select(browser.find_element("id", "game")).select_by_index(1)
    browser.find_element("id", "next").click()  # the middle position: no button is greyed
    assert _shown(browser)[2] == "Play 2 of 3"
    ink = {name: _ink(browser, name) for name in ("first", "previous", "next", "last")}
    for name, mask in ink.items():
        assert mask.histogram()[255] > 40, f"{name}: nothing drawn"
        assert _overlap(mask, ImageOps.mirror(mask)) < 0.7, f"{name}: points nowhere"
    assert _overlap(ink["first"], ImageOps.mirror(ink["last"])) > 0.8
    assert _overlap(ink["previous"], ImageOps.mirror(ink["next"])) > 0.8
    # ▶ points right: more of its ink is left of its middle (the flat side), as ⏭'s triangle.
    for name in ("next", "last"):
        box = ink[name].getbbox()
        assert box is not None
        middle = (box[0] + box[2]) // 2
        left = ink[name].crop((box[0], 0, middle, ink[name].height)).histogram()[255]
        right = ink[name].crop((middle, 0, box[2], ink[name].height)).histogram()[255]
        assert left > right, name
    assert errors_logged(browser) == []


def test_the_steps_run_left_to_right_in_arabic_too(browser: WebDriver, tmp_path: Path) -> None:
    """As the keys ← and → do, and a player's controls in every language: ⏮ ◀ … ▶ ⏭."""
    page = replay_page(ReplayPageData(9, ("علي", "سارة"), GAMES), PageText.for_locale("ar"))
    path = tmp_path / "replay.html"
    path.write_text(page.html, encoding="utf-8")
    browser.get(path.as_uri())
    assert browser.find_element("tag name", "html").get_attribute("dir") == "rtl"
    lefts = [
        browser.find_element("id", name).rect["x"]
        for name in ("first", "previous", "counter", "next", "last")
    ]
    assert lefts == sorted(lefts)
    # Opened as a file the pictures are missing; nothing else may be complained of.
    assert all(".png" in error for error in errors_logged(browser))


def test_a_replay_opened_at_a_game_steps_through_that_game(browser: WebDriver, site: str) -> None:
    browser.get(f"{site}/replay-game-2")
    assert _shown(browser) == ("/pictures/2/0.png", "Game 2 begins", "Play 1 of 3", True, False)
    browser.find_element("id", "next").click()
    assert _shown(browser)[:3] == ("/pictures/2/1.png", HOSTILE, "Play 2 of 3")
    assert Select(browser.find_element("id", "game")).first_selected_option.text == "Game 2"
    assert errors_logged(browser) == []
