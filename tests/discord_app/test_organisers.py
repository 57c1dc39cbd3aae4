"""Organisers on Discord (``/defaults organisers=…``): the members of the role a server's
defaults name open and run its tournaments besides those who manage the server; a role is
known by its id, so a role of the same name gives no right; clearing the setting takes it away.
The member's roles come with each interaction and message (discord.py's ``Member.roles``)."""

from __future__ import annotations

import re
from typing import Any

from tests.discord_app.conftest import ANNA, BOB, CARL, Bot, content
from tests.discord_app.tournaments import answered, slash, tournament_options
from tests.fakes.discord_server import (
    BOT_ID,
    LOOKALIKE_ROLE_ID,
    MANAGE_GUILD,
    ORGANISERS_ROLE_ID,
    OWNER_ID,
)

DORA = 700000000000000004
UPDATED = "The chat's defaults are updated."
OPENED = "Cup: single elimination"
BEGUN = "Cup has begun."
REFUSED_NEW = (
    "Only an administrator or an organiser named in this chat's defaults opens a tournament. "
    "The organisers: @Organisers."
)
REFUSED_RUN = (
    "Only the organiser who opened the tournament, an administrator or an organiser named in "
    "this chat's defaults may. The organisers: @Organisers."
)


def set_defaults(**values: Any) -> list[Any]:
    types = {"organisers": 9, "no_organisers": 5}
    options = [{"name": name, "type": types[name], "value": v} for name, v in values.items()]
    return [{"name": "set", "type": 1, "options": options}]


async def name_role(bot: Bot, role: int) -> str:
    return await name_organiser(bot, role, bot.fake.resolved_role(role))


async def name_organiser(bot: Bot, named: int, resolved: dict[str, Any]) -> str:
    """``/defaults set organisers:`` a role or a member, by Anna, who manages the server."""
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(
        ANNA,
        "defaults",
        set_defaults(organisers=str(named)),
        resolved=resolved,
        permissions=MANAGE_GUILD,
    )
    return await answered(bot, mark, sent.id)


async def as_member(bot: Bot, user: int, action: str, roles: list[int], more: str = "") -> str:
    """``/tournament ACTION`` by a member holding ``roles`` (no right to manage the server)."""
    mark = len(bot.fake.calls)
    options = tournament_options(action, more or None)
    sent = await bot.fake.slash(user, "tournament", options, roles=roles)
    return await answered(bot, mark, sent.id)


async def test_a_member_of_the_named_role_opens_and_starts_a_tournament(bot: Bot) -> None:
    bot.fake.add_user(DORA, "Dora")
    assert UPDATED in await name_role(bot, ORGANISERS_ROLE_ID)
    shown = await slash(bot, CARL, "defaults", [{"name": "show", "type": 1}])
    assert "Besides its administrators, these open and run tournaments: @Organisers." in shown
    refused = await as_member(bot, BOB, "new", [], 'single 1 "Cup"')
    assert REFUSED_NEW in refused
    assert OPENED not in refused
    assert OPENED in await as_member(bot, CARL, "new", [ORGANISERS_ROLE_ID], 'single 1 "Cup"')
    for user in (BOB, DORA):
        await slash(bot, user, "tournament", tournament_options("join"))
    refused = await as_member(bot, BOB, "start", [])
    assert REFUSED_RUN in refused
    # Dora did not open it: her role lets her start it.
    assert BEGUN in await as_member(bot, DORA, "start", [ORGANISERS_ROLE_ID])


async def test_a_role_of_the_same_name_gives_no_right(bot: Bot) -> None:
    assert UPDATED in await name_role(bot, ORGANISERS_ROLE_ID)
    refused = await as_member(bot, BOB, "new", [LOOKALIKE_ROLE_ID], 'single 1 "Cup"')
    assert REFUSED_NEW in refused
    assert OPENED not in refused
    # Named the other way round, the lookalike is the right one.
    assert UPDATED in await name_role(bot, LOOKALIKE_ROLE_ID)
    assert OPENED in await as_member(bot, BOB, "new", [LOOKALIKE_ROLE_ID], 'single 1 "Cup"')


async def test_clearing_the_organisers_takes_the_roles_right_away(bot: Bot) -> None:
    assert UPDATED in await name_role(bot, ORGANISERS_ROLE_ID)
    assert OPENED in await as_member(bot, CARL, "new", [ORGANISERS_ROLE_ID], 'single 1 "Cup"')
    await slash(bot, BOB, "tournament", tournament_options("join"))
    cleared = await slash(
        bot, ANNA, "defaults", set_defaults(no_organisers=True), permissions=MANAGE_GUILD
    )
    assert UPDATED in cleared
    shown = await slash(bot, CARL, "defaults", [{"name": "show", "type": 1}])
    assert "these open and run tournaments" not in shown
    refused = await as_member(bot, BOB, "cancel", [ORGANISERS_ROLE_ID])
    assert "Only the organiser who opened the tournament or an administrator may." in refused
    assert BEGUN in await as_member(bot, CARL, "start", [])  # she opened it


async def test_a_named_member_and_a_typed_role_mention(bot: Bot) -> None:
    assert UPDATED in await name_organiser(bot, BOB, bot.fake.resolved_user(BOB))
    shown = await slash(bot, CARL, "defaults", [{"name": "show", "type": 1}])
    assert "these open and run tournaments: Bob." in shown
    assert OPENED in await as_member(bot, BOB, "new", [], 'single 1 "Cup"')
    await as_member(bot, BOB, "cancel", [])
    # Typed after a mention of the bot, by the server's owner: the role's mention, resolved by
    # Discord, and a member's roles, which come with her message.
    bot.fake.add_user(OWNER_ID, "Olga")
    assert UPDATED in await typed(bot, OWNER_ID, f"defaults organisers=<@&{ORGANISERS_ROLE_ID}>")
    opening = 'tournament new single 1 "Cup"'
    assert REFUSED_NEW in await typed(bot, BOB, opening, [LOOKALIKE_ROLE_ID])
    assert OPENED in await typed(bot, CARL, opening, [ORGANISERS_ROLE_ID])


async def typed(bot: Bot, user: int, text: str, roles: list[int] | None = None) -> str:
    """What the bot answered to ``@gammonbot TEXT`` typed by ``user`` holding ``roles``."""
    mark = len(bot.fake.calls)
    mentioned = [int(role) for role in re.findall(r"<@&(\d+)>", text)]
    await bot.fake.say(
        user, f"<@{BOT_ID}> {text}", mentions=[BOT_ID], role_mentions=mentioned, roles=roles
    )
    await bot.fake.wait_for(lambda call: isinstance(call.json, dict), after=mark)
    await bot.adapter.settled()
    return "\n".join(content(call) for call in bot.fake.calls[mark:] if isinstance(call.json, dict))
