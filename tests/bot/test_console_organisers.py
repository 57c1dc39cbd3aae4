"""Organisers on the console (``/defaults organisers=…``): the users a chat's defaults name open
and run its tournaments besides its administrators; the others are told who may; clearing the
setting takes the right away (the organiser who opened a tournament still runs it)."""

from __future__ import annotations

import io

from bot.console_app.chat import ConsoleChat
from tests.bot.scripted import Room

OPENED = "Cup: single elimination"
REFUSED_NEW = (
    "Only an administrator or an organiser named in this chat's defaults opens a tournament. "
    "The organisers: cy, eve."
)
REFUSED_RUN = (
    "Only the organiser who opened the tournament, an administrator or an organiser named in "
    "this chat's defaults may. The organisers: cy, eve."
)


class Console:
    def __init__(self, room: Room) -> None:
        self.output = io.StringIO()
        self.chat = ConsoleChat(room.core, self.output, admins=["dee"])

    async def line(self, line: str) -> str:
        before = len(self.output.getvalue())
        await self.chat.line(line)
        return self.output.getvalue()[before:]


async def test_named_users_open_and_run_a_tournament_and_others_are_told_who_may(
    room: Room,
) -> None:
    console = Console(room)
    assert "The chat's defaults are updated." in await console.line(
        "dee: /defaults organisers=@cy @eve"
    )
    shown = await console.line("ann: /defaults")
    assert "Besides its administrators, these open and run tournaments: cy, eve." in shown
    refused = await console.line('ann: /tournament new single 1 "Cup"')
    assert REFUSED_NEW in refused
    assert OPENED not in refused
    assert OPENED in await console.line('cy: /tournament new single 1 "Cup"')
    await console.line("ann: [Join]")
    await console.line("bob: [Join]")
    refused = await console.line("ann: /tournament start")
    assert REFUSED_RUN in refused
    assert "Cup has begun." not in refused
    # Eve did not open it, and administers nothing: the defaults name her.
    assert "Cup has begun." in await console.line("eve: /tournament start")


async def test_clearing_the_organisers_takes_their_right_away(room: Room) -> None:
    console = Console(room)
    await console.line("dee: /defaults organisers=@cy @eve")
    assert OPENED in await console.line('cy: /tournament new single 1 "Cup"')
    await console.line("ann: [Join]")
    assert "The chat's defaults are updated." in await console.line(
        "dee: /defaults organisers=none"
    )
    assert "these open and run tournaments" not in await console.line("ann: /defaults")
    refused = await console.line("eve: /tournament start")
    assert "Only the organiser who opened the tournament or an administrator may." in refused
    assert "Cup has begun." in await console.line("cy: /tournament start")  # she opened it
    await console.line("cy: /tournament cancel")
    refused = await console.line('eve: /tournament new single 1 "Cup"')
    assert "Only an administrator of the chat opens a tournament." in refused


async def test_only_an_administrator_names_the_organisers(room: Room) -> None:
    console = Console(room)
    refused = await console.line("cy: /defaults organisers=@cy")
    assert "Only an administrator of this chat can change its defaults." in refused
    assert OPENED not in await console.line('cy: /tournament new single 1 "Cup"')
    told = await console.line("dee: /defaults organisers")
    assert "Name the organisers: /defaults organisers=@name @name" in told
