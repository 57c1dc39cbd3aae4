"""Each player's result of every finished match, and the statistics ``/stats`` shows.

A row per person is written in the transaction that finishes the match (the bot has no row:
its opponent's row names its level), counted from the final state and the match's actions, so
the statistics never replay a log and never miss or double a match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from gammon.actions import Action, Beaver, Double, Drop, Take, WinKind
from gammon.flow import GameEnd, MatchState
from storage.database import Database
from storage.direct import DirectConnection
from storage.schema import player_results, users

TOP_OPPONENTS = 3


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match as its players' results are counted from it: ``seats`` are the user
    ids (None for the bot), ``game`` the ratings' name of its variant."""

    match_id: int
    chat_id: int
    game: str
    state: MatchState
    actions: Sequence[Action]
    seats: tuple[int | None, int | None]
    bot_level: str | None
    rated: bool


def record_results(connection: DirectConnection, finished: FinishedMatch, moment: datetime) -> None:
    """One row for each person of the finished match, inside the caller's transaction."""
    state, actions, seats = finished.state, finished.actions, finished.seats
    rows = []
    for seat, user_id in enumerate(seats):
        if user_id is None:
            continue
        # A forfeit ends the match but was no game played out: it counts as a match won.
        played = [game for game in state.games if game.reason != GameEnd.FORFEIT]
        won_games = [game for game in played if game.winner == seat]
        winner = state.winner
        rows.append(
            {
                "match_id": finished.match_id,
                "user_id": user_id,
                "chat_id": finished.chat_id,
                "game": finished.game,
                "opponent_id": seats[1 - seat],
                "bot_level": finished.bot_level,
                "length": state.rules.length,
                "rated": finished.rated,
                "won": None if winner is None or state.rules.length == 0 else winner == seat,
                "singles_won": sum(game.kind is WinKind.SINGLE for game in won_games),
                "gammons_won": sum(game.kind is WinKind.GAMMON for game in won_games),
                "backgammons_won": sum(game.kind is WinKind.BACKGAMMON for game in won_games),
                "games_lost": sum(game.winner == 1 - seat for game in played),
                "doubles_offered": _count(actions, seat, (Double,)),
                "doubles_taken": _count(actions, seat, (Take, Beaver)),
                "doubles_dropped": _count(actions, seat, (Drop,)),
                "finished_at": moment,
            }
        )
    if rows:
        connection.execute(sa.insert(player_results), rows)


def _count(actions: Sequence[Action], seat: int, kinds: tuple[type, ...]) -> int:
    return sum(
        isinstance(action, kinds) and getattr(action, "player", None) == seat for action in actions
    )


@dataclass(frozen=True)
class Opponent:
    user_id: int
    display_name: str
    matches: int


@dataclass
class Statistics:
    """A player's results against people (and their record against each bot level)."""

    matches_won: int = 0
    matches_lost: int = 0
    singles_won: int = 0
    gammons_won: int = 0
    backgammons_won: int = 0
    games_lost: int = 0
    doubles_offered: int = 0
    doubles_taken: int = 0
    doubles_dropped: int = 0
    current_streak: int = 0  # matches won in a row up to the last one
    longest_streak: int = 0
    opponents: list[Opponent] = field(default_factory=list)
    against_bot: dict[str, tuple[int, int]] = field(default_factory=dict)  # level: won, lost
    error_rate: float | None = None  # the average over the analysed matches
    analysed: int = 0

    @property
    def played(self) -> int:
        return self.matches_won + self.matches_lost


def _streaks(results: Sequence[bool]) -> tuple[int, int]:
    """The current and the longest run of wins in ``results`` (oldest first).

    >>> _streaks([True, True, False, True, True, True, False, True])
    (1, 3)
    >>> _streaks([])
    (0, 0)
    """
    current = longest = 0
    for won in results:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest


class PlayerResultRepository:
    def __init__(self, database: Database) -> None:
        self.engine = database.engine

    async def statistics(self, user_id: int, game: str, chat_id: int | None = None) -> Statistics:
        """The player's statistics in ``game``, overall or in one chat: three reads in one
        hand-over to the database."""
        mine = [player_results.c.user_id == user_id, player_results.c.game == game]
        if chat_id is not None:
            mine.append(player_results.c.chat_id == chat_id)
        people = [*mine, player_results.c.opponent_id.is_not(None)]
        c = player_results.c
        totals = sa.select(
            sa.func.count(c.match_id),
            *(
                sa.func.coalesce(sa.func.sum(column), 0)
                for column in (
                    c.singles_won,
                    c.gammons_won,
                    c.backgammons_won,
                    c.games_lost,
                    c.doubles_offered,
                    c.doubles_taken,
                    c.doubles_dropped,
                )
            ),
        ).where(*people)
        # The error rate is the player's own play, against people and the bot alike.
        errors = sa.select(sa.func.avg(c.error_rate), sa.func.count(c.error_rate)).where(*mine)
        outcomes = (
            sa.select(c.won).where(*people, c.won.is_not(None)).order_by(c.finished_at, c.match_id)
        )
        opponents = (
            sa.select(c.opponent_id, users.c.display_name, sa.func.count().label("matches"))
            .join(users, users.c.id == c.opponent_id)
            .where(*people)
            .group_by(c.opponent_id, users.c.display_name)
            .order_by(sa.func.count().desc(), c.opponent_id)
            .limit(TOP_OPPONENTS)
        )
        bots = (
            sa.select(c.bot_level, c.won, sa.func.count())
            .where(*mine, c.opponent_id.is_(None), c.won.is_not(None))
            .group_by(c.bot_level, c.won)
        )
        total, error_row, outcome_rows, opponent_rows, bot_rows = await self.engine.read_many(
            (totals, None), (errors, None), (outcomes, None), (opponents, None), (bots, None)
        )
        return _statistics(
            (*total.one(), *error_row.one()),
            outcome_rows.scalars(),
            opponent_rows.all(),
            bot_rows.all(),
        )


def _statistics(
    totals: Any,
    outcomes: list[bool],
    opponents: list[Any],
    bots: list[Any],
) -> Statistics:
    counts, (average_error, analysed) = totals[:8], totals[8:]
    _, singles, gammons, backgammons, lost, offered, taken, dropped = (int(x) for x in counts)
    current, longest = _streaks([bool(won) for won in outcomes])
    against_bot: dict[str, tuple[int, int]] = {}
    for level, won, count in bots:  # rows of (bot_level, won, count)
        wins, losses = against_bot.get(level, (0, 0))
        against_bot[level] = (wins + count, losses) if won else (wins, losses + count)
    return Statistics(
        matches_won=sum(bool(won) for won in outcomes),
        matches_lost=sum(not won for won in outcomes),
        singles_won=singles,
        gammons_won=gammons,
        backgammons_won=backgammons,
        games_lost=lost,
        doubles_offered=offered,
        doubles_taken=taken,
        doubles_dropped=dropped,
        current_streak=current,
        longest_streak=longest,
        opponents=[Opponent(row[0], row[1], row[2]) for row in opponents],
        against_bot=against_bot,
        error_rate=None if average_error is None else float(average_error),
        analysed=int(analysed),
    )
