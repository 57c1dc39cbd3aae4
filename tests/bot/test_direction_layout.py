"""Arabic texts as a reader sees them: every Arabic catalog text, filled with sample names,
numbers, moves and commands and given our direction marks, is laid out by an independent
implementation of Unicode's Bidirectional Algorithm (python-bidi, which wraps the Rust crate
unicode-bidi) the way chat clients lay it out. Then each bracket pair must still enclose the
same characters and face the right way, and every left-to-right piece (a move, a command, a
Latin name, a number, an ID) must read left to right, whole.

python-bidi reorders a line (rules L1-L2) but does not draw mirrored glyphs (rule L4), and its
debug output gives each character's resolved embedding level; from those levels this test
mirrors the brackets at odd (right-to-left) levels, as rule L4 says a renderer does, and checks
its own reordering against python-bidi's.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from bidi import get_display

from bot.core.text.direction import directed_text
from bot.core.text.i18n import LOCALE_DIR, speech
from bot.core.text.texts import rules_summary
from gammon.match_rules import MatchRules

DIRECTION_MARKS = frozenset("\u200e\u200f\u2066\u2067\u2068\u2069")
ISOLATE_CONTROLS = frozenset({"LRI", "RLI", "FSI", "PDI", "WS", "BN"})
MIRRORED_GLYPH = dict(zip("()[]{}<>«»", ")(][}{><»«", strict=True))
OPENING = {"(": ")", "[": "]"}
JOINERS = frozenset("|+−/×")
_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")


def resolved_levels(line: str) -> list[int]:
    """Each character's embedding level as python-bidi resolves it (its debug output lists one
    level per byte of the UTF-8 text)."""
    debug = str(get_display(line, debug=True))
    per_byte = [int(level) for level in _LEVEL.findall(debug[debug.index("levels:") :])]
    levels = []
    offset = 0
    for char in line:
        levels.append(per_byte[offset])
        offset += len(char.encode())
    assert offset <= len(per_byte), "python-bidi's debug output changed its form"
    return levels


def visual_order(line: str) -> list[tuple[int, str]]:
    """The line as drawn from left to right: each glyph with the logical position it stands
    for, after rules L1 (trailing spaces and isolates at the paragraph's level), L2 (reverse
    from the highest level down to the lowest odd one) and L4 (mirrored glyphs at odd levels)."""
    levels = resolved_levels(line)
    paragraph = levels[0] if line[0] in "\u200f\u200e" else min(levels)
    end = len(line)
    while end and unicodedata.bidirectional(line[end - 1]) in ISOLATE_CONTROLS:
        end -= 1
        levels[end] = paragraph
    order = list(range(len(line)))
    lowest_odd = min((level for level in levels if level % 2), default=max(levels) + 1)
    for level in range(max(levels), lowest_odd - 1, -1):
        start = 0
        while start < len(order):
            if levels[order[start]] < level:
                start += 1
                continue
            stop = start
            while stop < len(order) and levels[order[stop]] >= level:
                stop += 1
            order[start:stop] = reversed(order[start:stop])
            start = stop
    assert "".join(line[index] for index in order) == get_display(line)
    return [
        (index, MIRRORED_GLYPH.get(line[index], line[index]) if levels[index] % 2 else line[index])
        for index in order
    ]


def bracket_pairs(text: str) -> Iterator[tuple[int, int]]:
    """Logical bracket pairs, as rule BD16 pairs them."""
    opened: list[int] = []
    for position, char in enumerate(text):
        if char in OPENING:
            opened.append(position)
        elif char in OPENING.values():
            for depth in range(len(opened) - 1, -1, -1):
                if OPENING[text[opened[depth]]] == char:
                    yield opened[depth], position
                    del opened[depth:]
                    break


def left_to_right_phrases(text: str) -> Iterator[str]:
    """The runs of Latin words, numbers and notation (words of printable ASCII and minus
    signs, joined by single spaces), cut at brackets whose partner lies outside the run."""
    for run in re.finditer(r"[!-~−]+(?: [!-~−]+)*", text):
        phrase = run.group(0)
        paired = {index for pair in bracket_pairs(phrase) for index in pair}
        for piece in _cut_at_unpaired(phrase, paired):
            yield from _between_separators(piece.split(" "))


def _between_separators(words: list[str]) -> Iterator[str]:
    """The runs of words with a letter or digit, joined by single spaces or by a bar between
    alternatives or an operator between terms (join | leave, 5 − E/100); any other sign
    standing alone (=, –, ·) separates them, and a sentence's punctuation at either end is not
    part of them."""
    run: list[str] = []
    for word in [*words, ""]:
        if re.search(r"[A-Za-z0-9]", word) or (word in JOINERS and run):
            run.append(word)
            continue
        while run and run[-1] in JOINERS:
            run.pop()
        joined = " ".join(run).rstrip(".,;:!?").lstrip(",;:!?")
        if joined:
            yield joined
        run = []


def _cut_at_unpaired(phrase: str, paired: set[int]) -> list[str]:
    pieces, start = [], 0
    for index, char in enumerate(phrase):
        if char in "()[]" and index not in paired:
            pieces.append(phrase[start:index])
            start = index + 1
    return [*pieces, phrase[start:]]


def assert_reads_correctly(line: str, right_to_left_words: tuple[str, ...]) -> None:
    drawn = visual_order(line)
    position = {index: place for place, (index, _) in enumerate(drawn)}
    marks = {index for index, char in enumerate(line) if char in DIRECTION_MARKS}
    for opening, closing in bracket_pairs(line):
        left, right = sorted((position[opening], position[closing]))
        kind = line[opening]
        assert (drawn[left][1], drawn[right][1]) == (kind, OPENING[kind]), (
            f"the brackets of {line[opening : closing + 1]!r} do not face each other"
        )
        inside = set(range(opening + 1, closing)) - marks
        shown_inside = {index for index, _ in drawn[left + 1 : right]} - marks
        assert shown_inside == inside, (
            f"{line[opening : closing + 1]!r} does not enclose the same text when drawn"
        )
    shown = "".join(glyph for _, glyph in drawn if glyph not in DIRECTION_MARKS)
    unmarked = "".join(char for char in line if char not in DIRECTION_MARKS)
    for phrase in left_to_right_phrases(unmarked):
        assert phrase in shown, f"{phrase!r} does not read left to right in {shown!r}"
    for word in right_to_left_words:
        if word in line:
            assert word[::-1] in shown, f"{word!r} does not read right to left in {shown!r}"


ARABIC_NAMES = ("سارة", "ليلى")


def _samples(latin_names: bool) -> dict[str, str]:
    _ = speech("ar")
    first, second = ("carol", "dima") if latin_names else ARABIC_NAMES
    match = rules_summary(_, MatchRules(length=11, cube=False), 72 * 3600)
    money = rules_summary(_, MatchRules(length=0, jacoby=True), 90 * 60)
    names = dict.fromkeys(("name", "a", "first", "challenger", "winner", "box"), first)
    names |= dict.fromkeys(("b", "second", "challenged", "other", "captain", "bot"), second)
    return {
        **names,
        "names": f"{first}، {second}",
        "play": "13/10* 6/5",
        "plays": "13/10* 6/5, 24/18 13/11",
        "line": "24/18 13/11",
        "roll": "6-4",
        "dice": "5-5",
        "command": "take",
        "topics": "overview, doubling, crawford",
        "choices": "money, 1-25",
        "url": "https://example.org/matches/12",
        "commitment": "9f86d081884c7d65",
        "seed0": "telegram:4711",
        "seed1": "/seed lucky 7",
        "nd": "+0.412",
        "dt": "+0.530",
        "dp": "+1.000",
        "rate": "-4.5",
        "rules": match,
        "summary": money,
        "game": _("backgammon"),
        "time": "3 س",
        "hours": "72",
        "minutes": "30",
        "mine": "5",
        "theirs": "2",
        "changes": f"{first} 1,510.0 (+10.0) · {second} 1,490.0 (−10.0)",
        "scores": f"{first} 3 – 1 {second}",
    }


class _Samples(dict[str, object]):
    def __missing__(self, key: str) -> object:
        return 7  # counts, numbers, ids, points: a number (an int, for "{difference:+d}")


def _arabic_entries() -> Iterator[tuple[str, str]]:
    with Path(LOCALE_DIR, "ar", "LC_MESSAGES", "messages.po").open("rb") as file:
        catalog = read_po(file)
    for message in catalog:
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        key = message.id if isinstance(message.id, str) else message.id[0]
        for form, text in enumerate(texts):
            if key and re.search(r"[()\[\]0-9A-Za-z{]", text):
                yield f"{key[:48]}[{form}]", text


ENTRIES = dict(_arabic_entries())


@pytest.mark.parametrize("text", ENTRIES.values(), ids=ENTRIES.keys())
@pytest.mark.parametrize("latin_names", [True, False], ids=["latin names", "arabic names"])
def test_every_arabic_text_reads_correctly_when_drawn(text: str, latin_names: bool) -> None:
    filled = text.format_map(_Samples(_samples(latin_names)))
    for line in directed_text(filled, "ar").split("\n"):
        if line:
            assert_reads_correctly(line, ARABIC_NAMES)


def test_the_checks_see_what_is_wrong() -> None:
    """The checks themselves: a bracket isolated apart from its partner, and a play whose
    neutral signs the line reverses."""
    with pytest.raises(AssertionError, match="do not face each other"):
        assert_reads_correctly("\u200fمباراة \u2066(72\u2069 س لكل نقلة)", ())
    with pytest.raises(AssertionError, match="does not read left to right"):
        assert_reads_correctly("\u200fلعب 13/10* 6/5 ثم", ())
    assert_reads_correctly("\u200fمباراة (\u206672\u2069 س لكل نقلة)", ())
    assert_reads_correctly("\u200fلعب \u206613/10* 6/5\u2069 ثم", ())


def test_a_rules_summary_with_a_time_limit_keeps_its_brackets() -> None:
    """The defect as players saw it: "(72 س لكل نقلة)" drew as "72) س لكل نقلة)"."""
    summary = rules_summary(speech("ar"), MatchRules(length=11), 72 * 3600)
    assert "(" in summary
    assert_reads_correctly(directed_text(summary, "ar"), ())
