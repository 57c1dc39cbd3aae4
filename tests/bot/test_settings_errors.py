"""A setting that cannot be used is one line on stderr naming it, and exit 2, from every
command that reads the settings: never a traceback, never a folder or file made on the way.

The whole matrix of settings and commands runs the command in this process (Click's runner,
the environment and the working folder set for the test: a start of Python per case would
cost a second each); the first refusal, the start's lines and the log levels run the real
program as a separate process, as a user starts it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_here import SETTING_PREFIXES, gammonbot_here

ROOT = Path(__file__).resolve().parents[2]
# Makes ``import psycopg`` fail as it does where the postgresql extra is not installed.
WITHOUT_PSYCOPG = "import sys; sys.modules['psycopg'] = None; from bot.cli import main; main()"


def gammonbot(
    command: str,
    folder: Path,
    settings: dict[str, str],
    *,
    dotenv: str | None = None,
    program: list[str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``gammonbot COMMAND`` in ``folder`` with only ``settings`` set (and ``dotenv`` as its
    ``.env`` file), stdin closed."""
    environment = {
        name: value for name, value in os.environ.items() if not name.startswith(SETTING_PREFIXES)
    }
    environment.update(settings, PYTHONPATH=str(ROOT))
    if dotenv is not None:
        (folder / ".env").write_text(dotenv, encoding="utf-8")
    return subprocess.run(
        [sys.executable, *(program or ["-m", "bot.cli"]), *command.split()],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=folder,
        env=environment,
        check=False,
    )


def refusal(done: subprocess.CompletedProcess[str], setting: str) -> str:
    """The one line naming ``setting``, after checking it is all there was."""
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"setting {setting}: "), lines[0]
    return lines[0]


def test_an_empty_token_uncommented_from_the_example_is_named(tmp_path: Path) -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert "# TELEGRAM_TOKEN=\n" in example
    uncommented = example.replace("# TELEGRAM_TOKEN=\n", "TELEGRAM_TOKEN=\n")
    line = refusal(gammonbot("run", tmp_path, {}, dotenv=uncommented), "TELEGRAM_TOKEN")
    assert "is empty" in line
    assert not (tmp_path / "gammonbot.db").exists()  # refused before anything was opened


# Each case: the setting, its value, and what the line must say to tell what to do.
BAD_SETTINGS = {
    "empty Discord token": ("DISCORD_TOKEN", "", "is empty"),
    "blank Telegram token": ("TELEGRAM_TOKEN", "   ", "is empty"),
    "empty webhook secret": ("TELEGRAM_WEBHOOK_SECRET", "", "is empty"),
    "SQLite without a file": ("DATABASE_URL", "sqlite:///", "names no SQLite file"),
    "SQLite in memory": ("DATABASE_URL", "sqlite://", "names no SQLite file"),
    "MySQL": (
        "DATABASE_URL",
        "mysql://bot:s3cret@127.0.0.1/bot",
        "unknown kind of database 'mysql'",
    ),
    "postgres:// for postgresql://": (
        "DATABASE_URL",
        "postgres://bot:s3cret@127.0.0.1/bot",
        "unknown kind of database 'postgres'",
    ),
    "unknown log level": ("LOG_LEVEL", "verbose", "DEBUG, INFO, WARNING, ERROR, CRITICAL"),
}


@pytest.mark.parametrize("command", ["run", "console"])
@pytest.mark.parametrize("case", sorted(BAD_SETTINGS))
def test_a_setting_that_cannot_be_used_is_one_line_that_says_what_to_do(
    tmp_path: Path, command: str, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    setting, value, advice = BAD_SETTINGS[case]
    line = refusal(gammonbot_here(command, tmp_path, {setting: value}, monkeypatch), setting)
    assert advice in line
    assert "s3cret" not in line
    assert list(tmp_path.iterdir()) == []


def test_the_program_itself_refuses_a_setting_in_one_line(tmp_path: Path) -> None:
    """The real program, started as a user starts it, on one of the cases above."""
    line = refusal(gammonbot("run", tmp_path, {"DATABASE_URL": "sqlite://"}), "DATABASE_URL")
    assert "names no SQLite file" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command", ["run", "console", "health", "db upgrade", "backup copy.db", "ratings rebuild"]
)
def test_a_sqlite_file_in_a_missing_folder_is_refused_not_made(
    tmp_path: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = "sqlite:///not/made/bot.db"  # relative: the folder would be under tmp_path
    done = gammonbot_here(command, tmp_path, {"DATABASE_URL": url}, monkeypatch)
    line = refusal(done, "DATABASE_URL")
    assert f"the folder {tmp_path / 'not' / 'made'} " in line
    assert "does not exist" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["run", "console", "db upgrade"])
def test_postgresql_without_its_driver_says_which_extra_to_install(
    tmp_path: Path, command: str
) -> None:
    url = "postgresql://bot:s3cret@127.0.0.1:1/bot"
    done = gammonbot(command, tmp_path, {"DATABASE_URL": url}, program=["-c", WITHOUT_PSYCOPG])
    line = refusal(done, "DATABASE_URL")
    assert "pip install 'gammonbot[postgresql]'" in line
    assert "s3cret" not in line


def test_at_start_it_says_which_database_and_settings_it_uses(tmp_path: Path) -> None:
    tmp_path = tmp_path.resolve()
    done = gammonbot("run", tmp_path, {})
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"Using database gammonbot.db in {tmp_path}; settings from the environment only "
        f"(no .env in {tmp_path})",
        "No DISCORD_TOKEN or TELEGRAM_TOKEN set: starting the console chat.",
    ]


def test_a_dotenv_read_is_named_and_alembic_keeps_quiet_at_info(tmp_path: Path) -> None:
    tmp_path = tmp_path.resolve()
    (tmp_path / "data").mkdir()
    dotenv = "DATABASE_URL=sqlite:///data/bot.db\nLOG_LEVEL=info\n"
    done = gammonbot("console", tmp_path, {}, dotenv=dotenv)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"Using database bot.db in {tmp_path / 'data'}; settings from the environment and "
        f"{tmp_path / '.env'}"
    ]


def test_alembic_s_routine_lines_show_at_debug(tmp_path: Path) -> None:
    done = gammonbot("console", tmp_path, {"LOG_LEVEL": "debug"})
    assert done.returncode == 0, done.stderr
    assert " DEBUG alembic.runtime.migration: Context impl SQLiteImpl." in done.stderr
    assert " DEBUG alembic.runtime.migration: Will assume non-transactional DDL." in done.stderr
