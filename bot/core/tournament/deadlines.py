"""The tournaments' clock, each round by one process's clock only:

- a registration's closing time (``closes=48h``) starts the tournament (fewer than two players:
  it is cancelled);
- pairings that no process announced are announced;
- a pairing's deadline (``days=N`` a match) passed is said once: a match under way is then
  claimed by the player who was waiting (``/claim`` or the button, as past a move's deadline:
  :meth:`bot.core.match.playing.PlayService.claim`); a match nobody started is decided by the
  organiser (``/tournament decide @winner``).
"""

from __future__ import annotations

from bot.core.context import clock_context_in
from bot.core.model import Button, Message, Public, Slot
from bot.core.refusal import Refusal
from bot.core.runtime.time_source import TimeSource
from bot.core.tokens import Token, Verb, format_token
from bot.core.tournament.running import TournamentRunning
from bot.core.tournament.starts import TournamentStarts
from storage import (
    ChatRepository,
    ConflictError,
    MatchRepository,
    TournamentMatchRecord,
    TournamentRecord,
    TournamentRepository,
    TournamentStatus,
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
        running: TournamentRunning,
        time: TimeSource,
    ) -> None:
        self.tournaments = tournaments
        self.matches = matches
        self.users = users
        self.chats = chats
        self.starts = starts
        self.running = running
        self.time = time

    async def tick(self) -> list[Message]:
        now = self.time()
        messages: list[Message] = []
        for tournament in await self.tournaments.due_to_close(now):
            messages += await self._close_registration(tournament)
        messages += await self.starts.sweep()
        for pairing in await self.tournaments.overdue(now):
            if await self.tournaments.mark_overdue(pairing.id, now):
                messages.append(await self._overdue(pairing))
        return messages

    async def _close_registration(self, tournament: TournamentRecord) -> list[Message]:
        """The registration's closing time has come: the tournament starts (or, with fewer
        than two players, is cancelled). Of several processes' clocks one starts it: the
        start is written at the tournament's version."""
        context = clock_context_in(await self.chats.get_chat(tournament.chat_id))
        where = context.request.chat
        try:
            return await self.running.start(context, tournament, [])
        except Refusal:
            pass
        try:
            await self.tournaments.set_status(
                tournament.id,
                tournament.version,
                [TournamentStatus.OPEN],
                TournamentStatus.CANCELLED,
            )
        except ConflictError:
            return []  # started or cancelled meanwhile (another process's clock, a command)
        text = context.for_chat._(
            "Registration for {name} has closed with fewer than two players: it is cancelled."
        ).format(name=tournament.name)
        return [Message(where, text)]

    async def _overdue(self, pairing: TournamentMatchRecord) -> Message:
        """A pairing's deadline has passed: told in the tournament's chat when its match never
        started (the organiser decides it), else in the match's own chat (its thread, where
        its board is) with [Claim win] for whoever waited."""
        tournament = await self.tournaments.get(pairing.tournament_id)
        context = clock_context_in(await self.chats.get_chat(tournament.chat_id))
        where, _ = context.request.chat, context.for_chat
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
        if info.chat_id != tournament.chat_id:  # played in its thread: claimed there
            context = clock_context_in(await self.chats.get_chat(info.chat_id))
            where, _ = context.request.chat, context.for_chat
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
