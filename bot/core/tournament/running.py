"""Running a tournament once it is open: the start with its seeds and first pairings, pause,
resume, cancel, a player's withdrawal (their matches still to play are walkovers), a
replacement before a first match, and the organiser's decision of a match nobody began before
its deadline. The organiser who opened it or an administrator of the chat runs it (checked by
:class:`~bot.core.tournament.commands.TournamentService`); a player may withdraw themselves.
"""

from __future__ import annotations

from typing import Final

from bot.core.context import Context
from bot.core.model import Message
from bot.core.people import mentioned_users
from bot.core.refusal import Refusal
from bot.core.runtime.time_source import TimeSource
from bot.core.tournament.advance import advancing
from bot.core.tournament.seasons import season_divisions
from bot.core.tournament.seeding import by_dice, by_rating, divisions
from bot.core.tournament.settings import Kind, TournamentSettings
from bot.core.tournament.show import TournamentShow
from bot.core.tournament.starts import TournamentStarts
from storage import (
    ConflictError,
    RatingRepository,
    TournamentRecord,
    TournamentRepository,
    TournamentStatus,
    UserRecord,
    UserRepository,
)

GAMES: Final = {"backgammon": "backgammon", "long_nardy": "nardy"}


class TournamentRunning:
    def __init__(
        self,
        tournaments: TournamentRepository,
        users: UserRepository,
        ratings: RatingRepository,
        starts: TournamentStarts,
        show: TournamentShow,
        time: TimeSource,
    ) -> None:
        self.tournaments = tournaments
        self.users = users
        self.ratings = ratings
        self.starts = starts
        self.show = show
        self.time = time

    async def start(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        _ = context._
        if tournament.status is not TournamentStatus.OPEN:
            raise Refusal(_("{name} has started already.").format(name=tournament.name))
        snapshot = await self.tournaments.snapshot(tournament.id)
        registered = snapshot.seeded
        if len(registered) < 2:
            raise Refusal(_("A tournament needs at least two players."))
        settings = TournamentSettings.of(tournament)
        seeded = await self._seeded(tournament, registered)
        placed = divisions(seeded) if settings.kind is Kind.LEAGUE else None
        if settings.kind is Kind.LEAGUE and (tournament.season or 1) > 1:
            seeded, placed = await self._next_divisions(tournament, seeded)

        try:
            await self.tournaments.start(
                tournament.id,
                tournament.version,
                seeded,
                [],
                self.time(),
                divisions=placed,
                then=advancing(tournament.id),
            )
        except ConflictError:
            raise Refusal(_("{name} has started already.").format(name=tournament.name)) from None
        started = await self.tournaments.get(tournament.id)
        return [
            await self.show.registration_message(context, started),
            *await self.show.started(context, started),
            *await self.starts.announce(context, tournament.id),
        ]

    async def _next_divisions(
        self, tournament: TournamentRecord, registered: list[int]
    ) -> tuple[list[int], dict[int, int]]:
        """A later season's divisions: from the season before, by promotion and relegation
        (newcomers at the bottom, in seed order)."""
        before = await self.tournaments.season(tournament.league_id, (tournament.season or 2) - 1)
        last = await self.tournaments.snapshot(before.id)
        return season_divisions(last, registered)

    async def _seeded(self, tournament: TournamentRecord, registered: list[int]) -> list[int]:
        if tournament.seeding == "random":
            seed = await self.tournaments.server_seed(tournament.id)
            return by_dice(registered, seed)
        game = GAMES.get(str(tournament.rules.get("variant", "backgammon")), "backgammon")
        ratings = {
            player: (await self.ratings.standing(player, game)).rating for player in registered
        }
        return by_rating(registered, ratings)

    async def pause(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        return await self._move(
            context, tournament, TournamentStatus.RUNNING, TournamentStatus.PAUSED
        )

    async def resume(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        said = await self._move(
            context, tournament, TournamentStatus.PAUSED, TournamentStatus.RUNNING
        )
        return said + await self.starts.announce(context, tournament.id)

    async def cancel(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        live = (TournamentStatus.OPEN, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        return await self._move(context, tournament, live, TournamentStatus.CANCELLED)

    async def _move(
        self,
        context: Context,
        tournament: TournamentRecord,
        allowed: TournamentStatus | tuple[TournamentStatus, ...],
        to: TournamentStatus,
    ) -> list[Message]:
        permitted = allowed if isinstance(allowed, tuple) else (allowed,)
        if tournament.status not in permitted:
            raise Refusal(self.show.status_refusal(context, tournament))
        try:
            await self.tournaments.set_status(tournament.id, tournament.version, permitted, to)
        except ConflictError:
            raise Refusal(context._("The tournament changed meanwhile: try again.")) from None
        return [self.show.status_change(context, tournament, to)]

    async def withdraw(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        _ = context._
        if tournament.status not in (TournamentStatus.RUNNING, TournamentStatus.PAUSED):
            raise Refusal(_("Before the start, /tournament leave takes a player off the list."))
        player = (await self._mentioned(context))[0] if context.request.mentions else context.user
        snapshot = await self.tournaments.snapshot(tournament.id)
        playing = [
            m
            for m in snapshot.matches
            if player.id in m.player_ids and m.match_id and not m.decided
        ]
        if playing:
            raise Refusal(
                _(
                    "{name} is playing a match of the tournament: it ends first (resigned, or "
                    "decided by the clock)."
                ).format(name=player.display_name)
            )

        if not await self.tournaments.withdraw(
            tournament.id, player.id, self.time(), advancing(tournament.id)
        ):
            raise Refusal(_("{name} is not playing in it.").format(name=player.display_name))
        said = self.show.withdrawn(context, tournament, player)
        return [said, *await self.starts.news(context, tournament.id)]

    async def replace(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        _ = context._
        if len(context.request.mentions) != 2:
            raise Refusal(_("Name both players: /tournament replace @leaving @coming"))
        leaving, coming = await self._mentioned(context)
        if not await self.tournaments.replace(tournament.id, leaving.id, coming.id):
            raise Refusal(
                _(
                    "{leaving} cannot be replaced: not in the tournament, a match of theirs "
                    "has begun, or {coming} plays in it already."
                ).format(leaving=leaving.display_name, coming=coming.display_name)
            )
        said = self.show.replaced(context, tournament, leaving, coming)
        return [said, *await self.starts.announce(context, tournament.id)]

    async def decide(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        """The organiser decides a pairing whose deadline passed before its match began."""
        _ = context._
        if len(context.request.mentions) != 1:
            raise Refusal(_("Name the winner: /tournament decide @winner"))
        (winner,) = await self._mentioned(context)
        now = self.time()
        snapshot = await self.tournaments.snapshot(tournament.id)
        waiting = [
            pairing
            for pairing in snapshot.matches
            if winner.id in pairing.player_ids
            and not pairing.decided
            and pairing.match_id is None
            and pairing.deadline is not None
            and pairing.deadline <= now
        ]
        if not waiting:
            raise Refusal(
                _(
                    "{name} has no match past its deadline that never began: a match under "
                    "way is claimed by the player who waited (/claim)."
                ).format(name=winner.display_name)
            )

        if not await self.tournaments.decide(waiting[0], winner.id, now, advancing(tournament.id)):
            raise Refusal(_("The tournament changed meanwhile: try again."))
        said = self.show.decided(context, tournament, winner)
        return [said, *await self.starts.news(context, tournament.id)]

    async def _mentioned(self, context: Context) -> list[UserRecord]:
        return await mentioned_users(context, self.users)
