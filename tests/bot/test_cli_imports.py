"""The command line imports what a command needs only when that command runs: ``gammonbot
--help`` loads none of the database, picture, engine or platform code, and ``gammonbot hint``
only the engine (not storage, SQLAlchemy or the console)."""

from __future__ import annotations

import json
import subprocess
import sys

# Packages that cost most of a start (SQLAlchemy and Alembic alone took 0.2 s) or that only
# some commands need.
HEAVY = (
    "sqlalchemy",
    "alembic",
    "psycopg",
    "PIL",
    "discord",
    "telegram",
    "aiohttp",
    "jinja2",
    "babel",
    "pydantic",
    "pydantic_settings",
    "bgsage",
    "storage",
    "engine",
    "rendering",
    "gammon",
    "bot.console_app",
    "bot.core",
    "bot.config",
    "bot.hosting",
)


def loaded_after(arguments: list[str]) -> tuple[list[str], str]:
    """Run ``gammonbot ARGUMENTS`` in a fresh interpreter; which of HEAVY it loaded (a
    package or any module in it), and what the command printed."""
    code = f"""
import contextlib, io, json, sys
from bot.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main({arguments!r})
    except SystemExit as ended:
        assert not ended.code, ended.code
heavy = {HEAVY!r}
loaded = sorted(h for h in heavy if any(m == h or m.startswith(h + ".") for m in sys.modules))
print(json.dumps([loaded, out.getvalue()]))
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded, printed = json.loads(done.stdout)
    return loaded, printed


def test_the_command_list_loads_nothing_heavy() -> None:
    loaded, printed = loaded_after(["--help"])
    assert "Commands:" in printed
    assert loaded == []


def test_a_hint_loads_the_engine_but_no_database_or_console() -> None:
    loaded, printed = loaded_after(
        ["hint", "--position-id", "4HPwATDgc/ABMA", "--match-id", "MIHlAAAAAAAA"]
    )
    assert json.loads(printed)["kind"] == "plays"
    assert "engine" in loaded  # it did run
    assert set(loaded) & {"sqlalchemy", "alembic", "storage", "bot.console_app"} == set()
    assert set(loaded) & {"discord", "telegram", "PIL", "rendering", "pydantic"} == set()
