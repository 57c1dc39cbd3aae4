"""A bad ``DATABASE_URL`` is one line naming it and exit 2, from every command that opens it."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy.exc import OperationalError

import storage.database
from bot.cli import main
from tests.cli_here import gammonbot_here

PLATFORM_SETTINGS = ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "TELEGRAM_WEBHOOK_SECRET")


def gammonbot(command: str, database_url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command, stdin closed, in ``cwd`` (so no ``.env`` of the checkout is read)."""
    env = {key: value for key, value in os.environ.items() if key not in PLATFORM_SETTINGS}
    env["DATABASE_URL"] = database_url
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *command.split()],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=env,
    )


def _assert_one_line_naming_the_url(completed: subprocess.CompletedProcess[str]) -> str:
    assert completed.returncode == 2, completed.stderr
    assert "Traceback" not in completed.stderr + completed.stdout
    assert completed.stdout == ""
    lines = completed.stderr.splitlines()
    assert len(lines) == 1, completed.stderr
    assert "DATABASE_URL" in lines[0]
    return lines[0]


@pytest.mark.parametrize("command", ["console", "run", "backup copy.db"])
@pytest.mark.parametrize(
    "url", ["notaurl", "", "nosuchdb://x", "postgresql://nobody:s3cret@127.0.0.1:port/x"]
)
def test_a_garbage_url_is_a_setting_error(
    tmp_path: Path, command: str, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = gammonbot_here(command, tmp_path, {"DATABASE_URL": url}, monkeypatch)
    line = _assert_one_line_naming_the_url(done)
    assert line.startswith("setting DATABASE_URL: ")
    assert "s3cret" not in line


def _unusable_urls(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "a-file").write_text("not a directory")
    (tmp_path / "a-directory").mkdir()
    (tmp_path / "not-a-database.db").write_bytes(b"hello, this is no SQLite file\n" * 100)
    return {
        "unreachable server": "postgresql://nobody@127.0.0.1:1/x",
        "parent is a file": f"sqlite:///{tmp_path / 'a-file' / 'x.db'}",
        "database is a directory": f"sqlite+aiosqlite:///{tmp_path / 'a-directory'}",
        "not a database": f"sqlite:///{tmp_path / 'not-a-database.db'}",
    }


@pytest.mark.parametrize("command", ["console", "run"])
@pytest.mark.parametrize(
    "case", ["unreachable server", "parent is a file", "database is a directory", "not a database"]
)
def test_a_database_that_cannot_be_opened_is_one_line(
    tmp_path: Path, command: str, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _unusable_urls(tmp_path)[case]
    done = gammonbot_here(command, tmp_path, {"DATABASE_URL": url}, monkeypatch)
    line = _assert_one_line_naming_the_url(done)
    assert line.startswith("DATABASE_URL: cannot open the database: ")
    assert len(line) > len("DATABASE_URL: cannot open the database: ")


def test_the_program_itself_names_the_url_in_one_line(tmp_path: Path) -> None:
    """The real program, started as a user starts it, on one of the cases above."""
    line = _assert_one_line_naming_the_url(gammonbot("run", "nosuchdb://x", tmp_path))
    assert line.startswith("setting DATABASE_URL: ")


def test_a_backup_of_a_missing_database_is_one_line(tmp_path: Path) -> None:
    completed = gammonbot("backup copy.db", f"sqlite:///{tmp_path / 'missing.db'}", tmp_path)
    assert completed.returncode == 2
    assert "Traceback" not in completed.stderr
    assert completed.stderr.startswith("backup failed: no database at ")


@pytest.mark.parametrize("url", ["sqlite:///bot.db", "sqlite+aiosqlite:///bot.db"])
def test_both_sqlite_spellings_still_start_the_console(tmp_path: Path, url: str) -> None:
    completed = gammonbot("console", url, tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    with sqlite3.connect(tmp_path / "bot.db") as database:
        tables = {row[0] for row in database.execute("SELECT name FROM sqlite_master")}
    assert "matches" in tables


class _RefusedDatabase:
    """A server that refuses the connection, as psycopg words it: on two lines."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def migrate(self) -> None:
        refused = ConnectionRefusedError(
            'connection to server at "127.0.0.1", port 1 failed: Connection refused\n'
            "\tIs the server running on that host and accepting TCP/IP connections?"
        )
        raise OperationalError("SELECT 1", {}, refused)

    async def close(self) -> None:
        pass


@pytest.mark.parametrize("command", ["console", "run"])
def test_a_refused_connection_is_one_line_in_the_drivers_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in PLATFORM_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/x")
    monkeypatch.setattr(storage.database, "Database", _RefusedDatabase)
    result = CliRunner().invoke(main, [command])
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert result.stderr == (
        "DATABASE_URL: cannot open the database: connection to server at "
        '"127.0.0.1", port 1 failed: Connection refused Is the server running on that host '
        "and accepting TCP/IP connections?\n"
    )
