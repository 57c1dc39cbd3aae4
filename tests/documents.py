"""Reading the fenced code blocks and the headings of the README and of docs/*.md, for the
tests that run the documented examples as they are written."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
_FENCE = re.compile(r"^(?P<indent> *)```(?P<language>\S*)\s*$")


@dataclass(frozen=True)
class Block:
    """A fenced code block of a document: the heading it is under, its language, its lines
    (without the indentation of the fence)."""

    document: Path
    heading: str
    language: str
    lines: tuple[str, ...]


def documents() -> list[Path]:
    """The README and every page of docs/."""
    return [README, *sorted(DOCS.glob("*.md"))]


def blocks_of(document: Path) -> list[Block]:
    blocks: list[Block] = []
    heading = ""
    lines = document.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence is None:
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
            index += 1
            continue
        indent = len(fence["indent"])
        body: list[str] = []
        index += 1
        while lines[index].strip() != "```":
            body.append(lines[index][indent:])
            index += 1
        blocks.append(Block(document, heading, fence["language"], tuple(body)))
        index += 1
    return blocks


def block(document: Path, heading: str, language: str, containing: str) -> Block:
    """The one block of ``document`` under a heading (a part of its text) that holds
    ``containing``."""
    found = [
        candidate
        for candidate in blocks_of(document)
        if heading in candidate.heading
        and candidate.language == language
        and any(containing in line for line in candidate.lines)
    ]
    assert len(found) == 1, f"{document.name}: expected one {language} block with {containing!r}"
    return found[0]


def headings(document: Path) -> list[str]:
    """The headings of ``document`` outside its code blocks."""
    found: list[str] = []
    fenced = False
    for line in document.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.append(line.lstrip("#").strip())
    return found


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens.

    >>> anchor("Board pictures: `rendering`"), anchor("5. Checking")
    ('board-pictures-rendering', '5-checking')
    """
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
