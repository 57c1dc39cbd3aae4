"""Organisers on Telegram (``/defaults organisers=@user…``; Telegram's groups have no member
roles): the members a group's defaults name open and run its tournaments besides its
administrators, and Telegram is not asked whether they administer it; the others are told who
may; clearing the setting takes the right away."""

from __future__ import annotations

from typing import Any

from tests.fakes.telegram_bot_api import Call, user
from tests.telegram_app.conftest import ANNA, BOB, CARL, GROUP, Harness

DORA = user(44, "Dora", "dora")
UPDATED = "The chat's defaults are updated."
OPENED = "Cup: single elimination"


def _texts(calls: list[Call]) -> str:
    return "\n".join(str(call.params.get("text") or "") for call in calls)


def _asked(telegram: Harness) -> list[Any]:
    return [call.params["user_id"] for call in telegram.api.of("getChatMember")]


async def _name_carl_and_dora(telegram: Harness) -> None:
    """Anna, the group's administrator, names Carl and Dora (each has written in the group:
    Telegram tells a bot who has a @username only by their messages)."""
    telegram.api.admins.add((GROUP, ANNA["id"]))
    for person in (CARL, DORA):
        await telegram.say(person, GROUP, "/defaults")
    named = await telegram.say(ANNA, GROUP, "/defaults organisers=@carl @dora")
    assert UPDATED in _texts(named)


async def test_a_named_member_opens_and_starts_a_tournament(telegram: Harness) -> None:
    await _name_carl_and_dora(telegram)
    shown = await telegram.say(BOB, GROUP, "/defaults")
    assert "Besides its administrators, these open and run tournaments: Carl, Dora." in (
        _texts(shown)
    )
    refused = _texts(await telegram.say(BOB, GROUP, '/tournament new single 1 "Cup"'))
    assert (
        "Only an administrator or an organiser named in this chat's defaults opens a "
        "tournament. The organisers: Carl, Dora." in refused
    )
    assert OPENED not in refused
    opened = await telegram.say(CARL, GROUP, '/tournament new single 1 "Cup"')
    assert OPENED in _texts(opened)
    await telegram.press_label(BOB, GROUP, "Join")
    refused = _texts(await telegram.say(BOB, GROUP, "/tournament start"))
    assert (
        "Only the organiser who opened the tournament, an administrator or an organiser named "
        "in this chat's defaults may. The organisers: Carl, Dora." in refused
    )
    started = await telegram.say(DORA, GROUP, "/tournament start")  # she did not open it
    assert "Cup has begun." in _texts(started)
    assert CARL["id"] not in _asked(telegram)
    assert DORA["id"] not in _asked(telegram)


async def test_clearing_the_organisers_takes_the_right_away(telegram: Harness) -> None:
    await _name_carl_and_dora(telegram)
    assert OPENED in _texts(await telegram.say(CARL, GROUP, '/tournament new single 1 "Cup"'))
    await telegram.press_label(BOB, GROUP, "Join")
    assert UPDATED in _texts(await telegram.say(ANNA, GROUP, "/defaults organisers=none"))
    refused = _texts(await telegram.say(DORA, GROUP, "/tournament start"))
    assert "Only the organiser who opened the tournament or an administrator may." in refused
    assert "Cup has begun." in _texts(await telegram.say(CARL, GROUP, "/tournament start"))
    await telegram.say(CARL, GROUP, "/tournament cancel")
    refused = _texts(await telegram.say(DORA, GROUP, '/tournament new single 1 "Cup"'))
    assert "Only an administrator of the chat opens a tournament." in refused


async def test_a_member_the_bot_has_not_met_is_not_named_silently(telegram: Harness) -> None:
    telegram.api.admins.add((GROUP, ANNA["id"]))
    await telegram.say(CARL, GROUP, "/defaults")
    told = _texts(await telegram.say(ANNA, GROUP, "/defaults organisers=@carl @zed"))
    assert "I have not met \u2068@\u2060zed\u2069 yet: Telegram tells me who a member is" in told
    assert UPDATED not in told
    shown = _texts(await telegram.say(BOB, GROUP, "/defaults"))
    assert "these open and run tournaments" not in shown
