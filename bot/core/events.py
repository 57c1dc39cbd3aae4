"""What a game's or a match's end sets off: domain events, emitted where the rules are applied
(:mod:`bot.core.tables`), and their handlers, registered here in one place and run inside the
transaction that appends the events (:mod:`storage.event_log`).

A match's end frees its players' seats in the chat, advances its tournament if it was one's
(:mod:`bot.core.tournament.advance`), queues its analysis (backgammon only: long
nardy has no engine to analyse it), writes each person's result and, for a rated match, the
rating change (:func:`gammon.rating.rate`). A chouette game's end is marked until its
settlement writes the points; a chouette session's end frees its chat. Since all
of it is written with the events that finished the table, a crash leaves all of it or none,
and a match is rated exactly once whatever races. Storage only persists what these decide.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from bot.core.tournament.advance import advance_tournament as tournament_advance
from gammon.flow import MatchState, Phase, Step
from gammon.position import Variant
from gammon.rating import rate
from storage import MatchInfo, RatedMatch
from storage.event_log import Then
from storage.player_results import FinishedMatch
from storage.transaction import Transaction

# The ratings' name of each variant: players are rated apart in each.
GAMES: Final = {Variant.BACKGAMMON: "backgammon", Variant.LONG_NARDY: "nardy"}
# The variants the engine analyses; a finished match of another is queued as skipped.
ANALYSED: Final = frozenset({Variant.BACKGAMMON})


@dataclass(frozen=True)
class GameFinished:
    """Game ``number`` of a table (``"match"`` or ``"chouette"``) is over."""

    table: str
    table_id: int
    number: int


@dataclass(frozen=True)
class MatchFinished:
    """The match is over: ``info`` as it was before its last write, ``state`` its end."""

    info: MatchInfo
    state: MatchState


@dataclass(frozen=True)
class SessionEnded:
    """The chouette session has ended for good."""

    chouette_id: int


Event = GameFinished | MatchFinished | SessionEnded
E = TypeVar("E", GameFinished, MatchFinished, SessionEnded)


class EventHandlers:
    """Handlers by the kind of event they handle, run in the order registered."""

    def __init__(self) -> None:
        self._handlers: defaultdict[type[Any], list[Callable[[Any, Transaction], None]]] = (
            defaultdict(list)
        )

    def on(self, kind: type[E], handler: Callable[[E, Transaction], None]) -> None:
        self._handlers[kind].append(handler)

    def inside(self, events: Sequence[Event]) -> Then:
        """What to write inside the append's transaction for ``events`` (None: nothing)."""
        work = [
            (event, handler) for event in events for handler in self._handlers.get(type(event), [])
        ]
        if not work:
            return None

        def run(transaction: Transaction) -> None:
            for event, handler in work:
                handler(event, transaction)

        return run


def match_events(info: MatchInfo, before: MatchState, steps: Sequence[Step]) -> tuple[Event, ...]:
    """What ``steps``, planned from ``before``, set off: every game they finish and, when the
    last finishes the match, its end."""
    if not steps:
        return ()
    after = steps[-1].after
    events: list[Event] = [
        GameFinished("match", info.id, game.number) for game in after.games[len(before.games) :]
    ]
    if after.phase is Phase.FINISHED:
        events.append(MatchFinished(info, after))
    return tuple(events)


def free_seats(event: MatchFinished, transaction: Transaction) -> None:
    transaction.free_match_seats(event.info.id)


def queue_analysis(event: MatchFinished, transaction: Transaction) -> None:
    analysed = event.state.variant in ANALYSED
    transaction.queue_analysis(event.info.id, "pending" if analysed else "skipped")


def record_results(event: MatchFinished, transaction: Transaction) -> None:
    """Each person's result and, for a rated match, the rating change. Rated: a finished
    match of a set length between two people, not offered as unrated, with a winner
    (resignations, dropped doubles and time forfeits included). Money sessions, unrated
    matches and matches against the bot are not; the bot's matches still give its human
    opponent a result row naming the bot's level."""
    info, state = event.info, event.state
    players = info.player_ids
    bots = transaction.bots_among(players)
    seats = tuple(None if player in bots else player for player in players)
    rated = info.rated and not bots and state.rules.length > 0
    game = GAMES[state.variant]
    actions = transaction.match_actions(info.id)
    chat_id = transaction.home_chat(info.id, info.chat_id)  # a tournament's, from a thread too
    transaction.record_results(
        FinishedMatch(
            info.id, chat_id, game, state, actions, (seats[0], seats[1]), info.bot_level, rated
        )
    )
    winner = state.winner
    if rated and winner is not None:
        rate_match(
            transaction,
            match_id=info.id,
            chat_id=chat_id,
            game=game,
            length=state.rules.length,
            winner_id=players[winner],
            loser_id=players[1 - winner],
        )


def rate_match(
    transaction: Transaction,
    *,
    match_id: int,
    chat_id: int,
    game: str,
    length: int,
    winner_id: int,
    loser_id: int,
) -> RatedMatch:
    """Rate a finished match inside the transaction that finishes it: both standings locked
    (in the order of the user ids), the rule applied, the change written."""
    standings = transaction.locked_standings((winner_id, loser_id), game)
    winner, loser = standings[winner_id], standings[loser_id]
    change = rate(winner, loser, length)
    rated = RatedMatch(
        match_id, game, length, winner_id, loser_id, winner, loser, change.winner, change.loser
    )
    transaction.record_rating(rated, chat_id)
    return rated


def mark_game_over(event: GameFinished, transaction: Transaction) -> None:
    """A chouette's game stays marked over until its settlement writes the points (the clock
    settles a game whose process stopped before)."""
    if event.table == "chouette":
        transaction.mark_chouette_game_over(event.table_id)


def free_chat(event: SessionEnded, transaction: Transaction) -> None:
    transaction.free_chouette_chat(event.chouette_id)


def advance_tournament(event: MatchFinished, transaction: Transaction) -> None:
    """A tournament's match: its result in its slot, and the pairings it decides."""
    info = event.info
    tournament_advance(info.id, info.player_ids, event.state, transaction)


def end_handlers() -> EventHandlers:
    """Every handler, in the order they write: the one place they are registered."""
    handlers = EventHandlers()
    handlers.on(GameFinished, mark_game_over)
    handlers.on(MatchFinished, free_seats)
    handlers.on(MatchFinished, queue_analysis)
    handlers.on(MatchFinished, record_results)
    handlers.on(MatchFinished, advance_tournament)
    handlers.on(SessionEnded, free_chat)
    return handlers


HANDLERS: Final = end_handlers()


def match_then(info: MatchInfo, before: MatchState, steps: Sequence[Step]) -> Then:
    """What to write, inside the append of ``steps`` (planned from ``before``), for what
    they set off."""
    return HANDLERS.inside(match_events(info, before, steps))


def session_ended(chouette_id: int) -> Then:
    """What to write, inside the end of the session, for it."""
    return HANDLERS.inside([SessionEnded(chouette_id)])


def chouette_then(chouette_id: int, game_number: int, finished: bool) -> Then:
    """What to write, inside the append of a chouette game's actions, for what they set off:
    ``finished``, the rules say the game is over after them."""
    return HANDLERS.inside([GameFinished("chouette", chouette_id, game_number)] if finished else [])
