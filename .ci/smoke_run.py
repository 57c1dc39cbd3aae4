"""CI: the README's run command on a plain install, driven as a newcomer would first try it.

Runs the ``gammonbot`` found on PATH (the plain ``pip install -e .`` that .ci/run made) in a
fresh temporary folder with no ``.env`` and no settings in the environment, so ``gammonbot
run`` opens the console chat on a new SQLite file there. It asks for /help, challenges,
accepts, and checks the answers, the board picture written and that nothing failed. Standard
library only: it must run before anything but the plain install exists.

Exits 0 when everything was there; else names what was missing on stderr and exits 1.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPT = ["alice: /help", "alice: /challenge @bob 3", "bob: [Accept]"]
# What each input line's answer must hold (without a terminal each answer ends with "--").
EXPECTED = [
    ["/challenge @user", "/move 13/10"],
    ["alice challenges bob to a 3-point match", "[Accept]"],
    ["Opening roll: alice ", "(picture: "],
]
# Every setting the bot reads comes from these names; none may leak in from CI's environment.
SETTING_PREFIXES = ("DATABASE_", "DISCORD_", "TELEGRAM_", "WEB_", "CONSOLE_", "CLOCK_", "LOG_")
TIMEOUT_SECONDS = 300
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class SmokeError(Exception):
    """What a newcomer would have seen go wrong."""


def clean_environment() -> dict[str, str]:
    environment = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(SETTING_PREFIXES) and name != "PYTHONPATH"
    }
    environment["PYTHONUTF8"] = "1"
    return environment


def gammonbot(
    executable: str, arguments: list[str], folder: Path, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    shown = f"gammonbot {' '.join(arguments)}"
    try:
        done = subprocess.run(
            [executable, *arguments],
            input=stdin,
            capture_output=True,
            text=True,
            encoding="utf-8",
            cwd=folder,
            env=clean_environment(),
            timeout=TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise SmokeError(f"{shown} ran past {TIMEOUT_SECONDS} s") from None
    output = f"--- stdout:\n{done.stdout}--- stderr:\n{done.stderr}"
    if "Traceback" in done.stdout + done.stderr:
        raise SmokeError(f"{shown} printed a traceback\n{output}")
    if done.returncode != 0:
        raise SmokeError(f"{shown} exited with {done.returncode}\n{output}")
    return done


def check_help(executable: str, folder: Path) -> None:
    listed = gammonbot(executable, ["--help"], folder).stdout
    if "run " not in listed or "console " not in listed:
        raise SmokeError(f"gammonbot --help does not list run and console:\n{listed}")
    settings = gammonbot(executable, ["run", "--help"], folder).stdout
    for needed in ("DATABASE_URL", "TELEGRAM_TOKEN", ".env.example"):
        if needed not in settings:
            raise SmokeError(f"gammonbot run --help does not mention {needed}:\n{settings}")


def check_console(executable: str, folder: Path) -> None:
    done = gammonbot(executable, ["run"], folder, "".join(f"{line}\n" for line in SCRIPT))
    said = done.stderr
    if "starting the console chat" not in said:
        raise SmokeError(f"gammonbot run did not say it opens the console chat:\n{said}")
    if f"Using database gammonbot.db in {folder}" not in said:
        raise SmokeError(f"gammonbot run did not say it uses gammonbot.db in {folder}:\n{said}")
    answers = done.stdout.split("--\n")
    if len(answers) != len(SCRIPT) + 1 or answers[-1].strip():
        raise SmokeError(f"expected {len(SCRIPT)} answers, each ended by a line --:\n{done.stdout}")
    for line, answer, expected in zip(SCRIPT, answers, EXPECTED, strict=False):
        for text in expected:
            if text not in answer:
                raise SmokeError(f"the answer to {line!r} lacks {text!r}:\n{answer}")
    check_picture(answers[2], folder)
    if not (folder / "gammonbot.db").is_file():
        raise SmokeError(f"no database file gammonbot.db in {folder}")


def check_picture(answer: str, folder: Path) -> None:
    """The board of the accepted match, as a PNG file where the answer says."""
    named = re.search(r"\(picture: (?P<path>[^)\n]+)\)", answer)
    if named is None:
        raise SmokeError(f"the accepted match shows no picture:\n{answer}")
    picture = folder / named["path"]
    if not picture.is_file():
        raise SmokeError(f"the board picture {picture} was not written")
    with picture.open("rb") as handle:
        if handle.read(len(PNG_SIGNATURE)) != PNG_SIGNATURE:
            raise SmokeError(f"the board picture {picture} is no PNG file")


def main() -> int:
    executable = shutil.which("gammonbot")
    if executable is None:
        print("smoke run: no gammonbot command on PATH after the install", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="gammonbot-smoke-") as name:
        folder = Path(name).resolve()
        try:
            check_help(executable, folder)
            check_console(executable, folder)
        except SmokeError as failure:
            print(f"smoke run of the README's run command failed: {failure}", file=sys.stderr)
            return 1
    print("smoke run: gammonbot run answered /help, a challenge and an accepted board")
    return 0


if __name__ == "__main__":
    sys.exit(main())
