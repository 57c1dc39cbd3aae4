"""The poster carries out the core's posting plan without calling back into the core: what it
needs comes before its first Bot API call, what it learned goes back after its last."""

from __future__ import annotations

from tests.telegram_app.conftest import ANNA, BOB, GROUP, Harness
from tests.telegram_app.test_match import _match
from tests.watched_core import CoreCalls

_POSTING = ("send", "edit", "delete")  # calls into chats (not the answer to a callback query)


async def _watched_update(telegram: Harness, calls: CoreCalls, update: object) -> list[str]:
    """The core calls the poster made while posting the answer to ``update``."""
    mark = len(telegram.api.calls)
    first = len(calls.calls)
    await update  # type: ignore[misc]
    posting = [
        index
        for index, call in enumerate(telegram.api.calls[mark:], start=mark)
        if call.method.startswith(_POSTING)
    ]
    assert posting, "the update was answered in the chat"
    assert len(calls.calls) - first <= 2, calls.calls[first:]  # once before, once after
    watched = CoreCalls(calls.count, calls.calls[first:])
    return watched.while_posting(posting)


async def test_the_poster_asks_the_core_only_before_and_after_posting(telegram: Harness) -> None:
    await telegram.say(BOB, GROUP, "/help")
    await telegram.say(ANNA, GROUP, "/challenge @bob money")
    await telegram.press_label(BOB, GROUP, "Accept")
    calls = CoreCalls(lambda: len(telegram.api.calls))
    telegram.adapter.poster.core = calls.watched(telegram.core)
    loaded = await _match(telegram)
    assert loaded is not None
    play = str(loaded.state.legal_plays()[0])
    # Anna's move: a new board calling Bob.
    moved = telegram.say(ANNA, GROUP, f"/move {play}")
    assert await _watched_update(telegram, calls, moved) == []
    # Bob doubles: a new board calling Anna, the pressed board loses its buttons.
    mark = len(telegram.api.calls)
    doubled = telegram.press_label(BOB, GROUP, "Double")
    assert await _watched_update(telegram, calls, doubled) == []
    assert [call.method for call in telegram.api.calls[mark:]] == [
        "answerCallbackQuery",
        "sendPhoto",
        "editMessageReplyMarkup",
    ]
