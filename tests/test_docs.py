"""The documentation holds together: its Python examples run and print what they say, its links
lead somewhere, and its lists of commands and settings are complete.

The shell examples (``gammonbot ...``) are run by ``tests/test_readme.py``.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import random
import re
from pathlib import Path

import pytest

from bot.config import Settings
from bot.core import registry
from gammon import fair_dice
from tests.documents import DOCS, README, ROOT, Block, anchor, block, blocks_of, documents, headings

_LINK = re.compile(r"\]\((?P<target>[^)\s]+)\)")


def _pycon_blocks() -> list[Block]:
    return [found for page in documents() for found in blocks_of(page) if found.language == "pycon"]


@pytest.mark.parametrize(
    "example", _pycon_blocks(), ids=lambda found: f"{found.document.name}:{found.heading}"
)
def test_the_interactive_examples_print_what_they_show(example: Block) -> None:
    text = "\n".join(example.lines) + "\n"
    test = doctest.DocTestParser().get_doctest(text, {}, example.heading, None, 0)
    assert test.examples, "a pycon block without >>> lines"
    output = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=output.write)
    assert runner.failures == 0, output.getvalue()


def test_there_are_interactive_examples() -> None:
    assert len(_pycon_blocks()) >= 3


def _fairness_snippet() -> tuple[dict[str, object], list[str], list[str]]:
    """Run the stand-alone Python of docs/fairness.md: its namespace, what it printed, and what
    its comments say each ``print`` prints."""
    found = block(DOCS / "fairness.md", "Every roll", "python", "def roll(")
    code = "\n".join(found.lines)
    claimed = [line.split("#", 1)[1].strip() for line in found.lines if line.startswith("print(")]
    namespace: dict[str, object] = {}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/fairness.md", "exec"), namespace)
    return namespace, printed.getvalue().splitlines(), claimed


def test_the_fairness_snippet_prints_what_its_comments_say() -> None:
    _namespace, printed, claimed = _fairness_snippet()
    assert len(claimed) == 2
    assert printed == claimed


def test_the_fairness_snippet_rolls_as_the_bot_does() -> None:
    """The page's twenty lines of standard-library Python are a second implementation of the
    scheme: they must agree with the bot's on any seed, client seed and nonce."""
    namespace, _printed, _claimed = _fairness_snippet()
    documented_roll = namespace["roll"]
    assert callable(documented_roll)
    rng = random.Random(35)
    for _ in range(300):
        seed = rng.randbytes(32)
        client = "".join(rng.choice("ab:|é7 ") for _ in range(rng.randint(0, 20)))
        nonce = rng.randint(0, 10_000)
        assert documented_roll(seed, client, nonce) == fair_dice.roll(seed, client, nonce)


def test_the_documented_transcript_verifies() -> None:
    found = block(DOCS / "fairness.md", "transcript", "json", '"scheme"')
    transcript = fair_dice.load_transcript("\n".join(found.lines))
    result = fair_dice.verify_transcript(transcript)
    assert result.ok, result.problem
    assert result.rolls_checked == len(transcript["rolls"]) >= 2


def _links() -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    for page in documents():
        text = page.read_text(encoding="utf-8")
        text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # not inside code blocks
        found.extend((page, match["target"]) for match in _LINK.finditer(text))
    return found


def test_every_link_between_the_documents_leads_somewhere() -> None:
    links = [(page, target) for page, target in _links() if "://" not in target]
    assert len(links) >= 30
    for page, target in links:
        path, _, fragment = target.partition("#")
        destination = (page.parent / path).resolve() if path else page
        assert destination.exists(), f"{page.name}: {target} does not exist"
        assert destination.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"
        if fragment:
            assert destination.suffix == ".md", f"{page.name}: {target}"
            anchors = {anchor(heading) for heading in headings(destination)}
            assert fragment in anchors, f"{page.name}: no heading for #{fragment} in {path}"


def _section(document: Path, heading: str) -> str:
    """The text under ``heading`` up to the next heading of the same level or higher."""
    text = document.read_text(encoding="utf-8")
    start = re.search(rf"^(#+) {re.escape(heading)}\s*$", text, flags=re.MULTILINE)
    assert start is not None, f"{document.name}: no heading {heading!r}"
    level = len(start[1])
    rest = text[start.end() :]
    end = re.search(rf"^#{{1,{level}}} ", rest, flags=re.MULTILINE)
    return rest[: end.start()] if end else rest


@pytest.mark.parametrize(
    ("document", "heading"), [(README, "Commands"), (DOCS / "players-guide.md", "Commands")]
)
def test_every_command_is_listed(document: Path, heading: str) -> None:
    section = _section(document, heading)
    listed = [command.name for command in registry.COMMANDS if command.listed]
    assert len(listed) >= 20
    missing = [name for name in listed if not re.search(rf"`/{name}\b", section)]
    assert missing == [], f"{document.name} does not list {missing}"


def test_every_setting_is_in_the_administrators_guide() -> None:
    section = _section(DOCS / "admins-guide.md", "Settings")
    missing = [name.upper() for name in Settings.model_fields if f"`{name.upper()}`" not in section]
    assert missing == []


def test_the_readme_stays_short() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) < 300
    for command in (
        "python -m pip install -e . && gammonbot run",
        'python -m pip install -e ".[test]" && python -m pytest',
    ):
        assert any(block.lines == (command,) for block in blocks_of(README)), command


def test_the_ci_runs_the_readmes_test_command() -> None:
    [command] = [
        found.lines[0] for found in blocks_of(README) if found.lines and "pytest" in found.lines[0]
    ]
    assert command in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
