"""Fixtures of the web page tests: one headless Chromium for the whole session.

Selenium is pointed at Debian's chromium and chromedriver, so Selenium Manager never downloads
a browser; without them the browser tests are skipped, saying why (and fail instead where
``GAMMONBOT_BROWSER_TESTS=required``, as in CI).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.chrome.webdriver import WebDriver

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def chrome() -> WebDriver:
    """A new headless Chromium (the session's ``browser``, or another one for a test that needs
    several at once); skips the test, or fails it where required, when there is none."""
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    if missing:
        reason = f"no headless browser for the page tests: {', '.join(missing)} missing"
        if os.environ.get("GAMMONBOT_BROWSER_TESTS") == "required":  # CI: never skip them
            pytest.fail(reason)
        pytest.skip(reason)
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1000,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))


@pytest.fixture(scope="session")
def browser() -> Iterator[WebDriver]:
    driver = chrome()
    try:
        yield driver
    finally:
        driver.quit()
