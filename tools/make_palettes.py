"""Choose the stored board and animation palettes again and write rendering/stored_palettes.py.

    python tools/make_palettes.py

Run it after changing a theme, the sample boards (rendering/palette_samples.py) or what a
board draws: tests/rendering/test_palette.py fails while a palette a drawing process warms up
with is missing, and checks the stored palettes' boards against what was drawn.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gammon import Variant  # noqa: E402
from rendering.board import DEFAULT_WIDTH, choose_palette  # noqa: E402
from rendering.palette_store import palette_key  # noqa: E402
from rendering.replay import ANIMATION_WIDTH, GIF_COLOURS  # noqa: E402
from rendering.theme import THEMES  # noqa: E402

TARGET = ROOT / "rendering" / "stored_palettes.py"
HEADER = '''"""The board and animation palettes of both themes at the default widths, chosen
ahead of time (:mod:`rendering.palette_store`). Written by tools/make_palettes.py: do not edit."""

from __future__ import annotations

from typing import Final

PALETTES: Final[dict[str, str]] = {
'''


def main() -> None:
    lines = [HEADER]
    for theme in THEMES.values():
        for width, colours in ((DEFAULT_WIDTH, 256), (ANIMATION_WIDTH, GIF_COLOURS)):
            for variant in Variant:
                palette = choose_palette(theme, width, variant, colours)
                key = palette_key(theme, width, variant, colours)
                data = bytes(palette.getpalette() or ()).hex()
                about = f"{theme.name}, {width} px, {variant.value}, {colours} colours"
                lines.append(f"    # {about}\n")
                lines.append(f'    "{key}": (\n')
                lines.extend(f'        "{data[i : i + 80]}"\n' for i in range(0, len(data), 80))
                lines.append("    ),\n")
    lines.append("}\n")
    TARGET.write_text("".join(lines))


if __name__ == "__main__":
    main()
