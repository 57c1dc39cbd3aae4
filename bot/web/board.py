"""The board page's parts put together for a web server (see :mod:`bot.web.play_routes`)."""

from __future__ import annotations

from bot.core.info.board_reads import BoardPageReads
from bot.core.ports import ChatRequests
from bot.web.live import EVERY, LiveBoards
from bot.web.play_actions import Deliver, PlayActions
from bot.web.play_identity import PageIdentity
from bot.web.play_routes import BoardPages


def board_pages(
    reads: BoardPageReads,
    requests: ChatRequests,
    deliver: Deliver,
    *,
    telegram_token: str | None,
    init_data_max_age: float,
    key_seconds: float,
    live_every: float = EVERY,
) -> BoardPages:
    """The board page's handlers: reads, its live streams (looking at the database every
    ``live_every`` seconds for changes other processes made), who may act and how."""
    live = LiveBoards(reads, live_every)
    return BoardPages(
        reads,
        live,
        PageIdentity(reads, telegram_token, init_data_max_age, key_seconds),
        PlayActions(requests, deliver, reads.applied),
    )
