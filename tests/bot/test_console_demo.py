"""``gammonbot console --demo``: known dice from a published seed, on a throwaway database.

The seed's definition is taken from the documentation (docs/fairness.md says: the SHA-256 of
the text "gammonbot demo"), computed here with hashlib, not read from the code.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from tests.bot.test_console import console_environment

DOCUMENTED_SEED = hashlib.sha256(b"gammonbot demo").digest()


def gammonbot(
    tmp_path: Path, arguments: list[str], lines: list[str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *arguments],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=tmp_path,
        env=console_environment(tmp_path),
        timeout=120,
        check=False,
    )


def test_every_demo_session_deals_the_same_dice_from_the_documented_seed(tmp_path: Path) -> None:
    lines = ["alice: /challenge @bob 3", "alice: /verify", "bob: [Accept]"]
    first, second = (gammonbot(tmp_path, ["console", "--demo"], lines) for _ in range(2))
    for done in (first, second):
        assert done.returncode == 0, done.stderr
        assert hashlib.sha256(DOCUMENTED_SEED).hexdigest() in done.stdout
        assert "Opening roll: " in done.stdout
    # The second session starts afresh (no match left from the first) and rolls alike.
    assert first.stdout == second.stdout
    # Nothing was written to the database the settings name.
    assert not (tmp_path / "console.db").exists()


def test_without_demo_the_seed_is_a_fresh_secret(tmp_path: Path) -> None:
    done = gammonbot(tmp_path, ["console"], ["alice: /challenge @bob 3"])
    assert done.returncode == 0, done.stderr
    assert "Fair dice, commitment " in done.stdout
    assert hashlib.sha256(DOCUMENTED_SEED).hexdigest()[:12] not in done.stdout


def test_a_finished_demo_match_reveals_the_seed_and_verifies(tmp_path: Path) -> None:
    lines = [
        "alice: /challenge @bob 1",
        "bob: [Accept]",
        "bob: /resign",  # bob moves first with the demo's dice
        "bob: [Resign]",
        "alice: [Accept]",
        "alice: /verify",  # the seed is revealed once the match is over
    ]
    done = gammonbot(tmp_path, ["console", "--demo"], lines)
    assert done.returncode == 0, done.stderr
    assert "Match over: alice wins 1–0." in done.stdout
    assert DOCUMENTED_SEED.hex() in done.stdout  # revealed at the end, as for every match
    transcript = tmp_path / "boards" / "match-1-transcript.json"
    assert json.loads(transcript.read_text(encoding="utf-8"))["server_seed"] == (
        DOCUMENTED_SEED.hex()
    )
    verified = gammonbot(tmp_path, ["verify", str(transcript)], [])
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith("OK: ")


def test_the_platforms_cannot_be_started_with_known_dice(tmp_path: Path) -> None:
    done = gammonbot(tmp_path, ["run", "--demo"], [])
    assert done.returncode == 2
    assert "No such option" in done.stderr
    assert "--demo" in done.stderr
