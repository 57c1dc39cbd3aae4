"""Rewrite the golden pictures after an intended change of the rendering.

    python -m tests.rendering.regenerate_goldens

Then look at every picture in tests/rendering/golden/ before committing it.
"""

from __future__ import annotations

from pathlib import Path

from tests.rendering.scenarios import SCENES
from tests.rendering.test_analysis_chart import SCENES as CHART_SCENES
from tests.rendering.test_chouette_picture import SCENES as CHOUETTE_SCENES
from tests.rendering.test_leaderboard import SCENES as LEADERBOARD_SCENES
from tests.rendering.tournament_scenes import SCENES as TOURNAMENT_SCENES

GOLDEN = Path(__file__).parent / "golden"


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    scenes = {**SCENES, **CHART_SCENES, **LEADERBOARD_SCENES, **CHOUETTE_SCENES}
    scenes |= TOURNAMENT_SCENES
    for name, scene in scenes.items():
        path = GOLDEN / f"{name}.png"
        path.write_bytes(scene())
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
