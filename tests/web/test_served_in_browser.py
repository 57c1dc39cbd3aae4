"""The bot's own web server in a real browser: a match played through the command layer, its
check page recomputing every roll from the server, and its replay stepped to the last play."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from selenium.webdriver.chrome.webdriver import WebDriver

from bot.core.info.replays import ReplayFrames
from engine.records import analysis_to_json
from gammon.actions import OpeningRoll, Roll
from tests.bot.scripted import Room, play_to_the_end
from tests.bot.test_analysis_text import ANALYSIS
from tests.databases import sqlite_copy
from tests.web.pages_in_browser import errors_logged, read_check
from tests.web.served import serving


@pytest.fixture
async def served(tmp_path: Path, migrated_sqlite: Path) -> AsyncIterator[tuple[Room, str]]:
    async with serving(sqlite_copy(migrated_sqlite, tmp_path / "web.db")) as (room, server):
        yield room, f"http://127.0.0.1:{server.bound_port}"


async def test_the_served_check_page_verifies_every_roll_after_the_end(
    browser: WebDriver, served: tuple[Room, str]
) -> None:
    room, site = served
    slug = (await room.stores.matches.match_info(1)).slug
    # While the match is played the page has no seed, so it checks nothing yet.
    await asyncio.to_thread(browser.get, f"{site}/m/{slug}/verify")
    waiting = await asyncio.to_thread(read_check, browser)
    assert waiting.status == "waiting"
    await play_to_the_end(room, ("anna", "bob"), seed=4)
    rolls = [
        action.dice
        for action in await room.stores.matches.history(1)
        if isinstance(action, OpeningRoll | Roll)
    ]
    await asyncio.to_thread(browser.get, f"{site}/m/{slug}/verify")
    result = await asyncio.to_thread(read_check, browser)
    assert result.status == "ok", result.summary
    assert [nonce for nonce, _status, _dice in result.rows] == list(range(len(rolls)))
    assert {status for _nonce, status, _dice in result.rows} == {"ok"}
    assert [dice for _nonce, _status, dice in result.rows] == [f"{a}-{b}" for a, b in rolls]
    assert result.digest == (await room.stores.matches.match_info(1)).dice_commitment
    assert await asyncio.to_thread(errors_logged, browser) == []


async def test_the_served_replay_steps_to_the_last_play(
    browser: WebDriver, served: tuple[Room, str]
) -> None:
    room, site = served
    await play_to_the_end(room, ("anna", "bob"), seed=4)
    info = await room.stores.matches.match_info(1)
    frames = len((await ReplayFrames(room.stores.matches).games(info))[0].frames)
    await asyncio.to_thread(browser.get, f"{site}/m/{info.slug}/replay")
    seen = [await asyncio.to_thread(_counter, browser)]
    # The first step is a real click; then the page's script presses ▶ (a click through
    # ChromeDriver costs 40 ms, most of a step: the buttons are clicked one by one in
    # test_replay_in_browser.py, on the same page served from files).
    await asyncio.to_thread(browser.find_element("id", "next").click)
    seen.append(await asyncio.to_thread(_counter, browser))
    for _step in range(frames - 1):
        seen.append(await asyncio.to_thread(_counter, browser, True))
    assert seen[0] == f"Play 1 of {frames}"
    assert seen[-2] == seen[-1] == f"Play {frames} of {frames}"
    assert len(set(seen)) == frames  # every frame was shown, each picture loaded
    assert await asyncio.to_thread(errors_logged, browser) == []


def _counter(browser: WebDriver, step: bool = False) -> str:
    """The counter once the frame's picture has loaded from the server; after pressing ▶
    first, with ``step``."""
    shown: list[object] = browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        if (arguments[0]) document.getElementById("next").click();
        const image = document.getElementById("frame");
        const report = () => done([image.naturalWidth,
                                   document.getElementById("counter").textContent]);
        if (image.complete) report(); else image.addEventListener("load", report, { once: true });
        """,
        step,
    )
    width, counter = shown
    assert int(str(width)) > 100, "the frame's picture did not load"
    return str(counter)


async def test_the_served_match_page_shows_its_pictures(
    browser: WebDriver, served: tuple[Room, str]
) -> None:
    room, site = served
    await play_to_the_end(room, ("anna", "bob"), seed=4)
    assert await room.stores.analyses.claim(1, "expert")
    await room.stores.analyses.store(1, analysis_to_json(ANALYSIS), room.core.clock())
    info = await room.stores.matches.match_info(1)
    await asyncio.to_thread(browser.get, f"{site}/m/{info.slug}?lang=ar")
    widths = await asyncio.to_thread(_picture_widths, browser, ("#board img", "#analysis-chart"))
    assert widths[0] > 100, "the final position did not load"
    assert widths[1] == 900, "the analysis chart did not load"
    assert await asyncio.to_thread(browser.execute_script, "return document.dir") == "rtl"
    assert await asyncio.to_thread(errors_logged, browser) == []  # nothing blocked by the policy


def _picture_widths(browser: WebDriver, selectors: tuple[str, ...]) -> list[int]:
    """The natural widths of the pictures once each has loaded (0 for one that failed)."""
    widths: list[object] = browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const images = arguments[0].map((selector) => document.querySelector(selector));
        const loaded = (image) => new Promise((settle) => {
          if (image.complete) settle(); else {
            image.addEventListener("load", settle, { once: true });
            image.addEventListener("error", settle, { once: true });
          }
        });
        Promise.all(images.map(loaded)).then(() => done(images.map((i) => i.naturalWidth)));
        """,
        list(selectors),
    )
    return [int(str(width)) for width in widths]
