"""The poster carries out the core's posting plan without calling back into the core: what it
needs comes before its first request to Discord, what it learned goes back after its last."""

from __future__ import annotations

from tests.discord_app.conftest import Bot, buttons, content, mentioned
from tests.discord_app.test_match import move, start_match
from tests.watched_core import CoreCalls


async def test_the_poster_asks_the_core_only_before_and_after_posting(bot: Bot) -> None:
    board = await move(bot, await start_match(bot))
    await bot.adapter.settled()
    calls = CoreCalls(lambda: len(bot.fake.calls))
    bot.adapter.poster.core = calls.watched(bot.core)
    # The player on roll doubles: a new board calling the other one, the pressed board loses
    # its buttons, the player called gets a DM.
    mark = len(bot.fake.calls)
    await bot.fake.click(mentioned(board), bot.message_id(board), buttons(board)["Double"])
    doubled = await bot.next_post(mark, "<@")
    await bot.fake.wait_for(
        lambda call: call.method == "PATCH" and str(bot.message_id(board)) in call.path,
        after=mark,
    )
    await bot.adapter.settled()
    posting = [
        index
        for index, call in enumerate(bot.fake.calls[mark:], start=mark)
        if call.method in ("POST", "PATCH", "DELETE") and "/callback" not in call.path
    ]
    assert "doubles" in content(doubled)
    assert len(posting) >= 2  # the new board, the old one stripped
    assert len(calls.calls) <= 2, calls.calls  # once before, once after
    assert calls.while_posting(posting) == []
