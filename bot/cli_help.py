"""Click commands whose help needs modules that ``gammonbot --help`` should not import.

``gammonbot --help`` lists the commands by their docstrings, which click has at once; what
only a command's own help or its run needs (the renderer's themes, the engine's levels, the
settings' descriptions) is made when click asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click

SETTINGS_WHERE = (
    "Environment variables, or NAME=value lines in a file .env in the current folder "
    "(.env.example lists them, with examples)."
)


class DeferredOptions(click.Command):
    """A command whose options are made the first time click needs them (to parse the
    command's arguments or to show its help), by ``options``, after those declared with the
    command: their choices and defaults come from modules too slow to import for every
    other command."""

    def __init__(
        self, *args: Any, options: Callable[[], Sequence[click.Parameter]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self._make_options: Callable[[], Sequence[click.Parameter]] | None = options

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        if self._make_options is not None:
            self.params.extend(self._make_options())
            self._make_options = None
        return super().get_params(ctx)


class ListsSettings(click.Command):
    """A command whose help ends with every setting: its environment variable, what it is
    for and its default, from :class:`bot.config.Settings` itself."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from bot.config import settings_help

        with formatter.section("Settings"):
            formatter.write_text(SETTINGS_WHERE)
            formatter.write_paragraph()
            formatter.write_dl(settings_help())
        super().format_epilog(ctx, formatter)
