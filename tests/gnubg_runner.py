"""Running GNU Backgammon (Debian's ``gnubg`` package) for reference cube and match analyses.

Tests that need gnubg skip when it is not installed, unless ``GAMMONBOT_GNUBG_TESTS=required``
(as CI sets it): then they fail, so a missing gnubg cannot pass for agreement.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).with_name("gnubg_cube_script.py")
ANALYSIS_SCRIPT = Path(__file__).with_name("gnubg_analysis_script.py")
_CANDIDATES = ("gnubg", "/usr/games/gnubg")


def gnubg_executable() -> str | None:
    """The gnubg program, or None when it is not installed."""
    for candidate in _CANDIDATES:
        found = shutil.which(candidate)
        if found is not None:
            return found
    return None


def gnubg_required() -> bool:
    return os.environ.get("GAMMONBOT_GNUBG_TESTS", "") == "required"


def cube_analyses(requests: Sequence[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
    """gnubg's answers to ``requests`` (see ``gnubg_cube_script.py`` for both shapes), in order.
    Raises RuntimeError when gnubg is missing or gives no answer."""
    return run_script(SCRIPT, requests, timeout)


def match_analyses(mat_texts: Sequence[str], plies: int, timeout: float) -> list[dict[str, Any]]:
    """gnubg's analyses of the matches in ``mat_texts`` at ``plies`` (see
    ``gnubg_analysis_script.py``), in order. Raises RuntimeError as :func:`cube_analyses`."""
    with tempfile.TemporaryDirectory(prefix="gnubg-mat-") as folder:
        requests = []
        for number, text in enumerate(mat_texts):
            path = Path(folder) / f"match-{number}.mat"
            path.write_text(text, encoding="utf-8")
            requests.append({"mat": str(path), "plies": plies})
        return run_script(ANALYSIS_SCRIPT, requests, timeout)


def run_script(
    script: Path, requests: Sequence[dict[str, Any]], timeout: float
) -> list[dict[str, Any]]:
    """Run ``script`` in gnubg's Python with ``requests``; its answers, one per request."""
    program = gnubg_executable()
    if program is None:
        raise RuntimeError("GNU Backgammon (gnubg) is not installed")
    with tempfile.TemporaryDirectory(prefix="gnubg-run-") as folder:
        asked = Path(folder) / "requests.json"
        answered = Path(folder) / "results.json"
        asked.write_text(json.dumps(list(requests)), encoding="utf-8")
        environment = dict(
            os.environ,
            GAMMONBOT_GNUBG_REQUESTS=str(asked),
            GAMMONBOT_GNUBG_RESULTS=str(answered),
            HOME=folder,  # gnubg writes its settings folder there, not into the user's home
            PYTHONPATH=str(script.parent),  # for the scripts' shared gnubg_script_io
        )
        completed = subprocess.run(
            [program, "-t", "-q", "-p", str(script)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=environment,
            timeout=timeout,
            check=False,
        )
        if not answered.exists():
            raise RuntimeError(
                f"gnubg gave no answers (exit {completed.returncode}): "
                f"{completed.stderr.decode(errors='replace')[-2000:]}"
            )
        answers: list[dict[str, Any]] = json.loads(answered.read_text(encoding="utf-8"))
    if len(answers) != len(requests):
        raise RuntimeError(f"gnubg answered {len(answers)} of {len(requests)} requests")
    return answers
