"""Column widths of the roll table, sized to the translated headings.

The rolls come in blocks, each its own fixed-layout table (see ``static/check.css``), so the
columns must have set widths to line up. A fixed width that suits "Game" cuts "Partie" in two,
so each width is made from the longest word of its heading and the widest value below it, in
``ch`` (the width of a "0": about an average letter of the table's font, bold or not), plus
the cell padding ``--pad``. The names column takes the rest, at least ``--names``; the
stylesheet sets both per screen width.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.pages.check_data import RecordedRoll

RESULT_HEADING = "✓/✗"


def _longest_word(label: str) -> int:
    return max((len(word) for word in label.split()), default=0)


def roll_column_css(headings: Mapping[str, str], rolls: Sequence[RecordedRoll]) -> str:
    """CSS widths for the columns ``c-number``, ``c-game``, ``c-recorded`` and ``c-computed``
    (``c-result`` holds one mark), and a minimum width that keeps the names column readable. The
    minimum is on the blocks, not their tables: a block's paint containment would cut off a
    table wider than the block, where the block's own width makes the page scroll sideways.

    >>> headings = {"col_number": "No.", "col_game": "Game", "col_recorded": "Recorded",
    ...     "col_computed": "Computed"}
    >>> print(roll_column_css(headings, []), end="")
    #rolls .c-number { width: calc(3ch + var(--pad)); }
    #rolls .c-game { width: calc(4ch + var(--pad)); }
    #rolls .c-recorded { width: calc(8ch + var(--pad)); }
    #rolls .c-computed { width: calc(8ch + var(--pad)); }
    #rolls .c-result { width: calc(3ch + var(--pad)); }
    #rolls .chunk { min-width: calc(26ch + 5 * var(--pad) + var(--names)); }
    """
    last = max((roll.nonce + 1 for roll in rolls), default=1)
    games = max((roll.game for roll in rolls), default=1)
    widest = {
        "number": (headings["col_number"], len(str(last))),
        "game": (headings["col_game"], len(str(games))),
        "recorded": (headings["col_recorded"], len("6-6")),
        "computed": (headings["col_computed"], len("6-6")),
        "result": (RESULT_HEADING, 1),
    }
    widths = {name: max(_longest_word(heading), value) for name, (heading, value) in widest.items()}
    rules = [
        f"#rolls .c-{name} {{ width: calc({chars}ch + var(--pad)); }}"
        for name, chars in widths.items()
    ]
    total = f"{sum(widths.values())}ch + {len(widths)} * var(--pad)"
    rules.append(f"#rolls .chunk {{ min-width: calc({total} + var(--names)); }}")
    return "\n".join(rules) + "\n"
