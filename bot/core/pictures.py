"""Board pictures in the caller's language and theme, drawn by the painter's processes."""

from __future__ import annotations

from functools import partial

from bot.core.context import Context
from bot.core.painter import Painter
from rendering import DEFAULT_LABELS, BoardView, LastPlay, render_board


class BoardPictures:
    """Draws boards (or nothing, when pictures are turned off: the console, some tests)."""

    def __init__(self, painter: Painter, enabled: bool = True) -> None:
        self._painter = painter
        self.enabled = enabled

    async def draw(
        self,
        context: Context,
        view: BoardView,
        names: list[str],
        last: LastPlay | None,
        perspective: int,
    ) -> bytes | None:
        if not self.enabled:
            return None
        _ = context._
        labels = {key: _(text) for key, text in DEFAULT_LABELS.items()}
        theme = context.user.prefs.theme
        draw = partial(
            render_board,
            view,
            perspective=perspective,
            names=names,
            last_play=last,
            labels=labels,
            theme=theme if theme in ("classic", "dark") else "classic",
        )
        return await self._painter.paint(draw)
