"""The composition root: builds the repositories, the services and the ports, once per core.

:func:`assemble` is the only place that knows how the parts fit: which repository and which
service each service is given, the clock's port, the web pages' read model, the worker
processes. :class:`~bot.core.service.Core` keeps of it only what answering a request needs and
hands the rest out as :class:`Ports` (the host gives each consumer its own: the clock its
:class:`~bot.core.scheduler.ClockPort`, the web server the read model, the analyst its queue).
Every consumer's port is listed in :mod:`bot.core.ports`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from bot.core.chouette.check import ChouetteCheck
from bot.core.chouette.clock import ChouetteClock
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
from bot.core.delivery import Delivery
from bot.core.dispatch import Services
from bot.core.documents.match_pages import MatchPages
from bot.core.documents.web_links import WebLinks
from bot.core.info.board_reads import BoardPageReads
from bot.core.info.information import InfoService
from bot.core.info.page_reads import MatchPageReads
from bot.core.info.replaying import ReplayService
from bot.core.info.replays import GameAnimations, ReplayFrames, ReplayPictures
from bot.core.info.standings import StandingsService
from bot.core.info.tournament_page import TournamentPageReads
from bot.core.match.attention import Attention
from bot.core.match.board_links import BoardLinks
from bot.core.match.challenges import ChallengeService
from bot.core.match.driver import MatchDriver
from bot.core.match.match_finder import MatchFinder
from bot.core.match.match_list import MatchList
from bot.core.match.playing import PlayService
from bot.core.match.presenter import Presenter
from bot.core.match.rematches import Rematches
from bot.core.match.time_outs import TimeOuts
from bot.core.people import PlayerNames
from bot.core.runtime.admission import Admission
from bot.core.runtime.inbox import UpdateInbox
from bot.core.runtime.locks import MatchLocks
from bot.core.runtime.painter import Painter, shared_painter
from bot.core.runtime.pictures import BoardPictures
from bot.core.runtime.time_source import TimeSource
from bot.core.scheduler import Clock, ClockPort
from bot.core.settings import SettingsService
from bot.core.threads import ThreadPorts
from bot.core.tournament.commands import TournamentService
from bot.core.tournament.deadlines import TournamentClock
from bot.core.tournament.pairing_threads import PairingThreads
from bot.core.tournament.running import TournamentRunning
from bot.core.tournament.show import TournamentShow
from bot.core.tournament.starts import TournamentStarts
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
    PageSecretRepository,
    PostedMessageRepository,
    RatingRepository,
    TournamentRepository,
    UserRepository,
)
from storage.player_results import PlayerResultRepository

# Requests computing at once (see Core.handle); measured with 200 matches played together.
REQUESTS_AT_ONCE = 4


@dataclass(frozen=True)
class Options:
    """How a core is built (the keyword arguments of :class:`~bot.core.service.Core`)."""

    render_images: bool = True
    clock: Callable[[], datetime] | None = None
    server_seeds: Callable[[], bytes] = new_server_seed
    challenge_limits: ChallengeLimits | None = None
    computer: Computer | None = None
    hint_limits: HintLimits | None = None
    web_base_url: str | None = None
    page_link_hours: float = 24.0  # how long a private link to the board page acts


@dataclass(frozen=True)
class Repositories:
    """The storage the services share: one instance of each repository per core (each keeps
    its own cache of states), for the services and for tests that set up or look at what the
    database holds."""

    users: UserRepository
    chats: ChatRepository
    challenges: ChallengeRepository
    matches: MatchRepository
    dice: DiceRepository
    chouettes: ChouetteRepository
    ratings: RatingRepository
    analyses: AnalysisRepository
    results: PlayerResultRepository
    tournaments: TournamentRepository
    page_secret: PageSecretRepository

    @classmethod
    def of(cls, database: Database) -> Repositories:
        return cls(
            UserRepository(database),
            ChatRepository(database),
            ChallengeRepository(database),
            MatchRepository(database),
            DiceRepository(database),
            ChouetteRepository(database),
            RatingRepository(database),
            AnalysisRepository(database),
            PlayerResultRepository(database),
            TournamentRepository(database),
            PageSecretRepository(database),
        )


@dataclass(frozen=True)
class Workers:
    """The worker processes of a core: the painter's and the engine's."""

    painter: Painter
    computer: Computer

    async def start(self) -> None:
        """Start the drawing processes (the engine's start on first use)."""
        await self.painter.start()

    async def warm_up(self) -> None:
        """Load the engine's weights in its workers before the first move needs them."""
        await self.computer.warm_up()

    def close(self) -> None:
        """Stop both (at the host's end, not at interpreter exit: a host may run again)."""
        self.painter.close()
        self.computer.close()


@dataclass(frozen=True)
class Ports:
    """What the host hands out beside the chat front-ends' port (the core itself)."""

    clock: Clock
    pages: MatchPageReads
    boards: BoardPageReads  # the board page's (/m/<slug>/play)
    analyst: Analyst
    workers: Workers
    repositories: Repositories
    services: Services  # the dispatcher's (tests check the registry's references against it)
    locks: MatchLocks  # the matches' (tests check that every one is released)
    bots: BotAccounts  # the accounts the bot runs as, by platform


@dataclass(frozen=True)
class Assembly:
    """Everything :func:`assemble` built: what the core keeps, and the :class:`Ports`."""

    ports: Ports
    time: TimeSource
    admission: Admission
    delivery: Delivery
    inbox: UpdateInbox
    suggestions: MoveSuggestions
    names: PlayerNames
    threads: ThreadPorts  # each front-end's threads, registered when it starts


@dataclass(frozen=True)
class _Shared:
    """What many services share: built first, handed to each that needs it."""

    stores: Repositories
    time: TimeSource
    locks: MatchLocks
    painter: Painter
    computer: Computer
    admission: Admission
    names: PlayerNames
    bots: BotAccounts
    options: Options
    threads: ThreadPorts


def assemble(database: Database, options: Options, idle: Callable[[], bool]) -> Assembly:
    """Build a core's parts on ``database``; ``idle`` says whether no request is being
    answered (the pages draw only then)."""
    stores = Repositories.of(database)
    admission = Admission(REQUESTS_AT_ONCE)
    computer = options.computer or Computer()
    computer.admission = admission  # engine waits give the place away
    time = TimeSource(options.clock) if options.clock is not None else TimeSource()
    shared = _Shared(
        stores,
        time,
        MatchLocks(),
        shared_painter(),
        computer,
        admission,
        PlayerNames(stores.users),
        BotAccounts(stores.users),
        options,
        ThreadPorts(),
    )
    services, clock, pages = _services(shared, idle)
    ports = Ports(
        clock,
        pages,
        BoardPageReads(
            stores.matches, stores.users, stores.chats, shared.names, time, stores.page_secret
        ),
        Analyst(
            stores.analyses,
            stores.matches,
            stores.chats,
            shared.names,
            computer,
            shared.painter,
            time,
        ),
        Workers(shared.painter, computer),
        stores,
        services,
        shared.locks,
        shared.bots,
    )
    return Assembly(
        ports,
        time,
        admission,
        Delivery(PostedMessageRepository(database), stores.users),
        UpdateInbox(InboxRepository(database)),
        MoveSuggestions(stores.users, stores.chats, stores.matches),
        shared.names,
        shared.threads,
    )


@dataclass(frozen=True)
class _Tables:
    """What drives and shows the tables, shared by the services, the clock and the pages."""

    pictures: BoardPictures
    replay_frames: ReplayFrames
    replay_pictures: ReplayPictures
    animations: GameAnimations
    presenter: Presenter
    finder: MatchFinder
    opponent: ComputerOpponent
    driver: MatchDriver
    computer_matches: ComputerMatches
    chouette: ChouetteService
    tournament_starts: TournamentStarts
    tournament_running: TournamentRunning


def _services(shared: _Shared, idle: Callable[[], bool]) -> tuple[Services, Clock, MatchPageReads]:
    """The dispatcher's services, the clock and the pages' read model, each given exactly
    what it uses, in the order its fields declare (all of different types, so mypy catches a
    mix-up)."""
    tables = _tables(shared)
    return _dispatched(shared, tables), _clock(shared, tables), _pages(shared, tables, idle)


def _tables(shared: _Shared) -> _Tables:
    stores, time, options = shared.stores, shared.time, shared.options
    pictures = BoardPictures(shared.painter, options.render_images, shared.admission)
    replay_frames = ReplayFrames(stores.matches)
    replay_pictures = ReplayPictures(shared.painter, options.render_images, shared.admission)
    animations = GameAnimations(replay_frames, replay_pictures)
    presenter = Presenter(
        pictures.draw,
        shared.names.of,
        stores.dice,
        stores.matches,
        animations,
        MatchPages(WebLinks(options.web_base_url)),
        Attention(stores.matches, time),
        stores.ratings,
    )
    finder = MatchFinder(stores.matches, stores.chats, shared.names)
    tournament_show = TournamentShow(
        stores.tournaments,
        stores.users,
        WebLinks(options.web_base_url),
        shared.painter if options.render_images else None,
    )
    tournament_starts = TournamentStarts(
        stores.tournaments,
        stores.matches,
        stores.users,
        stores.chats,
        presenter,
        tournament_show,
        time,
        options.server_seeds,
        PairingThreads(shared.threads, stores.chats, stores.tournaments),
    )
    opponent = ComputerOpponent(
        shared.computer, stores.matches, stores.dice, stores.chats, shared.names, presenter, time
    )
    driver = MatchDriver(
        stores.matches,
        stores.dice,
        stores.chats,
        shared.names,
        presenter,
        finder,
        shared.locks,
        time,
        opponent,
        tournament_starts,
    )
    computer_matches = ComputerMatches(
        shared.bots,
        stores.users,
        stores.challenges,
        stores.matches,
        stores.dice,
        presenter,
        opponent,
        shared.locks,
        time,
        options.server_seeds,
        options.challenge_limits or ChallengeLimits(),
    )
    return _Tables(
        pictures,
        replay_frames,
        replay_pictures,
        animations,
        presenter,
        finder,
        opponent,
        driver,
        computer_matches,
        _chouette(shared, finder),
        tournament_starts,
        TournamentRunning(
            stores.tournaments,
            stores.users,
            stores.ratings,
            tournament_starts,
            tournament_show,
            time,
        ),
    )


def _dispatched(shared: _Shared, tables: _Tables) -> Services:
    stores, time, options, names = shared.stores, shared.time, shared.options, shared.names
    challenges = ChallengeService(
        stores.challenges,
        stores.users,
        stores.matches,
        stores.dice,
        tables.presenter,
        time,
        options.server_seeds,
        options.challenge_limits or ChallengeLimits(),
        tables.computer_matches,
    )
    return Services(
        challenges=challenges,
        rematches=Rematches(
            stores.challenges,
            stores.users,
            stores.matches,
            challenges,
            tables.computer_matches,
            time,
        ),
        play=PlayService(
            tables.driver,
            tables.finder,
            stores.matches,
            stores.dice,
            stores.users,
            names,
            tables.pictures,
            time,
            tables.chouette,
            stores.tournaments.deadline_of_match,
            BoardLinks(
                stores.matches,
                WebLinks(options.web_base_url),
                stores.page_secret.secret,
                time,
                options.page_link_hours,
            ),
        ),
        info=InfoService(
            tables.finder,
            tables.driver,
            stores.matches,
            stores.challenges,
            stores.dice,
            names,
            tables.presenter,
            tables.pictures,
            time,
            tables.chouette,
        ),
        matches=MatchList(stores.matches, names, time),
        settings=SettingsService(stores.users, stores.chats, time),
        computer=tables.computer_matches,
        advice=AdviceService(
            tables.finder,
            stores.matches,
            stores.analyses,
            shared.computer,
            shared.painter,
            options.hint_limits or HintLimits(),  # per player, in this process
            time,
        ),
        replay=ReplayService(
            tables.finder,
            stores.matches,
            names,
            tables.replay_frames,
            tables.replay_pictures,
            tables.animations,
        ),
        standings=StandingsService(stores.ratings, stores.results, stores.users, shared.painter),
        chouette=tables.chouette,
        tournaments=TournamentService(
            stores.tournaments,
            tables.tournament_starts,
            tables.tournament_starts.show,
            time,
            options.server_seeds,
            tables.tournament_running,
        ),
    )


def _clock(shared: _Shared, tables: _Tables) -> Clock:
    stores = shared.stores
    return Clock(
        ClockPort(
            stores.challenges,
            stores.chats,
            stores.users,
            stores.matches,
            tables.driver.settle_unanswered_resignation,
            partial(tables.opponent.resume, locks=shared.locks),
            shared.time,
            ChouetteClock(stores.chouettes, stores.chats, stores.users, tables.chouette.play),
            TournamentClock(
                stores.tournaments,
                stores.matches,
                stores.users,
                stores.chats,
                tables.tournament_starts,
                tables.tournament_running,
                shared.time,
            ).tick,
            TimeOuts(tables.driver).due,
            TimeOuts(tables.driver).next_deadline,
        )
    )


def _pages(shared: _Shared, tables: _Tables, idle: Callable[[], bool]) -> MatchPageReads:
    stores = shared.stores
    return MatchPageReads(
        stores.matches,
        stores.analyses,
        stores.dice,
        shared.names,
        tables.replay_frames,
        tables.replay_pictures,
        shared.painter,
        idle,
        TournamentPageReads(stores.tournaments, stores.users),
    )


def _chouette(shared: _Shared, finder: MatchFinder) -> ChouetteService:
    """The chouette's commands and play, with locks of its own (chouettes' ids are not
    matches')."""
    chouettes, time, admission = shared.stores.chouettes, shared.time, shared.admission
    view = ChouetteView(
        shared.painter, Attention(chouettes, time), shared.options.render_images, admission
    )
    rounds = ChouetteRounds(chouettes, shared.stores.users, view, time)
    locks = MatchLocks()
    check = ChouetteCheck(chouettes, rounds)
    return ChouetteService(
        chouettes,
        ChouetteSeating(chouettes, rounds, locks, time, shared.options.server_seeds, check),
        ChouetteJoining(chouettes, rounds, locks, time),
        ChouettePlay(chouettes, rounds, view, locks, time),
        finder,
        check,
    )
