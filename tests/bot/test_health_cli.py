"""``gammonbot db upgrade`` and ``gammonbot health``: the schema brought up to date on demand,
and a health check that a service manager can run (exit 0 only when the database is reachable
and its schema current)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bot.cli import main
from storage.health import newest_revision


def _run(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(arguments))
    return result.exit_code, result.stdout, result.stderr


def test_health_upgrade_health(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "bot.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{path}")
    code, _out, err = _run("health")
    assert code == 1
    assert err.startswith("unhealthy: cannot open the database: no database file at ")
    assert not path.exists()  # a health check creates nothing
    sqlite3.connect(path).close()  # an empty database: no schema yet
    code, _out, err = _run("health")
    assert (code, err.strip()) == (
        1,
        f"unhealthy: database schema not created yet, the newest is {newest_revision()} "
        "(run: gammonbot db upgrade)",
    )
    code, out, _err = _run("db", "upgrade")
    assert (code, out.strip()) == (
        0,
        f"database schema at revision {newest_revision()}, the newest",
    )
    code, out, _err = _run("health")
    assert (code, out.strip()) == (
        0,
        f"healthy: database reachable, schema at revision {newest_revision()}",
    )
    # An older schema (a process of the previous release migrated it): unhealthy until upgraded.
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0006'")
    code, _out, err = _run("health")
    assert code == 1
    assert "schema at 0006, the newest is" in err


def test_an_unreachable_server_is_unhealthy_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:s3cret@127.0.0.1:1/bot")
    code, out, err = _run("health")
    assert code == 1
    assert out == ""
    assert err.startswith("unhealthy: cannot open the database: ")
    assert len(err.splitlines()) == 1
    assert "s3cret" not in err
    code, _out, err = _run("db", "upgrade")
    assert code == 2
    assert err.startswith("DATABASE_URL: cannot open the database: ")


def test_the_service_units_run_commands_that_exist() -> None:
    """deploy/'s systemd units start `gammonbot` subcommands: each must be one (a renamed
    command would leave the service failing at boot)."""
    units = sorted((Path(__file__).resolve().parents[2] / "deploy").glob("*.service"))
    assert len(units) == 2
    commands = [
        line.split("=", 1)[1].split()[1:]
        for unit in units
        for line in unit.read_text(encoding="utf-8").splitlines()
        if line.startswith(("ExecStart=", "ExecStartPre="))
    ]
    assert sorted(" ".join(command) for command in commands) == ["db upgrade", "health", "run"]
    for command in commands:
        result = CliRunner().invoke(main, [*command, "--help"])
        assert result.exit_code == 0, (command, result.output)
