"""Buttons whose whole state is the core's action token, so they survive restarts.

A :class:`ActionButton` is a ``discord.ui.DynamicItem``: discord.py matches the ``custom_id`` of
any clicked button against :data:`TOKEN_TEMPLATE`, so no view has to be kept per message and a
board posted before a restart keeps working after it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

import discord

from bot.core.model import Button
from bot.core.tokens import KINDS

# The token format of bot.core.tokens (bg1:<verb>:<kind+id>:<version>), as a template.
TOKEN_TEMPLATE: Final = (
    rf"bg1:(?P<verb>[a-z0-9]{{1,12}}):(?P<kind>[{KINDS}])(?P<target>[0-9]{{1,12}}):"
    r"(?P<version>[0-9]{1,9})"
)
MAX_LABEL: Final = 80  # Discord's limit for a button label
MAX_BUTTONS: Final = 25  # five rows of five

Press = Callable[[discord.Interaction[Any], str], Awaitable[None]]


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TOKEN_TEMPLATE):
    """One action token as a button; a press hands the token to the client's ``press``."""

    def __init__(self, token: str, label: str = "…") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:MAX_LABEL] or "…",
                custom_id=token,
                style=discord.ButtonStyle.secondary,
            )
        )
        self.token = token

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActionButton:
        label = getattr(item, "label", None) or "…"
        return cls(match.group(0), label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        press: Press | None = getattr(interaction.client, "press", None)
        if press is not None:
            await press(interaction, self.token)


def make_view(buttons: Sequence[Button]) -> discord.ui.View | None:
    """A view holding the message's buttons (none: no view)."""
    if not buttons:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons[:MAX_BUTTONS]:
        view.add_item(ActionButton(button.token, button.label))
    return view
