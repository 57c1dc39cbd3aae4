"""[Open board] on Discord: under the board; pressed, it answers the presser alone (an
ephemeral message): a player's own signed link, anyone else's address to watch."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from tests.discord_app.conftest import (
    ANNA,
    CARL,
    Bot,
    buttons,
    content,
    is_post,
    running_bot,
)
from tests.discord_app.test_match import start_match

BASE = "https://gammon.example.org"


@pytest.fixture
async def web_bot(migrated_url: str) -> AsyncIterator[Bot]:
    async with running_bot(migrated_url, web_base_url=BASE) as running:
        yield running


async def test_open_board_answers_each_presser_privately(web_bot: Bot) -> None:
    board = await start_match(web_bot)
    assert "Open board" in buttons(board)
    slug = (await web_bot.stores.matches.match_info(1)).slug
    for presser, keyed in ((ANNA, True), (CARL, False)):
        mark = len(web_bot.fake.calls)
        await web_bot.fake.click(presser, web_bot.message_id(board), buttons(board)["Open board"])
        answer = await web_bot.next_private(mark, f"{BASE}/m/{slug}/play")
        assert isinstance(answer.json, dict)
        assert answer.json["flags"] & 64  # ephemeral: only the presser sees it
        text = content(answer)
        assert bool(re.search(rf"{BASE}/m/{slug}/play#key=k1\.\S+", text)) is keyed
        assert not any(is_post(call) for call in web_bot.fake.calls[mark:])
