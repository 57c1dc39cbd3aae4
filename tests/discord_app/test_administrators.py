"""Who administers a Discord server, as the core asks it: whoever may *Manage Server* (or is an
*Administrator*), read from the permissions that come with each interaction or message."""

from __future__ import annotations

from typing import Any

from tests.discord_app.conftest import ANNA, BOB, CARL, Bot, content, is_callback, is_followup
from tests.discord_app.test_adapter import message_payload
from tests.fakes.discord_server import BOT_ID, CHANNEL_ID, EVERYONE_PERMISSIONS, MANAGE_GUILD

ADMINISTRATOR = 1 << 3
REFUSAL = "Only an administrator of this chat can change its defaults."


async def _slash(bot: Bot, user: int, name: str, options: list[Any], permissions: int) -> str:
    """The command; what the bot wrote since, publicly or privately."""
    mark = len(bot.fake.calls)
    sent = await bot.fake.slash(user, name, options, permissions=permissions)
    await bot.fake.wait_for(lambda call: is_callback(call, sent.id), after=mark)
    await bot.adapter.settled()
    return "\n".join(content(call) for call in bot.fake.calls[mark:] if isinstance(call.json, dict))


def _set_length(length: int) -> list[Any]:
    return [{"name": "set", "type": 1, "options": [{"name": "length", "type": 4, "value": length}]}]


def _action(action: str) -> list[Any]:
    return [{"name": "action", "type": 3, "value": action}]


async def test_a_member_who_does_not_manage_the_server_cannot_change_the_defaults(
    bot: Bot,
) -> None:
    assert REFUSAL in await _slash(bot, CARL, "defaults", _set_length(7), EVERYONE_PERMISSIONS)
    mark = len(bot.fake.calls)
    # Typed after a mention of the bot: Anna's roles give her no right to manage the server.
    await bot.fake.send_event(
        "MESSAGE_CREATE",
        message_payload(ANNA, f"<@{BOT_ID}> defaults length 7", [BOT_ID], CHANNEL_ID),
    )
    refused = await bot.fake.wait_for(lambda call: REFUSAL in content(call), after=mark)
    assert not is_followup(refused)  # a reply to her message: no interaction to answer
    shown = await _slash(bot, CARL, "defaults", [{"name": "show", "type": 1}], EVERYONE_PERMISSIONS)
    assert "matches of 3 points by default" in shown


async def test_an_administrator_changes_the_defaults(bot: Bot) -> None:
    changed = await _slash(bot, CARL, "defaults", _set_length(7), ADMINISTRATOR)
    assert "The chat's defaults are updated." in changed
    # The answer came with that interaction: his next one, without the right, is refused.
    assert REFUSAL in await _slash(bot, CARL, "defaults", _set_length(5), EVERYONE_PERMISSIONS)


async def test_a_server_manager_ends_someone_elses_chouette(bot: Bot) -> None:
    await _slash(bot, ANNA, "chouette", [], EVERYONE_PERMISSIONS)
    await _slash(bot, BOB, "chouette", _action("join"), EVERYONE_PERMISSIONS)
    refused = await _slash(bot, BOB, "chouette", _action("end"), EVERYONE_PERMISSIONS)
    assert "Only the host who opened the table or an administrator ends it." in refused
    ended = await _slash(bot, CARL, "chouette", _action("end"), MANAGE_GUILD)
    assert "The chouette is over. Games played: 0." in ended
