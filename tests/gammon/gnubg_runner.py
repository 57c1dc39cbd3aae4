"""GNU Backgammon as the oracle of the ``.mat`` tests: our files imported and written out again.

gnubg (1.07, Debian's ``gnubg`` package) runs once for a whole batch of files, from a command
file, without a terminal: a few tenths of a second for a dozen matches. Where it is missing the
tests that need it are skipped with a notice (and fail instead where
``GAMMONBOT_GNUBG_TESTS=required``, as in CI).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from gammon.match_rules import MatchRules
from tests.gnubg_runner import gnubg_executable, gnubg_required

_SCORE = re.compile(r"The score \(after (\d+) games?\) is: .*? (-?\d+), .*? (-?\d+)")


def gnubg_path() -> Path:
    """gnubg's program, or the test is skipped (failed where it is required)."""
    found = gnubg_executable()
    if found is not None:
        return Path(found)
    reason = "GNU Backgammon (gnubg) is not installed: the tests against it are skipped"
    if gnubg_required():  # CI: never skip them
        pytest.fail(reason)
    pytest.skip(reason)


@dataclass(frozen=True)
class GnubgReading:
    """What gnubg made of one of our files: its own export of it, and the score it counts
    (games played, and each player's points) after importing it."""

    text: str
    games: int
    score: tuple[int, int]


def read_by_gnubg(
    texts: Sequence[str], rules: Sequence[MatchRules], folder: Path
) -> list[GnubgReading]:
    """Import each ``.mat`` text into gnubg (under its rules: gnubg plays money sessions by its
    own Jacoby and beaver settings, not the file's tags), ask the score, and export it again;
    one gnubg run for them all."""
    commands = ["set confirm new off", "set confirm save off"]
    for index, (text, session) in enumerate(zip(texts, rules, strict=True)):
        source, copy = folder / f"ours-{index}.mat", folder / f"gnubg-{index}.mat"
        source.write_text(text, encoding="utf-8")
        commands += [
            f"set jacoby {'on' if session.jacoby else 'off'}",
            f"set beavers {3 if session.beavers else 0}",
            f"import mat {source}",
            "show score",
            f"export match mat {copy}",
        ]
    script = folder / "commands.txt"
    script.write_text("\n".join(commands) + "\n", encoding="utf-8")
    done = subprocess.run(
        [str(gnubg_path()), "-t", "-q", "-c", str(script)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    scores = _SCORE.findall(done.stdout)
    assert len(scores) == len(texts), done.stdout[-2000:] + done.stderr[-2000:]
    return [
        GnubgReading(
            (folder / f"gnubg-{index}.mat").read_text(encoding="utf-8"),
            int(games),
            (int(first), int(second)),
        )
        for index, (games, first, second) in enumerate(scores)
    ]
