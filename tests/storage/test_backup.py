"""``gammonbot backup PATH``: a consistent online copy of the SQLite database; PostgreSQL's is
pg_dump's work, and the command says so. (Writing over the database's own files is a SQLite
matter: those tests have no PostgreSQL variant.)"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from tests.storage.players import Table, open_table


async def test_a_backup_holds_every_match(
    table: Table,
    migrated_url: str,
    backend: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for _ in range(3):
        await table.new_match()
    monkeypatch.setenv("DATABASE_URL", migrated_url)
    target = tmp_path / "copies" / "backup.db"
    result = CliRunner().invoke(main, ["backup", str(target)])
    if backend == "postgresql":  # the server's own tool makes the copy, and is named
        assert result.exit_code == 2
        assert "pg_dump" in result.stderr
        assert not target.exists()
        return
    assert result.exit_code == 0, result.output
    assert "backup written" in result.output
    with sqlite3.connect(target) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT count(*) FROM matches").fetchone() == (3,)


def test_a_backup_of_a_server_database_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://bot:s3cret@localhost/bot")
    result = CliRunner().invoke(main, ["backup", "/tmp/never.db"])
    assert result.exit_code == 2
    assert "pg_dump --format=custom --file=gammonbot.dump bot" in result.stderr
    assert "s3cret" not in result.stderr


def _matches_in(path: Path) -> int:
    with sqlite3.connect(path) as database:
        assert database.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        count = database.execute("SELECT count(*) FROM matches").fetchone()[0]
    assert isinstance(count, int)
    return count


SPELLINGS = ["gammonbot.db", "./gammonbot.db", "absolute", "../here/gammonbot.db", "symlink"]
SPELLINGS += ["hard link", "gammonbot.db-wal", "./gammonbot.db-shm", "gammonbot.db-journal"]


@pytest.mark.parametrize("spelling", SPELLINGS)
async def test_a_backup_over_the_database_itself_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    here = tmp_path / "here"
    table = await open_table(f"sqlite:///{here / 'gammonbot.db'}")
    try:
        for _ in range(2):
            await table.new_match()
        monkeypatch.chdir(here)
        monkeypatch.setenv("DATABASE_URL", "sqlite:///gammonbot.db")
        targets = {
            "absolute": str(here / "gammonbot.db"),
            "symlink": "link.db",
            "hard link": "hard.db",
        }
        (here / "link.db").symlink_to(here / "gammonbot.db")
        (here / "hard.db").hardlink_to(here / "gammonbot.db")
        result = CliRunner().invoke(main, ["backup", targets.get(spelling, spelling)])
        assert result.exit_code == 2, result.output
        assert "refusing to write the backup over the database" in result.stderr
        assert "backup written" not in result.output
        assert _matches_in(here / "gammonbot.db") == 2
    finally:
        await table.database.close()
    assert _matches_in(here / "gammonbot.db") == 2


@pytest.mark.parametrize("url", ["notaurl", "sqlite://host:port/x.db", "nosuchdb://x"])
def test_a_garbage_database_url_is_named_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", url)
    result = CliRunner().invoke(main, ["backup", "copy.db"])
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("setting DATABASE_URL: ")
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "copy.db").exists()
