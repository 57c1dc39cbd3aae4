"""Who may act on the tap-to-play board page (docs/board-page.md): a Telegram Mini App's
initData checked as Telegram documents it, and the signed player keys of private links and of
the page's session. Platform-free: no chat library, no database, the time always given."""

from bot.core.page_access.denied import AccessDenied
from bot.core.page_access.player_keys import (
    KeyRefused,
    PlayerKey,
    issue,
    read,
)
from bot.core.page_access.telegram_init import InitDataRefused, MiniAppUser, check_init_data

__all__ = [
    "AccessDenied",
    "InitDataRefused",
    "KeyRefused",
    "MiniAppUser",
    "PlayerKey",
    "check_init_data",
    "issue",
    "read",
]
