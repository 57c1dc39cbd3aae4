"""``/tournament`` and its buttons: open one (administrators), register ([Join], /tournament
join and leave), start it with its seeds and first pairings, pause, resume, cancel, withdraw a
player (their matches still to play are walkovers), replace a player before their first
match, and show it.

The organiser who opened it or an administrator of the chat runs it; a player may withdraw
themselves. One tournament runs in a chat at a time (its matches seat its players there).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from bot.core.context import Context
from bot.core.match.options import OptionError
from bot.core.model import Button, Message, Public, Slot
from bot.core.people import MAX_ACCOUNT_ID, clean_name
from bot.core.permissions import Permission
from bot.core.refusal import Refusal
from bot.core.runtime.time_source import TimeSource
from bot.core.text.player_text import isolated
from bot.core.tokens import Token, Verb, format_token
from bot.core.tournament.advance import advance_locked
from bot.core.tournament.options import parse_tournament_options
from bot.core.tournament.seasons import season_divisions
from bot.core.tournament.seeding import by_dice, by_rating, divisions
from bot.core.tournament.settings import Kind, TournamentSettings, stored_lengths
from bot.core.tournament.show import TournamentShow
from bot.core.tournament.starts import TournamentStarts
from storage import (
    ConflictError,
    RatingRepository,
    SecretSeed,
    TournamentRecord,
    TournamentRepository,
    TournamentStatus,
    UserRecord,
    UserRepository,
)
from storage.transaction import Transaction

TOURNAMENT: Final = "t"  # the token kind of a tournament's [Join] and [Leave]
GAMES: Final = {"backgammon": "backgammon", "long_nardy": "nardy"}

Action = Callable[[Context, TournamentRecord, list[str]], Awaitable[list[Message]]]


def registration_slot(tournament_id: int) -> Slot:
    return Slot(f"tournament:{tournament_id}")


class TournamentService:
    def __init__(
        self,
        tournaments: TournamentRepository,
        users: UserRepository,
        ratings: RatingRepository,
        starts: TournamentStarts,
        show: TournamentShow,
        time: TimeSource,
        server_seeds: Callable[[], bytes],
    ) -> None:
        self.tournaments = tournaments
        self.users = users
        self.ratings = ratings
        self.starts = starts
        self.show = show
        self.time = time
        self.server_seeds = server_seeds
        self._run: dict[str, Action] = {
            "start": self._start,
            "pause": self._pause,
            "resume": self._resume,
            "cancel": self._cancel,
            "withdraw": self._withdraw,
            "replace": self._replace,
            "decide": self._decide,
        }

    async def tournament(self, context: Context, argument: str) -> list[Message]:
        """/tournament [new …|join|leave|start|pause|resume|cancel|withdraw|replace]."""
        words = argument.split()
        action = words[0].lower() if words else "show"
        if action == "new":
            return await self._new(context, argument.split(None, 1)[1] if len(words) > 1 else "")
        if action == "next":
            return await self._next_season(context)
        if action == "show":  # the live one, else the last one's outcome
            latest = await self.tournaments.latest_in_chat(context.chat.id)
            shown = latest if latest is not None else await self._current(context)
            return await self.show.tournament(context, shown)
        current = await self._current(context)
        if action in ("join", "leave"):
            return await self._register(context, current, join=action == "join")
        run = self._run.get(action)
        if run is None:
            raise Refusal(
                context._(
                    "I do not know “{word}”. /tournament new, join, leave, start, pause, "
                    "resume, cancel, withdraw, replace, decide or next."
                ).format(word=isolated(words[0]))
            )
        if action != "withdraw" or context.request.mentions:
            await self._organiser_only(context, current)
        return await run(context, current, words[1:])

    async def press(self, context: Context, token: Token) -> list[Message]:
        """[Join] and [Leave] under a registration."""
        if token.verb not in (Verb.JOIN, Verb.LEAVE):
            raise Refusal(context._("That button is out of date."))
        tournament = await self.tournaments.get(token.target)
        if tournament.chat_id != context.chat.id:
            raise Refusal(context._("That button is out of date."))
        return await self._register(context, tournament, join=token.verb == Verb.JOIN)

    async def _current(self, context: Context) -> TournamentRecord:
        live = await self.tournaments.live_in_chat(context.chat.id)
        if not live:
            raise Refusal(
                context._(
                    "There is no tournament in this chat. An administrator opens one with "
                    "/tournament new."
                )
            )
        return live[-1]

    async def _organiser_only(self, context: Context, tournament: TournamentRecord) -> None:
        if not await context.may(Permission.HOST_OR_ADMIN, tournament.organiser_id):
            raise Refusal(
                context._("Only the organiser who opened the tournament or an administrator may.")
            )

    async def _new(self, context: Context, text: str) -> list[Message]:
        _ = context._
        try:
            options = parse_tournament_options(text)
        except OptionError as error:
            raise Refusal(
                _(
                    "I cannot read the option “{word}”. Example: /tournament new single "
                    'consolation 7 final=9 "Friday cup"'
                ).format(word=isolated(error.word))
            ) from None
        if await self.tournaments.live_in_chat(context.chat.id):
            raise Refusal(_("This chat has a tournament already: /tournament shows it."))
        settings = options.settings
        rules = options.rules.to_dict()
        league_id = None
        if settings.kind is Kind.LEAGUE:
            league_id = await self.tournaments.create_league(
                context.chat.id,
                context.user.id,
                options.name or context.for_chat._("League"),
                settings.promoted,
                settings.relegated,
                self.time(),
            )
        opened = await self.tournaments.create(
            chat_id=context.chat.id,
            organiser_id=context.user.id,
            name=options.name or context.for_chat._("Tournament"),
            format=settings.stored_format(),
            lengths=stored_lengths(settings.lengths),
            rules=rules,
            seeding="random" if options.random_seeding else "rating",
            seed=SecretSeed(self.server_seeds()),
            moment=self.time(),
            rated=options.rated,
            move_time_limit=options.move_time_limit,
            match_days=settings.match_days,
            league_id=league_id,
            season=None if league_id is None else 1,
        )
        await self.tournaments.join(opened.id, context.user.id, self.time())
        return [await self._registration(context, opened)]

    async def _next_season(self, context: Context) -> list[Message]:
        """The league's next season, open for registration with the last one's players."""
        _ = context._
        last = await self.tournaments.latest_season(context.chat.id)
        if last is None:
            raise Refusal(_("This chat has no league: /tournament new league opens one."))
        await self._organiser_only(context, last)
        if last.status is not TournamentStatus.FINISHED:
            raise Refusal(_("The season must end before the next one opens."))
        if await self.tournaments.live_in_chat(context.chat.id):
            raise Refusal(_("This chat has a tournament already: /tournament shows it."))
        snapshot = await self.tournaments.snapshot(last.id)
        opened = await self.tournaments.create(
            chat_id=last.chat_id,
            organiser_id=last.organiser_id,
            name=last.name,
            format=last.format,
            lengths=last.lengths,
            rules=last.rules,
            seeding=last.seeding,
            seed=SecretSeed(self.server_seeds()),
            moment=self.time(),
            rated=last.rated,
            move_time_limit=last.move_time_limit,
            match_days=last.match_days,
            league_id=last.league_id,
            season=(last.season or 1) + 1,
        )
        for user_id in snapshot.seeded:
            if user_id not in snapshot.withdrawn:
                await self.tournaments.join(opened.id, user_id, self.time())
        return [await self._registration(context, opened)]

    async def _registration(self, context: Context, tournament: TournamentRecord) -> Message:
        """The registration message, with its buttons while registration is open."""
        text = await self.show.registration(context, tournament)
        _ = context.for_chat
        buttons: tuple[Button, ...] = ()
        if tournament.status is TournamentStatus.OPEN:
            buttons = (
                Button(_("Join"), format_token(Token(Verb.JOIN, TOURNAMENT, tournament.id, 0))),
                Button(_("Leave"), format_token(Token(Verb.LEAVE, TOURNAMENT, tournament.id, 0))),
            )
        return Message(
            context.request.chat, text, buttons, kind=Public(registration_slot(tournament.id))
        )

    async def _register(
        self, context: Context, tournament: TournamentRecord, join: bool
    ) -> list[Message]:
        _ = context._
        if tournament.status is not TournamentStatus.OPEN:
            raise Refusal(_("Registration for {name} is closed.").format(name=tournament.name))
        try:
            if join:
                changed = await self.tournaments.join(tournament.id, context.user.id, self.time())
            else:
                changed = await self.tournaments.leave(tournament.id, context.user.id)
        except ConflictError:
            raise Refusal(
                _("Registration for {name} is closed.").format(name=tournament.name)
            ) from None
        if not changed:
            raise Refusal(
                _("You are registered already.") if join else _("You are not registered.")
            )
        return [await self._registration(context, tournament)]

    async def _start(
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

        def first_pairings(transaction: Transaction) -> None:
            advance_locked(transaction, tournament.id)

        try:
            await self.tournaments.start(
                tournament.id,
                tournament.version,
                seeded,
                [],
                self.time(),
                divisions=placed,
                then=first_pairings,
            )
        except ConflictError:
            raise Refusal(_("{name} has started already.").format(name=tournament.name)) from None
        started = await self.tournaments.get(tournament.id)
        return [
            await self._registration(context, started),
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

    async def _pause(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        return await self._move(
            context, tournament, TournamentStatus.RUNNING, TournamentStatus.PAUSED
        )

    async def _resume(
        self, context: Context, tournament: TournamentRecord, _words: list[str]
    ) -> list[Message]:
        said = await self._move(
            context, tournament, TournamentStatus.PAUSED, TournamentStatus.RUNNING
        )
        return said + await self.starts.announce(context, tournament.id)

    async def _cancel(
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

    async def _withdraw(
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

        def walkovers(transaction: Transaction) -> None:
            advance_locked(transaction, tournament.id)

        if not await self.tournaments.withdraw(tournament.id, player.id, self.time(), walkovers):
            raise Refusal(_("{name} is not playing in it.").format(name=player.display_name))
        said = self.show.withdrawn(context, tournament, player)
        return [said, *await self.starts.announce(context, tournament.id)]

    async def _replace(
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

    async def _decide(
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

        def advance(transaction: Transaction) -> None:
            advance_locked(transaction, tournament.id)

        if not await self.tournaments.decide(waiting[0], winner.id, now, advance):
            raise Refusal(_("The tournament changed meanwhile: try again."))
        said = self.show.decided(context, tournament, winner)
        return [said, *await self.starts.announce(context, tournament.id)]

    async def _mentioned(self, context: Context) -> list[UserRecord]:
        found: list[UserRecord] = []
        for target in context.request.mentions:
            if not target.user_id or len(target.user_id) > MAX_ACCOUNT_ID:
                raise Refusal(context._("I cannot find that player."))
            name = clean_name(target.name, target.user_id)
            found.append(await self.users.upsert_user(target.platform, target.user_id, name))
        return found
