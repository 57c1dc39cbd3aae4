"""``/tournament`` and its buttons: open one (administrators and the chat's organisers),
register ([Join], /tournament join and leave), start it with its seeds and first pairings,
pause, resume, cancel, withdraw a player (their matches still to play are walkovers), replace a
player before their first match, and show it.

The organiser who opened it, an administrator of the chat or an organiser the chat's defaults
name runs it (:mod:`bot.core.tournament.organising`); a player may withdraw themselves. One
tournament runs in a chat at a time (its matches seat its players there). In a pairing's
thread (a chat of its own) /tournament shows the pairing's tournament, and its other commands
are sent to the tournament's chat.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.core.context import Context
from bot.core.match.options import OptionError
from bot.core.model import Message
from bot.core.refusal import Refusal
from bot.core.runtime.time_source import TimeSource
from bot.core.text.player_text import isolated
from bot.core.tokens import Token, Verb
from bot.core.tournament import organising
from bot.core.tournament.options import parse_tournament_options
from bot.core.tournament.running import TournamentRunning
from bot.core.tournament.settings import Kind, stored_lengths
from bot.core.tournament.show import TournamentShow
from bot.core.tournament.starts import TournamentStarts
from storage import (
    LIVE_TOURNAMENT,
    ConflictError,
    SecretSeed,
    TournamentRecord,
    TournamentRepository,
    TournamentStatus,
)

Action = Callable[[Context, TournamentRecord, list[str]], Awaitable[list[Message]]]


class TournamentService:
    def __init__(
        self,
        tournaments: TournamentRepository,
        starts: TournamentStarts,  # its [Start] presses are routed to it
        show: TournamentShow,
        time: TimeSource,
        server_seeds: Callable[[], bytes],
        running: TournamentRunning,
    ) -> None:
        self.tournaments = tournaments
        self.starts = starts
        self.show = show
        self.time = time
        self.server_seeds = server_seeds
        self.running = running
        self._run: dict[str, Action] = {
            "start": running.start,
            "pause": running.pause,
            "resume": running.resume,
            "cancel": running.cancel,
            "withdraw": running.withdraw,
            "replace": running.replace,
            "decide": running.decide,
        }

    async def tournament(self, context: Context, argument: str) -> list[Message]:
        """/tournament [new …|join|leave|start|pause|resume|cancel|withdraw|replace]."""
        words = argument.split()
        action = words[0].lower() if words else "show"
        if action == "new":
            return await self._new(context, argument.split(None, 1)[1] if len(words) > 1 else "")
        if action == "next":
            return await self._next_season(context)
        if action == "show":  # the live one, else the last one's outcome; in a pairing's thread,
            # the tournament it belongs to
            latest = await self.tournaments.latest_in_chat(context.chat.id)
            if latest is None:
                latest = await self.tournaments.of_thread(context.chat.id)
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
            await self._not_in_a_pairings_thread(context)
            raise Refusal(
                context._(
                    "There is no tournament in this chat. An administrator or an organiser opens "
                    "one with /tournament new."
                )
            )
        return live[-1]

    async def _not_in_a_pairings_thread(self, context: Context) -> None:
        """A pairing's thread is a chat without a tournament of its own: a command that runs
        its live tournament, typed there, is sent to the tournament's chat (where what it says
        and announces belongs)."""
        owner = await self.tournaments.of_thread(context.chat.id)
        if owner is not None and owner.status in LIVE_TOURNAMENT:
            raise Refusal(
                context._(
                    "{name} is run from the chat it was opened in, not from a pairing's "
                    "thread: type the command there."
                ).format(name=owner.name)
            )

    async def _organiser_only(self, context: Context, tournament: TournamentRecord) -> None:
        await organising.may_run(context, self.running.users, tournament)

    async def _new(self, context: Context, text: str) -> list[Message]:
        _ = context._
        await organising.may_open(context, self.running.users)
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
            closes_at=(
                None
                if options.registration_seconds is None
                else self.time() + timedelta(seconds=options.registration_seconds)
            ),
        )
        await self.tournaments.join(opened.id, context.user.id, self.time())
        return [await self.show.registration_message(context, opened)]

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
        return [await self.show.registration_message(context, opened)]

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
        return [await self.show.registration_message(context, tournament)]
