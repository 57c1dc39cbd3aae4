"""The examples of the README and of docs/, run as they are written there.

The code blocks are read out of the documents, so an example that is changed (or a command that
changes under it) fails here. ``gammonbot ARGS`` runs as ``python -m bot.cli ARGS`` with this
interpreter, which is what the entry point calls (checked below), in a subprocess in a fresh
folder: no ``.env``, no tokens, a temporary SQLite file.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shlex
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from bot.core.model import ChatRef
from bot.core.service import Core
from gammon.actions import Move, OpeningRoll, Roll
from gammon.fair_dice import commitment
from gammon.flow import Phase, advance, apply, new_match
from gammon.mat_format import export_mat
from gammon.match_rules import MatchRules
from storage import Database
from tests.bot.scripted import PLATFORM, Room, headline, play_to_the_end
from tests.documents import DOCS, README, ROOT, Block, block
from tests.rendering.compare import difference


def shell_session(shown: Block) -> list[tuple[str, list[str]]]:
    """The ``$ command`` lines of a block, each with the output lines shown after it."""
    session: list[tuple[str, list[str]]] = []
    for line in shown.lines:
        if line.startswith("$ "):
            session.append((line[2:], []))
        elif session:
            session[-1][1].append(line)
    assert session, f"{shown.document.name}: the block shows no $ command"
    return session


@dataclass(frozen=True)
class Command:
    arguments: list[str]  # after "gammonbot"
    stdin: str | None  # what ``echo`` pipes into it


def parse_command(line: str) -> Command:
    """``gammonbot ARGS`` or ``echo 'TEXT' | gammonbot ARGS`` (a ``# comment`` is dropped)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|")
    lexer.whitespace_split = True
    words = list(lexer)
    stdin = None
    if words[:1] == ["echo"]:
        assert words[2] == "|", f"cannot run {line!r}"
        stdin, words = words[1] + "\n", words[3:]
    assert words[:1] == ["gammonbot"], f"not a gammonbot command: {line!r}"
    return Command(words[1:], stdin)


def gammonbot(
    command: Command, cwd: Path, environment: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *command.arguments],
        input=command.stdin or "",  # stdin is closed after it
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=environment or clean_environment(cwd),
        timeout=120,
        check=False,
    )


def clean_environment(folder: Path, *, python_path: tuple[Path, ...] = ()) -> dict[str, str]:
    """The environment of a bot without tokens, on a SQLite file in ``folder``."""
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'gammonbot.db'}",
        "CONSOLE_IMAGE_DIR": str(folder / "boards"),
        "PYTHONPATH": os.pathsep.join(str(path) for path in [*python_path, ROOT]),
        "PYTHONUTF8": "1",
    }
    for name in ("DISCORD_TOKEN", "TELEGRAM_TOKEN", "DISCORD_GUILD_ID"):
        environment.pop(name, None)
    return environment


def test_gammonbot_is_bot_cli_main() -> None:
    """What lets the tests below run ``gammonbot`` as ``python -m bot.cli``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["scripts"]["gammonbot"] == "bot.cli:main"


def test_the_moves_example_answers_exactly_as_shown(tmp_path: Path) -> None:
    [(line, shown)] = shell_session(
        block(DOCS / "gammon-library.md", "gammonbot moves", "sh", "| gammonbot moves")
    )
    command = parse_command(line)
    assert command.stdin is not None
    done = gammonbot(command, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == shown  # character for character
    assert json.loads(done.stdout) == json.loads(shown[0])


async def test_the_verify_example_checks_a_transcript_of_a_played_match(tmp_path: Path) -> None:
    [(line, shown)] = shell_session(
        block(DOCS / "fairness.md", "Checking", "sh", "gammonbot verify")
    )
    command = parse_command(line)
    assert command.arguments[0] == "verify"
    # A whole 1-point match through the command layer; its ending carries the transcript.
    database = Database(f"sqlite:///{tmp_path / 'match.db'}")
    await database.migrate()
    seed = hashlib.sha256(b"readme-verify").digest()
    core = Core(database, render_images=False, server_seeds=lambda: seed)
    room = Room(core, ChatRef(PLATFORM, "readme"))
    try:
        await room.command("anna", "/challenge @bob 1")
        await room.press("bob", "Accept")
        await play_to_the_end(room, ("anna", "bob"), seed=7)
    finally:
        await database.close()
    [ending] = [message for message in room.log if headline(message).startswith("Match over")]
    [data] = [file.data for file in ending.attachments if file.filename.endswith(".json")]
    (tmp_path / command.arguments[1]).write_bytes(data)
    rolls = len(json.loads(data)["rolls"])

    done = gammonbot(command, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    # The README shows a longer match: the number of rolls is the one thing that differs.
    assert done.stdout.splitlines() == [re.sub(r"\d+", str(rolls), text) for text in shown]


# The demonstration's server seed, as the documentation defines it (docs/fairness.md).
_DEMO_SEED = hashlib.sha256(b"gammonbot demo").digest()


def test_the_console_example_plays_as_described(tmp_path: Path) -> None:
    """The example is typed into ``gammonbot console --demo`` as written. Each ``// TEXT``
    line says what the bot answers to the line before it: that text must be in the answer."""
    [start] = [
        parse_command(line)
        for line in block(README, "Run the bot", "sh", "gammonbot console").lines
        if line.strip()
    ]
    assert start.arguments == ["console", "--demo"]
    lines = list(block(README, "Run the bot", "text", ": /challenge").lines)
    script = "".join(f"{line}\n" for line in lines)
    done = gammonbot(Command(start.arguments, script), tmp_path)

    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    blocks = done.stdout.split("--\n")
    assert len(blocks) == len(lines) + 1  # one block per input line, then nothing
    assert blocks[-1] == ""
    said = ""  # the answer to the latest line that was not a comment
    claims = 0
    for number, (line, answer) in enumerate(zip(lines, blocks[:-1], strict=True)):
        if line.startswith("//"):
            assert answer == "", f"the console did not skip {line!r}"
            claim = line.removeprefix("//").strip()
            assert claim in said, f"the README says {claim!r}, the bot said:\n{said}"
            claims += 1
            continue
        said = answer
        # Every line of the example is understood and answered where it was typed.
        assert answer.strip(), f"no answer to {line!r}"
        assert not answer.startswith("?"), f"the console did not take {line!r}: {answer}"
        assert "[bot → only " not in answer, f"{line!r} was refused: {answer}"
        room = re.match(r"#(\S+) ", line)
        assert f"[bot → #{room[1] if room else 'main'}]" in answer
        button = re.search(r": \[(.+)\]$", line)
        if button:  # pressed on an earlier message
            assert f"[{button[1]}]" in "".join(blocks[:number])
    assert claims >= 3
    moves = [answer for line, answer in zip(lines, blocks, strict=False) if "/move " in line]
    assert len(moves) >= 2  # the opening roll's winner moves, and the other player after a roll
    assert not any("not your turn" in answer.lower() for answer in blocks)
    # The dice came from the documented seed; the boards were drawn into boards/.
    assert f"commitment {commitment(_DEMO_SEED)[:12]}…" in blocks[0]
    assert len(list((tmp_path / "boards").glob("board-*.png"))) >= 3


def test_the_render_examples_write_pictures(tmp_path: Path) -> None:
    found = block(DOCS / "gammon-library.md", "Board pictures", "sh", "gammonbot render")
    commands = [parse_command(line) for line in found.lines if line.strip()]
    assert len(commands) == 3
    for command in commands:
        assert command.arguments[0] == "render"
        output = command.arguments[command.arguments.index("-o") + 1]
        (tmp_path / output).parent.mkdir(parents=True, exist_ok=True)
        done = gammonbot(command, tmp_path)
        assert done.returncode == 0, done.stderr
        assert re.fullmatch(rf"wrote {re.escape(output)} \(\d+ KB\)\n", done.stdout)
        with Image.open(tmp_path / output) as picture:
            assert picture.format == "PNG"
            assert picture.width == 960  # the default size


def test_the_readmes_picture_is_what_its_documented_command_draws(tmp_path: Path) -> None:
    """docs/images/board.png is drawn by the first render example; drawn again now it must
    look the same (within the golden images' tolerance: fonts and Pillow shift a few pixels)."""
    assert "(docs/images/board.png)" in README.read_text(encoding="utf-8")
    found = block(DOCS / "gammon-library.md", "Board pictures", "sh", "docs/images/board.png")
    [command] = [parse_command(line) for line in found.lines if "docs/images/board.png" in line]
    (tmp_path / "docs" / "images").mkdir(parents=True)
    done = gammonbot(command, tmp_path)
    assert done.returncode == 0, done.stderr
    with (
        Image.open(tmp_path / "docs" / "images" / "board.png") as drawn,
        Image.open(ROOT / "docs" / "images" / "board.png") as committed,
    ):
        assert drawn.size == committed.size
        mean, far = difference(drawn, committed)
    assert mean < 1.5, f"mean difference {mean:.2f}"
    assert far < 0.003, f"{far:.2%} of pixels differ clearly"


def _random_one_point_match() -> str:
    """A finished 1-point match of random legal plays, as a .mat file."""
    rng = random.Random(152)  # a short game (42 plays): the default analysis takes seconds
    state = new_match(MatchRules(length=1))
    while state.phase is not Phase.FINISHED:
        if state.phase is Phase.OPENING:
            state = apply(state, OpeningRoll((rng.randint(1, 6), rng.randint(1, 6))))
        elif state.phase is Phase.ROLLING:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            state, _recorded = advance(state, Roll(state.player_on_roll, dice))
        else:
            play = rng.choice(state.legal_plays())
            state, _recorded = advance(state, Move(state.player_on_roll, str(play)))
    return export_mat(state, ["Anna", "Bob"])


def test_the_hint_and_analyse_examples_print_json(tmp_path: Path) -> None:
    found = block(DOCS / "players-guide.md", "Hints and analysis", "sh", "gammonbot analyse")
    commands = [parse_command(line) for line in found.lines if line.strip()]
    assert [command.arguments[0] for command in commands] == ["hint", "hint", "analyse", "analyse"]
    (tmp_path / "match.mat").write_text(_random_one_point_match(), encoding="utf-8")
    plays, cube, analysis, quick = (
        json.loads(gammonbot(command, tmp_path).stdout) for command in commands
    )
    assert plays["kind"] == "plays"
    assert plays["dice"] == [3, 1]
    assert plays["plays"][0]["notation"] == "8/5 6/5"  # the textbook 3-1
    assert len(plays["plays"]) == 3
    assert cube["kind"] == "cube"
    assert cube["cube"]["action"] == "No double, take"  # the opening position
    assert [player["name"] for player in analysis["players"]] == ["Anna", "Bob"]
    assert analysis["decisions"]
    assert (analysis["level"], quick["level"]) == ("world_class", "expert")
    assert len(quick["decisions"]) == len(analysis["decisions"])


def test_the_money_cube_examples_answer_as_their_comments_say(tmp_path: Path) -> None:
    """Without and with ``--jacoby``: gnubg 1.07 says "Too good to double, pass" and, with
    ``set jacoby on``, "Double, pass"."""
    found = block(DOCS / "players-guide.md", "Hints and analysis", "sh", "--jacoby")
    commands = [parse_command(line) for line in found.lines if line.strip()]
    assert len(commands) == 2
    actions = [
        json.loads(gammonbot(command, tmp_path).stdout)["cube"]["action"] for command in commands
    ]
    assert actions == ["Too good to double, pass", "Double, pass"]
