"""Where a newcomer learns the settings: ``gammonbot run --help`` lists every one with what it
is for and its default, ``.env.example`` names every one and works as it is, and the start
says which database it uses without ever showing a password."""

from __future__ import annotations

import io
import logging
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from bot.config import Settings, load_settings
from bot.logs import configure_logging
from storage.database import describe_database

ROOT = Path(__file__).resolve().parents[2]
SETTING_PREFIXES = ("DATABASE_", "DISCORD_", "TELEGRAM_", "WEB_", "CONSOLE_", "CLOCK_", "LOG_")


def environment_names() -> list[str]:
    return [name.upper() for name in Settings.model_fields]


def run_help() -> str:
    result = CliRunner().invoke(main, ["run", "--help"])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # as one line: click wraps the descriptions


def test_run_help_lists_every_setting_with_its_default() -> None:
    shown = run_help()
    assert "Start every chat platform whose token is set" in shown
    assert ".env.example" in shown
    assert len(environment_names()) >= 21
    for name in environment_names():
        assert f" {name} " in shown, name
    # Defaults as they would be written in .env.
    assert "DATABASE_URL The database: a SQLite file" in shown
    assert "[default: sqlite:///gammonbot.db]" in shown
    assert "CONSOLE_IMAGE_DIR Where the console chat writes board pictures. [default: boards]" in (
        shown
    )
    assert "[default: INFO]" in shown
    assert "[default: false]" in shown  # DISCORD_SHARDED
    assert "(reminders, expired challenges, claims). [default: 60]" in shown  # CLOCK_SECONDS
    assert "DISCORD_TOKEN Discord bot token; gammonbot run then starts on Discord. " in shown


def test_the_example_names_every_setting() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    written = set(re.findall(r"^(?:# )?([A-Z_]+)=", example, flags=re.MULTILINE))
    assert written == set(environment_names())


@pytest.fixture
def no_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in list(os.environ):
        if name.startswith(SETTING_PREFIXES):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_example_copied_to_dotenv_is_read_as_it_is(no_settings: Path) -> None:
    shutil.copyfile(ROOT / ".env.example", no_settings / ".env")
    settings = load_settings()
    assert settings.database_url == "sqlite:///gammonbot.db"
    assert settings.log_level == "INFO"
    assert settings.telegram_token is None


def test_a_log_level_is_read_in_any_case(no_settings: Path) -> None:
    (no_settings / ".env").write_text("LOG_LEVEL= warning \n", encoding="utf-8")
    assert load_settings().log_level == "WARNING"


@pytest.mark.parametrize(
    ("url", "described"),
    [
        ("postgresql://bot:s3cret@db.example.org:5433/games", "PostgreSQL database games on "),
        ("postgresql+psycopg://bot:s3cret@db.example.org/games", "PostgreSQL database games on "),
        ("postgresql:///games?host=/run/postgresql", "PostgreSQL database games on "),
    ],
)
def test_a_postgresql_database_is_named_without_user_or_password(url: str, described: str) -> None:
    said = describe_database(url)
    assert said.startswith(described)
    assert "s3cret" not in said
    assert "bot" not in said


def test_the_sqlite_file_is_named_with_its_absolute_folder(no_settings: Path) -> None:
    assert describe_database("sqlite:///gammonbot.db") == f"database gammonbot.db in {Path.cwd()}"
    assert describe_database("sqlite+aiosqlite:////var/lib/g/bot.db") == (
        "database bot.db in /var/lib/g"
    )


@pytest.fixture
def root_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def alembic_lines(level: str) -> str:
    """What Alembic's migration logger says at every start and while migrating, logged
    after ``configure_logging`` at ``level``."""
    written = io.StringIO()
    configure_logging([], level)
    logging.getLogger().handlers[0].setStream(written)  # type: ignore[attr-defined]
    log = logging.getLogger("alembic.runtime.migration")
    log.info("Context impl %s.", "SQLiteImpl")
    log.info("Will assume %s DDL.", "non-transactional")
    log.info("Running upgrade %s -> %s, %s", "0012", "0013", "chouette game over")
    return written.getvalue()


def test_alembic_says_only_what_changed_at_info(root_logging: None) -> None:
    lines = alembic_lines("INFO").splitlines()
    assert [line.split(" ", 2)[2] for line in lines] == [
        "INFO alembic.runtime.migration: Running upgrade 0012 -> 0013, chouette game over"
    ]


def test_alembic_s_routine_is_debug(root_logging: None) -> None:
    lines = [line.split(" ", 2)[2] for line in alembic_lines("DEBUG").splitlines()]
    assert lines == [
        "DEBUG alembic.runtime.migration: Context impl SQLiteImpl.",
        "DEBUG alembic.runtime.migration: Will assume non-transactional DDL.",
        "INFO alembic.runtime.migration: Running upgrade 0012 -> 0013, chouette game over",
    ]
    assert alembic_lines("WARNING") == ""
