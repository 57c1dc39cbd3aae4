"""``/matches`` on Discord: an ephemeral list whose [▶] and [◀] turn that same message."""

from __future__ import annotations

from gammon.match_rules import MatchRules
from tests.discord_app.conftest import ANNA, Bot, buttons, content
from tests.storage.players import create_match


async def test_the_list_turns_its_pages_in_its_own_message(bot: Bot) -> None:
    anna = await bot.stores.users.upsert_user("discord", str(ANNA), "Anna")
    for number in range(11):  # eleven matches in channels of their own: two pages
        chat = await bot.stores.chats.upsert_chat("discord", str(800000000000000000 + number))
        rival = await bot.stores.users.upsert_user("discord", str(900000000000000000 + number), "R")
        await create_match(
            bot.stores.matches,
            chat_id=chat.id,
            player_ids=(anna.id, rival.id),
            rules=MatchRules(length=3),
            server_seed=bytes(32),
            client_seeds=("a", "b"),
        )
    mark = len(bot.fake.calls)
    await bot.fake.slash(ANNA, "matches", [])
    first = await bot.next_private(mark, "page 1 of 2")
    assert bot.fake.messages[first.created or 0]["flags"] & 64  # ephemeral, to Anna alone
    assert list(buttons(first)) == ["▶"]
    listed = first.created
    assert listed is not None
    mark = len(bot.fake.calls)
    await bot.fake.click(ANNA, listed, buttons(first)["▶"])
    second = await bot.next_private(mark, "page 2 of 2")
    assert second.method == "PATCH"  # the same message, turned
    assert content(second).count("\nMatch ") == 1
    assert "page 2 of 2" in bot.fake.messages[listed]["content"]
