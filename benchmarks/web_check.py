"""How long the dice check page takes to check 10,000 rolls in headless Chromium.

    python benchmarks/web_check.py [--runs 5] [--rolls 10000]

The check page of a synthetic match (10,000 rolls drawn with the real dice) is saved to a
file and opened as ``file://``, like a downloaded check file, ``--runs`` times after one
warm-up load. Timed from the start of navigation to the verdict (the page's own clock when it
writes the summary: parsing, layout, SHA-256 of the seed and 10,000 HMACs); the wall clock seen
from Selenium, which adds WebDriver's polling, is given too. Uses Debian's chromium and
chromedriver, never a downloaded browser. Prints one JSON object as its last line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bot.pages.check_data import CheckData  # noqa: E402
from bot.pages.pages import PageText, check_file  # noqa: E402
from tests.web.matches import synthetic_check_data  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


def synthetic_match(count: int) -> CheckData:
    """``count`` rolls as the dice give them, a game every 60 rolls, seeds with emoji and '|'."""
    return synthetic_check_data(count, ("🎲 anna|1", "ben"))


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def browser_check_figures(runs: int = 5, count: int = 10_000) -> dict[str, object]:
    """The figures for benchmarks/web.py; empty (with the reason) without a browser."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        return {"check_skipped": f"{CHROMIUM} or {CHROMEDRIVER} missing"}
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=str(CHROMEDRIVER)))
    page_ms: list[float] = []
    wall_ms: list[float] = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "match-1-check.html"
            started = time.perf_counter()
            path.write_bytes(check_file(synthetic_match(count), PageText.for_locale("en")))
            build_ms = (time.perf_counter() - started) * 1000
            for run in range(runs + 1):
                started = time.perf_counter()
                driver.get(path.as_uri())
                WebDriverWait(driver, 30, poll_frequency=0.005).until(
                    lambda browser: (
                        browser.find_element("id", "summary").get_attribute("data-status")
                        != "pending"
                    )
                )
                wall = (time.perf_counter() - started) * 1000
                status, done = driver.execute_script(
                    "const s = document.getElementById('summary');"
                    "return [s.dataset.status, Number(s.dataset.doneMs)]"
                )
                if status != "ok":
                    raise SystemExit(f"the check did not pass: {status}")
                if run:  # the first load warms the browser's caches
                    page_ms.append(float(done))
                    wall_ms.append(wall)
            size = path.stat().st_size
    finally:
        driver.quit()
    return {
        f"check_{count}_rolls_ms_median": round(statistics.median(page_ms), 1),
        f"check_{count}_rolls_ms_p99": round(_percentile(page_ms, 0.99), 1),
        f"check_{count}_rolls_ms_max": round(max(page_ms), 1),
        f"check_{count}_rolls_wall_ms_median": round(statistics.median(wall_ms), 1),
        f"check_{count}_rolls_page_kb": round(size / 1024),
        f"check_{count}_rolls_build_ms": round(build_ms, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rolls", type=int, default=10_000)
    args = parser.parse_args()
    print(json.dumps(browser_check_figures(args.runs, args.rolls)))


if __name__ == "__main__":
    main()
