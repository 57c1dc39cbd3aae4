"""Legal plays offered while a move is being typed (Discord's autocomplete).

Read-only and fast: it creates nothing, changes nothing, and answers an empty list whenever
there is nothing to suggest (no match, not the caller's turn, no dice yet).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.core.model import Actor, ChatRef
from gammon.flow import Phase
from storage import ChatRepository, MatchRepository, UserRepository


def _squeeze(text: str) -> str:
    return "".join(text.lower().replace("*", "").split())


@dataclass(frozen=True)
class MoveSuggestions:
    users: UserRepository
    chats: ChatRepository
    matches: MatchRepository

    async def suggest(
        self, actor: Actor, chat: ChatRef, typed: str = "", limit: int = 25
    ) -> list[str]:
        """The caller's legal plays for the current dice, those that start like ``typed``
        first, then those containing it (hit marks and spaces ignored), at most ``limit``."""
        user = await self.users.find_user(actor.platform, actor.user_id)
        room = await self.chats.find_chat(chat.platform, chat.chat_id)
        if user is None or room is None:
            return []
        loaded = await self.matches.active_match_for(room.id, user.id)
        if loaded is None:
            return []
        state = loaded.state
        player = loaded.info.player_index(user.id)
        if state.phase is not Phase.MOVING or state.turn != player:
            return []
        wanted = _squeeze(typed[:100])
        plays = [str(play) for play in state.legal_plays()]
        starting = [play for play in plays if _squeeze(play).startswith(wanted)]
        containing = [play for play in plays if wanted in _squeeze(play) and play not in starting]
        return (starting + containing)[:limit]
