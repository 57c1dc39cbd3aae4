"""Who administers a Telegram group, as the core asks it: ``getChatMember``, only for the
commands that need the answer, remembered for a minute. A group's administrator who is not
the host ends someone else's chouette (once refused: Telegram was asked only for /defaults)."""

from __future__ import annotations

from typing import Any

from tests.fakes.telegram_bot_api import Call, user
from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness

DORA = user(44, "Dora", "dora")  # the group's administrator, not at the table


def _texts(calls: list[Call]) -> str:
    return "\n".join(
        str(call.params.get("text") or call.params.get("caption") or "") for call in calls
    )


def _asked(telegram: Harness) -> list[Any]:
    return [
        (call.params["chat_id"], call.params["user_id"])
        for call in telegram.api.of("getChatMember")
    ]


async def _table_of_anna_and_bob(telegram: Harness) -> None:
    await telegram.say(ANNA, GROUP, "/chouette")
    await telegram.say(BOB, GROUP, "/chouette join")


async def test_a_group_administrator_ends_someone_elses_chouette(telegram: Harness) -> None:
    await _table_of_anna_and_bob(telegram)
    refused = await telegram.say(BOB, GROUP, "/chouette end")  # seated, but not the host
    assert "Only the host who opened the table or an administrator ends it." in _texts(refused)
    telegram.api.admins.add((GROUP, 44))
    ended = await telegram.say(DORA, GROUP, "/chouette end")
    assert "The chouette is over. Games played: 0." in _texts(ended)
    assert _asked(telegram) == [(GROUP, 22), (GROUP, 44)]


async def test_the_host_ends_the_table_without_asking_telegram(telegram: Harness) -> None:
    await _table_of_anna_and_bob(telegram)
    ended = await telegram.say(ANNA, GROUP, "/chouette end")
    assert "The chouette is over." in _texts(ended)
    assert _asked(telegram) == []


async def test_the_answer_is_remembered_for_a_minute(telegram: Harness) -> None:
    now = [1000.0]
    telegram.adapter.directory.clock = lambda: now[0]
    telegram.api.admins.add((GROUP, 44))
    await _table_of_anna_and_bob(telegram)
    changed = await telegram.say(DORA, GROUP, "/defaults length 5")
    assert "The chat's defaults are updated." in _texts(changed)
    now[0] += 59
    ended = await telegram.say(DORA, GROUP, "/chouette end")
    assert "The chouette is over." in _texts(ended)
    assert _asked(telegram) == [(GROUP, 44)]  # one question for both commands
    now[0] += 2  # a minute after the question: Telegram is asked again
    telegram.api.admins.discard((GROUP, 44))
    refused = await telegram.say(DORA, GROUP, "/defaults length 7")
    assert "Only an administrator of this chat can change its defaults." in _texts(refused)
    assert _asked(telegram) == [(GROUP, 44), (GROUP, 44)]


async def test_a_non_administrators_defaults_are_refused(telegram: Harness) -> None:
    refused = await telegram.say(BOB, GROUP, "/defaults length 5")
    assert "Only an administrator of this chat can change its defaults." in _texts(refused)
    shown = await telegram.say(BOB, GROUP, "/defaults")  # looking needs nobody's leave
    assert "This chat: matches of 3 points by default" in _texts(shown)
    assert _asked(telegram) == [(GROUP, 22)]
    # In his private chat with the bot Bob is its administrator: Telegram is not asked.
    mine = await telegram.say(BOB, 22, "/defaults length 5")
    assert "The chat's defaults are updated." in _texts(mine)
    assert _asked(telegram) == [(GROUP, 22)]


async def test_a_match_in_a_group_never_asks_who_administers_it(telegram: Harness) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob 1")
    await telegram.press_label(BOB, GROUP, "Accept")
    for _step in range(6):  # the opening roll's player moves, the other rolls, ...
        chat = await telegram.stores.chats.find_chat("telegram", str(GROUP))
        assert chat is not None
        for sender in (ANNA, BOB):
            known = await telegram.stores.users.find_user("telegram", str(sender["id"]))
            assert known is not None
            loaded = await telegram.stores.matches.active_match_for(chat.id, known.id)
            assert loaded is not None
            state = loaded.state
            turn = state.turn if state.turn is not None else state.player_on_roll
            if loaded.info.player_ids[turn] != known.id:
                continue
            if state.dice is None:
                await telegram.say(sender, GROUP, "/roll")
            else:
                await telegram.say(sender, GROUP, f"/move {state.legal_plays()[0]}")
            break
    assert _asked(telegram) == []
