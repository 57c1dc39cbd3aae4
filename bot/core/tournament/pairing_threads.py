"""A pairing's own thread: opened by the process that announces the pairing, where the
platform has threads and the tournament wants them (``threads=off`` keeps every match in the
chat), so that a busy group is not flooded by a tournament's boards.

The thread is a chat of its own (:mod:`bot.core.threads`): it takes the tournament's chat's
language and settings when it is first seen, and the pairing keeps it (the [Start] pressed
there starts the match there). When no thread can be opened the pairing is announced in the
tournament's chat, as without threads.
"""

from __future__ import annotations

from bot.core.context import Context
from bot.core.threads import Thread, ThreadPorts
from bot.core.tournament.settings import TournamentSettings
from storage import ChatRepository, TournamentMatchRecord, TournamentRecord, TournamentRepository


class PairingThreads:
    def __init__(
        self, threads: ThreadPorts, chats: ChatRepository, tournaments: TournamentRepository
    ) -> None:
        self.threads = threads
        self.chats = chats
        self.tournaments = tournaments

    async def open(
        self,
        room: Context,
        tournament: TournamentRecord,
        pairing: TournamentMatchRecord,
        title: str,
    ) -> Thread | None:
        """A thread for ``pairing`` in the tournament's chat (``room``), recorded on the
        pairing; None (the chat itself) when the tournament wants no threads or none opens."""
        if not TournamentSettings.of(tournament).threads:
            return None
        thread = await self.threads.open_thread(room.request.chat, title)
        if thread is None:
            return None
        chat = await self.chats.upsert_chat(
            thread.chat.platform, thread.chat.chat_id, room.chat.locale
        )
        if room.chat.settings and not chat.settings:  # the language and defaults it was given
            await self.chats.update_chat(chat.id, settings=room.chat.settings)
        await self.tournaments.set_thread(pairing.id, chat.id)
        return thread
