"""Opening pages in the session's Chromium and reading what the scripts made of them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from bot.pages.check_data import CheckData
from bot.pages.pages import PageText, check_file


@dataclass(frozen=True)
class CheckResult:
    status: str
    summary: str
    rows: list[tuple[int, str, str]]  # (nonce, status, computed dice) of every row
    digest: str
    done_ms: float | None  # when the script gave its verdict, in ms since navigation began


def open_check(browser: WebDriver, folder: Path, data: CheckData, text: PageText) -> CheckResult:
    """Save the check page as a file, open it as ``file://`` and wait for the verdict."""
    path = folder / f"match-{data.match_number}-check.html"
    path.write_bytes(check_file(data, text))
    browser.get(path.as_uri())
    return read_check(browser)


def read_check(browser: WebDriver) -> CheckResult:
    WebDriverWait(browser, 10, poll_frequency=0.02).until(
        lambda driver: (
            driver.find_element("id", "summary").get_attribute("data-status") != "pending"
        )
    )
    found: dict[str, Any] = browser.execute_script(
        """
        const summary = document.getElementById("summary");
        const digest = document.getElementById("seed-digest");
        return {
          status: summary.dataset.status,
          summary: summary.textContent,
          doneMs: summary.dataset.doneMs ? Number(summary.dataset.doneMs) : null,
          digest: digest ? digest.textContent : "",
          rows: Array.from(document.querySelectorAll("#rolls tr[data-nonce]"), (row) => [
            Number(row.dataset.nonce),
            row.dataset.status,
            row.cells[4] ? row.cells[4].textContent : "",
          ]),
        };
        """
    )
    return CheckResult(
        status=found["status"],
        summary=found["summary"],
        rows=[(int(nonce), str(status), str(dice)) for nonce, status, dice in found["rows"]],
        digest=found["digest"],
        done_ms=None if found["doneMs"] is None else float(found["doneMs"]),
    )


def errors_logged(browser: WebDriver) -> list[str]:
    """The console errors since the last call (a blocked script or style shows up here)."""
    logged = browser.get_log("browser")  # type: ignore[no-untyped-call]
    return [entry["message"] for entry in logged if entry["level"] == "SEVERE"]


def alert_open(browser: WebDriver) -> bool:
    try:
        browser.switch_to.alert  # noqa: B018 (the property raises when there is none)
    except NoAlertPresentException:
        return False
    return True
