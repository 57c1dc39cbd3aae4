"""``gammonbot backup PATH``: a consistent online copy of the SQLite database."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from tests.storage.players import Table


async def test_a_backup_holds_every_match(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(3):
        await table.new_match()
    monkeypatch.setenv("DATABASE_URL", str(table.database.url))
    target = tmp_path / "copies" / "backup.db"
    result = CliRunner().invoke(main, ["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert "backup written" in result.output
    with sqlite3.connect(target) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT count(*) FROM matches").fetchone() == (3,)


def test_a_backup_of_a_server_database_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://bot@localhost/bot")
    result = CliRunner().invoke(main, ["backup", "/tmp/never.db"])
    assert result.exit_code != 0
