"""``gammonbot`` run in the test's own process (Click's runner), in a folder of the test's
and with only the settings it names: as the program started by a user would, without the
second of a new Python's start for each case."""

from __future__ import annotations

import os
import subprocess
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main

# Names of every setting: none may come in from the environment the tests run in.
SETTING_PREFIXES = ("DATABASE_", "DISCORD_", "TELEGRAM_", "WEB_", "CONSOLE_", "CLOCK_", "LOG_")


def gammonbot_here(
    command: str, folder: Path, settings: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> subprocess.CompletedProcess[str]:
    """``gammonbot COMMAND`` run in this process, in ``folder``, with only ``settings`` set:
    what it wrote and its exit status, as :func:`gammonbot` gives them (an exception that
    escaped it shows as its traceback on stderr)."""
    monkeypatch.chdir(folder)
    for name in list(os.environ):
        if name.startswith(SETTING_PREFIXES):
            monkeypatch.delenv(name)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(main, command.split(), catch_exceptions=True)
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(result.exception))
    return subprocess.CompletedProcess(command, result.exit_code, result.stdout, stderr)
