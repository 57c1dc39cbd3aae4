"""What the handlers of a table's events may read and write inside the transaction that
appends the events (:mod:`storage.event_log`): a match's end frees its seats, queues its
analysis, writes each person's result and, for a rated match, the rating change; a session's
end frees its chat. The command layer decides what happens (:mod:`bot.core.events`); this is
only how it is persisted, in the same transaction, so that a crash leaves all of it or none
and a match is rated exactly once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

import sqlalchemy as sa

from gammon.actions import Action, action_from_dict
from gammon.standing import Standing
from storage.direct import DirectConnection
from storage.player_results import FinishedMatch, record_results
from storage.ratings import RatedMatch, locked_standings, record_rating
from storage.schema import (
    chouette_requests,
    chouettes,
    match_analyses,
    match_events,
    match_seats,
    open_chouettes,
    users,
)
from storage.tournament import sql as tournament_sql
from storage.tournament.records import Pairing, TournamentSnapshot


class Transaction:
    """The open write transaction of an append, at the moment it is written."""

    def __init__(self, connection: DirectConnection, moment: datetime) -> None:
        self._connection = connection
        self.moment = moment

    def bots_among(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these users are the bot."""
        return set(
            self._connection.execute(
                sa.select(users.c.id).where(users.c.id.in_(list(user_ids)), users.c.is_bot)
            ).scalars()
        )

    def match_actions(self, match_id: int) -> list[Action]:
        """The match's whole log, the events of this transaction included."""
        return [
            action_from_dict(action)
            for action in self._connection.execute(
                sa.select(match_events.c.action)
                .where(match_events.c.match_id == match_id)
                .order_by(match_events.c.seq)
            ).scalars()
        ]

    def free_match_seats(self, match_id: int) -> None:
        """The match's players may start another match in its chat."""
        self._connection.execute(sa.delete(match_seats).where(match_seats.c.match_id == match_id))

    def queue_analysis(self, match_id: int, status: str) -> None:
        """The match's analysis, to be done (``pending``) or not (``skipped``)."""
        self._connection.execute(
            sa.insert(match_analyses),
            {"match_id": match_id, "status": status, "level": "", "requested_at": self.moment},
        )

    def record_results(self, finished: FinishedMatch) -> None:
        """Each person's result of the finished match."""
        record_results(self._connection, finished, self.moment)

    def locked_standings(self, user_ids: Iterable[int], game: str) -> dict[int, Standing]:
        """The players' standings in ``game``, locked until the transaction ends."""
        return locked_standings(self._connection, user_ids, game, self.moment)

    def record_rating(self, rated: RatedMatch, chat_id: int) -> None:
        """A rated match's change, its standings read with :meth:`locked_standings`."""
        record_rating(self._connection, rated, chat_id, self.moment)

    def mark_chouette_game_over(self, chouette_id: int) -> None:
        """The session's running game is over, its points not written yet."""
        self._connection.execute(
            sa.update(chouettes)
            .where(chouettes.c.id == chouette_id)
            .values(game_over_at=self.moment)
        )

    def free_chouette_chat(self, chouette_id: int) -> None:
        """The session's chat may open another; the seat requests of its game are void."""
        self._connection.execute(
            sa.delete(open_chouettes).where(open_chouettes.c.chouette_id == chouette_id)
        )
        self._connection.execute(
            sa.delete(chouette_requests).where(chouette_requests.c.chouette_id == chouette_id)
        )

    def tournament_slot_of(self, match_id: int) -> tuple[int, str] | None:
        """The tournament and slot the match was played for, if any."""
        return tournament_sql.slot_of_match(self._connection, match_id)

    def home_chat(self, match_id: int, chat_id: int) -> int:
        """The chat a match's results count in: its tournament's (a pairing may play in a
        thread of it), else its own ``chat_id``."""
        found = tournament_sql.chat_of_match(self._connection, match_id)
        return chat_id if found is None else found

    def record_tournament_result(
        self,
        tournament_id: int,
        slot: str,
        players: tuple[int, int],
        points: tuple[int, int],
        walkover: bool = False,
    ) -> bool:
        """The slot's result (winner, loser; their points at the end); False when it had one."""
        return tournament_sql.record_result(
            self._connection, tournament_id, slot, players, points, self.moment, walkover
        )

    def locked_tournament(self, tournament_id: int) -> TournamentSnapshot:
        """The tournament whole, locked until the transaction ends: two of its matches ending
        at once advance it one after the other."""
        return tournament_sql.snapshot(self._connection, tournament_id, lock=True)

    def add_tournament_pairings(self, tournament_id: int, pairings: Sequence[Pairing]) -> None:
        tournament_sql.add_pairings(self._connection, tournament_id, pairings, self.moment)

    def finish_tournament(self, tournament_id: int, winner: int) -> None:
        tournament_sql.finish(self._connection, tournament_id, winner, self.moment)
