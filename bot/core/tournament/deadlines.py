"""A tournament pairing's deadline (``days=N`` a match) passed: said once, by one process's
clock. A match under way is then claimed by the player who was waiting (``/claim`` or the
button, as past a move's deadline: :meth:`bot.core.match.playing.PlayService.claim`); a match
nobody started is decided by the organiser (``/tournament decide @winner``)."""

from __future__ import annotations

from bot.core.context import clock_context
from bot.core.model import Button, ChatRef, Message, Public, Slot
from bot.core.runtime.time_source import TimeSource
from bot.core.text.i18n import room_locale
from bot.core.tokens import Token, Verb, format_token
from bot.core.tournament.starts import TournamentStarts
from storage import (
    ChatRepository,
    MatchRepository,
    TournamentMatchRecord,
    TournamentRepository,
    UserRepository,
)


class TournamentClock:
    """The clock's round for tournaments: pairings nobody announced, and deadlines passed."""

    def __init__(
        self,
        tournaments: TournamentRepository,
        matches: MatchRepository,
        users: UserRepository,
        chats: ChatRepository,
        starts: TournamentStarts,
        time: TimeSource,
    ) -> None:
        self.tournaments = tournaments
        self.matches = matches
        self.users = users
        self.chats = chats
        self.starts = starts
        self.time = time

    async def tick(self) -> list[Message]:
        messages = await self.starts.sweep()
        now = self.time()
        for pairing in await self.tournaments.overdue(now):
            if await self.tournaments.mark_overdue(pairing.id, now):
                messages.append(await self._overdue(pairing))
        return messages

    async def _overdue(self, pairing: TournamentMatchRecord) -> Message:
        tournament = await self.tournaments.get(pairing.tournament_id)
        chat = await self.chats.get_chat(tournament.chat_id)
        where = ChatRef(chat.platform, chat.platform_chat_id)
        _ = clock_context(chat, where, room_locale(chat)).for_chat
        players = [await self.users.get_user(player) for player in pairing.player_ids]
        mentioned = tuple(player.platform_user_id for player in players)
        slot = Slot(f"overdue:{pairing.id}")
        if pairing.match_id is None:
            organiser = await self.users.get_user(tournament.organiser_id)
            text = _(
                "{tournament}: {first} and {second} did not start their match before its "
                "deadline. The organiser decides it with /tournament decide @winner."
            ).format(
                tournament=tournament.name,
                first=players[0].display_name,
                second=players[1].display_name,
            )
            mention = (*mentioned, organiser.platform_user_id)
            return Message(where, text, mention=mention, kind=Public(slot))
        info = (await self.matches.load_match(pairing.match_id)).info
        late = next((p for p in players if p.id == info.turn_user_id), players[0])
        waiting = players[1] if late is players[0] else players[0]
        text = _(
            "{tournament}: the deadline of match {id} has passed with {late} to play. "
            "{waiting} may claim the match."
        ).format(
            tournament=tournament.name,
            id=info.id,
            late=late.display_name,
            waiting=waiting.display_name,
        )
        claim = format_token(Token(Verb.CLAIM, "m", info.id, info.version))
        return Message(
            where,
            text,
            (Button(_("Claim win"), claim),),
            mention=mentioned,
            kind=Public(slot),
        )
