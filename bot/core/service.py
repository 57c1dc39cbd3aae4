"""The command layer: requests in, messages out, the database as the only truth.

:class:`Core` is the composition root and a thin dispatcher: it builds the repositories and
the services (challenges, rematches, play, information, settings, suggestions, invitation
links), finds who asks and where, and hands the request to the :class:`Dispatcher`, which
routes commands, buttons and typed plays through the registry. Whether the asker administers
the chat is asked of the front-end's :class:`AdminPort`, and only when a command needs it.
Every change of a match goes through the :class:`MatchDriver`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any

from bot.core import registry
from bot.core.chouette.check import ChouetteCheck
from bot.core.chouette.commands import ChouetteService
from bot.core.chouette.joining import ChouetteJoining
from bot.core.chouette.play import ChouettePlay
from bot.core.chouette.rounds import ChouetteRounds
from bot.core.chouette.seating import ChouetteSeating
from bot.core.chouette.view import ChouetteView
from bot.core.computer.advice import AdviceService
from bot.core.computer.analyst import Analyst
from bot.core.computer.bot_accounts import BotAccounts
from bot.core.computer.computer import Computer
from bot.core.computer.computer_matches import ComputerMatches
from bot.core.computer.hint_limits import HintLimits
from bot.core.computer.opponent import ComputerOpponent
from bot.core.computer.suggestions import MoveSuggestions
from bot.core.context import Context, OwnMatch
from bot.core.delivery import Delivery
from bot.core.dispatch import Dispatcher, Services
from bot.core.documents.match_pages import MatchPages
from bot.core.documents.web_links import WebLinks
from bot.core.info.information import InfoService
from bot.core.info.replaying import ReplayService
from bot.core.info.replays import GameAnimations, ReplayFrames, ReplayPictures
from bot.core.info.standings import StandingsService
from bot.core.match.attention import Attention
from bot.core.match.challenges import ChallengeService
from bot.core.match.driver import MatchDriver
from bot.core.match.links import ChallengeLinks
from bot.core.match.match_finder import MatchFinder
from bot.core.match.match_list import MatchList
from bot.core.match.playing import PlayService
from bot.core.match.presenter import Presenter
from bot.core.match.rematches import Rematches
from bot.core.model import MAX_TEXT, Actor, ChatRef, Message, Request
from bot.core.people import MAX_ACCOUNT_ID, PlayerNames, clean_name
from bot.core.permissions import AdminPort, AdminPorts, AdminQuestion
from bot.core.runtime.admission import Admission
from bot.core.runtime.inbox import UpdateInbox
from bot.core.runtime.locks import MatchLocks
from bot.core.runtime.painter import shared_painter
from bot.core.runtime.pictures import BoardPictures
from bot.core.runtime.time_source import TimeSource
from bot.core.settings import SettingsService
from bot.core.text.i18n import normalize_locale, resolve_locale, room_locale
from bot.core.text.player_text import without_bidi_controls
from gammon.fair_dice import new_server_seed
from storage import (
    AnalysisRepository,
    ChallengeLimits,
    ChallengeRepository,
    ChatRepository,
    ChouetteRepository,
    Database,
    DiceRepository,
    InboxRepository,
    MatchRepository,
    PostedMessageRepository,
    RatingRepository,
    UserRepository,
)
from storage.player_results import PlayerResultRepository

logger = logging.getLogger(__name__)

# Requests computing at once (see Core.handle); measured with 200 matches played together.
REQUESTS_AT_ONCE = 4


class Core:
    """The bot, free of any chat platform."""

    def __init__(
        self,
        database: Database,
        *,
        render_images: bool = True,
        clock: Callable[[], datetime] | None = None,
        server_seeds: Callable[[], bytes] = new_server_seed,
        challenge_limits: ChallengeLimits | None = None,
        computer: Computer | None = None,
        hint_limits: HintLimits | None = None,
        web_base_url: str | None = None,
    ) -> None:
        self.time = TimeSource(clock) if clock is not None else TimeSource()
        self.users = UserRepository(database)
        self.chats = ChatRepository(database)
        self.challenges = ChallengeRepository(database)
        self.matches = MatchRepository(database)
        self.dice = DiceRepository(database)
        self.delivery = Delivery(PostedMessageRepository(database), self.users)  # adapters' port
        self.inbox = UpdateInbox(InboxRepository(database))  # a webhook's, each handled once
        self.locks = MatchLocks()
        self.painter = shared_painter()
        self.computer = computer or Computer()
        self.bots = BotAccounts(self.users)
        self.admission = Admission(REQUESTS_AT_ONCE)
        self.computer.admission = self.admission  # engine waits give the place away
        self._pending = 0  # requests being answered or waiting for their turn
        names = self.names = PlayerNames(self.users)
        pictures = BoardPictures(self.painter, render_images, self.admission)
        self.links = WebLinks(web_base_url)
        self.replay_frames = ReplayFrames(self.matches)
        replay_pictures = self.replay_pictures = ReplayPictures(
            self.painter, render_images, self.admission
        )
        animations = GameAnimations(self.replay_frames, replay_pictures)
        self.ratings = RatingRepository(database)
        presenter = Presenter(
            pictures.draw,
            names.of,
            self.dice,
            self.matches,
            animations,
            MatchPages(self.links),
            Attention(self.matches, self.time),
            self.ratings,
        )
        finder = MatchFinder(self.matches, self.chats, names)
        # Each service gets exactly what it uses, in the order its fields declare (all of
        # different types, so mypy catches a mix-up).
        self.opponent = ComputerOpponent(
            self.computer, self.matches, self.dice, self.chats, names, presenter, self.time
        )
        self.driver = MatchDriver(
            self.matches,
            self.dice,
            self.chats,
            names,
            presenter,
            finder,
            self.locks,
            self.time,
            self.opponent,
        )
        limits = challenge_limits or ChallengeLimits()
        self.computer_matches = ComputerMatches(
            self.bots,
            self.users,
            self.challenges,
            self.matches,
            self.dice,
            presenter,
            self.opponent,
            self.locks,
            self.time,
            server_seeds,
            limits,
        )
        self.chouettes = ChouetteRepository(database)
        chouette_view = ChouetteView(
            self.painter, Attention(self.chouettes, self.time), render_images, self.admission
        )
        rounds = ChouetteRounds(self.chouettes, self.users, chouette_view, self.time)
        chouette_locks = MatchLocks()  # one per chouette: ids of their own
        chouette_check = ChouetteCheck(self.chouettes, rounds)
        self.chouette_service = ChouetteService(
            self.chouettes,
            ChouetteSeating(
                self.chouettes, rounds, chouette_locks, self.time, server_seeds, chouette_check
            ),
            ChouetteJoining(self.chouettes, rounds, chouette_locks, self.time),
            ChouettePlay(self.chouettes, rounds, chouette_view, chouette_locks, self.time),
            finder,
            chouette_check,
        )
        self.play = PlayService(
            self.driver,
            finder,
            self.matches,
            self.dice,
            self.users,
            names,
            pictures,
            self.time,
            self.chouette_service,
        )
        self.challenge_service = ChallengeService(
            self.challenges,
            self.users,
            self.matches,
            self.dice,
            presenter,
            self.time,
            server_seeds,
            limits,
            self.computer_matches,
        )
        self.rematches = Rematches(
            self.challenges,
            self.users,
            self.matches,
            self.challenge_service,
            self.computer_matches,
            self.time,
        )
        self.info = InfoService(
            finder,
            self.driver,
            self.matches,
            self.challenges,
            self.dice,
            names,
            presenter,
            pictures,
            self.time,
            self.chouette_service,
        )
        self.settings = SettingsService(self.users, self.chats, self.time)
        self.match_list = MatchList(self.matches, names, self.time)
        self.analyses = AnalysisRepository(database)
        self.hint_limits = hint_limits or HintLimits()  # per player, in this process
        self.advice = AdviceService(
            finder,
            self.matches,
            self.analyses,
            self.computer,
            self.painter,
            self.hint_limits,
            self.time,
        )
        self.analyst = Analyst(
            self.analyses, self.matches, self.chats, names, self.computer, self.painter, self.time
        )
        self.replaying = ReplayService(
            finder, self.matches, names, self.replay_frames, replay_pictures, animations
        )
        self.standings = StandingsService(
            self.ratings, PlayerResultRepository(database), self.users, self.painter
        )
        self.suggestions = MoveSuggestions(self.users, self.chats, self.matches)
        self.invitations = ChallengeLinks(self.challenges, self.chats, self.handle)
        self.admins = AdminPorts()  # each front-end's answer: who administers a chat
        self.dispatcher = Dispatcher(
            Services(
                challenges=self.challenge_service,
                rematches=self.rematches,
                play=self.play,
                info=self.info,
                matches=self.match_list,
                settings=self.settings,
                computer=self.computer_matches,
                advice=self.advice,
                replay=self.replaying,
                standings=self.standings,
                chouette=self.chouette_service,
            )
        )

    @property
    def clock(self) -> Callable[[], datetime]:
        """Now, for every service (tests replace it to jump ahead)."""
        return self.time.now

    @clock.setter
    def clock(self, now: Callable[[], datetime]) -> None:
        self.time.now = now

    # --- what the adapters call ----------------------------------------------------------

    async def handle(self, request: Request) -> list[Message]:
        """Answer one request. Nothing unexpected escapes: it is logged and apologised for.

        At most a few requests compute at once; the others wait their turn. The work is CPU
        bound (one interpreter lock), so more in flight would not finish sooner, but every
        continuation that becomes ready at the same moment runs before the event loop looks
        at anything else: bounding them bounds how long the adapters' network work waits."""
        self._pending += 1
        try:
            async with self.admission.place():
                return await self._handle(request)
        finally:
            self._pending -= 1

    def idle(self) -> bool:
        """No request is being answered or waiting for its turn right now."""
        return self._pending == 0

    async def register_bot(self, platform: str, user_id: str, name: str) -> None:
        """The account the bot runs as on ``platform`` (an adapter calls it when it starts):
        the player in matches against the bot, and whom ``/challenge @bot`` means."""
        await self.bots.register(platform, user_id, clean_name(name, user_id))

    def register_admins(self, platform: str, port: AdminPort) -> None:
        """How ``platform``'s front-end answers whether someone administers a group chat (an
        adapter calls it when it starts); asked only when a command needs it."""
        self.admins.register(platform, port)

    async def suggest_moves(
        self, actor: Actor, chat: ChatRef, typed: str = "", limit: int = 25
    ) -> list[str]:
        """The caller's legal plays that match what they typed so far (autocomplete)."""
        return await self.suggestions.suggest(actor, chat, typed, limit)

    async def accept_challenge_link(
        self, actor: Actor, private_chat: ChatRef, challenge_id: int, event_id: str
    ) -> list[Message]:
        """Accept a challenge through an invitation link opened in a private chat."""
        return await self.invitations.accept(actor, private_chat, challenge_id, event_id)

    # --- dispatch ------------------------------------------------------------------------

    async def _handle(self, request: Request) -> list[Message]:
        request = _storable(request)
        context = await self._context(request)
        return context.outgoing(await self._answer(context, request))

    async def _answer(self, context: Context, request: Request) -> list[Message]:
        try:
            return await self.dispatcher.answer(context, request)
        except Exception:
            logger.exception(
                "request failed: %s in chat %s", request.command or "press", request.chat
            )
            return context.refuse(context._("Sorry, something went wrong. Please try again."))

    async def _context(self, request: Request) -> Context:
        actor = request.actor
        # Both rows in one trip to the database thread (each as its own upsert would give),
        # and for a command on the caller's match in a group chat that match with them.
        on_match = not request.chat.private and _on_own_match(request)
        user, chat, also = await self.users.speaker_in_chat(
            self.chats,
            (
                actor.platform,
                actor.user_id,
                clean_name(actor.name, actor.user_id),
                normalize_locale(actor.locale),
            ),
            (
                request.chat.platform,
                request.chat.chat_id,
                # a private chat speaks its user's language (also to the clock, later)
                normalize_locale(actor.locale if request.chat.private else request.chat.locale),
            ),
            _own_match_queries(self.matches) if on_match else None,
        )
        locale = resolve_locale(user, chat, actor.locale)
        own = OwnMatch()
        if also is not None:
            own = OwnMatch(True, await self.matches.active_match_read(also))
        return Context(
            request,
            user,
            chat,
            locale,
            locale if request.chat.private else room_locale(chat),
            own_match=own,
            admin=AdminQuestion(partial(self.admins.is_admin, request.actor, request.chat)),
        )


def _text(value: str, limit: int) -> str:
    """Text that can be stored: lone surrogates (from undecodable bytes) become "?", and at
    most ``limit`` characters are kept."""
    return value[:limit].encode("utf-8", "replace").decode("utf-8")


def _written(value: str) -> str:
    """What a player wrote, as it is read: storable, without bidirectional controls."""
    return without_bidi_controls(_text(value, MAX_TEXT * 4))


def _actor(actor: Actor, id_limit: int = MAX_ACCOUNT_ID) -> Actor:
    return replace(actor, user_id=_text(actor.user_id, id_limit), name=_text(actor.name, 1024))


def _storable(request: Request) -> Request:
    """The request with every text fit for the database, however the adapter decoded it; what
    the player wrote is read without bidirectional controls (see :mod:`bot.core.text.player_text`),
    so it is stored, looked up and repeated as it is shown."""
    return replace(
        request,
        actor=_actor(request.actor),
        chat=replace(request.chat, chat_id=_text(request.chat.chat_id, MAX_ACCOUNT_ID)),
        command=None if request.command is None else _text(request.command, 64),
        argument=_written(request.argument),
        text=None if request.text is None else _written(request.text),
        token=None if request.token is None else _text(request.token, 128),
        event_id=_text(request.event_id, 128),
        # A mentioned id too long to be one is kept too long, so the challenge can refuse it.
        mentions=tuple(_actor(mention, 2 * MAX_ACCOUNT_ID) for mention in request.mentions[:10]),
    )


def _on_own_match(request: Request) -> bool:
    """Whether the request acts on or shows the caller's match (a typed play, /move, /roll…)."""
    if request.token is not None:
        return False
    if request.command is None:
        return request.text is not None
    return request.command.lower() in registry.ON_OWN_MATCH


def _own_match_queries(
    matches: MatchRepository,
) -> Callable[[int, int], list[tuple[Any, dict[str, Any]]]]:
    """The reads of a user's active match in a chat, given the user's and the chat's ids."""
    return lambda user_id, chat_id: matches.active_match_queries(chat_id, user_id)
