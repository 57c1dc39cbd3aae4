"""Board pictures in the caller's language and theme, drawn by the painter's processes."""

from __future__ import annotations

from contextlib import nullcontext
from functools import partial

from bot.core.context import Context
from bot.core.runtime.admission import Admission
from bot.core.runtime.painter import Painter
from rendering import DEFAULT_LABELS, BoardView, LastPlay, render_board


class BoardPictures:
    """Draws boards (or nothing, when pictures are turned off: the console, some tests).

    While its board is drawn in the painter's process, a request gives its place among those
    computing at once to another (``admission``): the drawing process then always has the
    next board waiting, instead of idling while the places are held by requests that only
    wait for their pictures."""

    def __init__(
        self, painter: Painter, enabled: bool = True, admission: Admission | None = None
    ) -> None:
        self._painter = painter
        self.enabled = enabled
        self._admission = admission

    async def draw(
        self,
        context: Context,
        view: BoardView,
        names: list[str],
        last: LastPlay | None,
        perspective: int,
        private: bool = False,
    ) -> bytes | None:
        """The board's picture, labelled in the chat's language, or in the asker's own when
        only they see it (``private``)."""
        if not self.enabled:
            return None
        _ = context._ if private else context.for_chat
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
        async with self._admission.aside() if self._admission else nullcontext():
            return await self._painter.paint(draw)
