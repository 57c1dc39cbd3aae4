"""Who may open and run a tournament, as the core enforces it for every platform: the chat's
named organisers (``/defaults organisers=…``), a named role's members (the front-end's
:class:`~bot.core.permissions.RolePort`, asked only when the answer depends on it, once a
request) and administrators; a league is opened the same way."""

from __future__ import annotations

from bot.core.model import Actor, ChatRef, Role
from tests.bot.scripted import PLATFORM, Room, admins_of

STAFF = Role("r-7", "Staff")


class ScriptedRoles:
    """The test platform's answer whether someone holds a role: ``held`` (user, role) pairs."""

    def __init__(self) -> None:
        self.held: set[tuple[str, str]] = set()
        self.asked = 0

    async def has_role(self, actor: Actor, chat: ChatRef, role_id: str) -> bool:
        self.asked += 1
        return (actor.user_id, role_id) in self.held


def roles_of(room: Room) -> ScriptedRoles:
    roles = ScriptedRoles()
    room.core.register_admins(PLATFORM, admins_of(room.core), roles=roles)
    return roles


async def test_a_roles_member_opens_a_tournament_and_the_platform_is_asked_once(
    room: Room,
) -> None:
    roles = roles_of(room)
    admins = admins_of(room.core)
    named = await room.command("dee", "/defaults organisers", admin=True, roles=(STAFF,))
    assert named[0].text == "The chat's defaults are updated."
    roles.held.add(("ann", STAFF.role_id))
    asked_admins = admins.asked
    opened = await room.command("ann", '/tournament new single 1 "Cup"')
    assert opened[0].text.startswith("Cup: single elimination")
    assert (roles.asked, admins.asked) == (1, asked_admins)  # her role: no question more
    await room.press("bob", "Join")
    refused = await room.command("bob", "/tournament start")
    assert refused[0].text == (
        "Only the organiser who opened the tournament, an administrator or an organiser named "
        "in this chat's defaults may. The organisers: @Staff."
    )
    assert (roles.asked, admins.asked) == (2, asked_admins + 1)
    started = await room.command("ann", "/tournament start")
    assert any("Cup has begun." in message.text for message in started)
    assert (roles.asked, admins.asked) == (2, asked_admins + 1)  # she opened it: nobody asked


async def test_a_named_user_opens_a_league_without_the_platform_being_asked(room: Room) -> None:
    roles = roles_of(room)
    admins = admins_of(room.core)
    await room.command("dee", "/defaults organisers @cy @eve", admin=True)
    asked = admins.asked
    opened = await room.command("eve", '/tournament new league 1 "Club league"')
    assert opened[0].text.startswith("Club league: league")
    assert (roles.asked, admins.asked) == (0, asked)
    refused = await room.command("bob", '/tournament new league 1 "Other"')
    assert refused[0].text == (
        "Only an administrator or an organiser named in this chat's defaults opens a "
        "tournament. The organisers: Cy, Eve."
    )


async def test_the_organisers_are_named_by_mentions_or_none(room: Room) -> None:
    await room.command("dee", "/defaults length 5 organisers @cy language de", admin=True)
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    cy = await room.stores.users.upsert_user(PLATFORM, "cy", "Cy")
    assert chat.settings["organisers"] == {"users": [cy.id], "role": None}
    assert (chat.settings["default_length"], chat.settings["language"]) == (5, "de")
    await room.command("dee", "/defaults organisers=none", admin=True)
    chat = await room.stores.chats.upsert_chat(PLATFORM, room.chat.chat_id)
    assert chat.settings["organisers"] is None
