"""The tournament statements that run inside a caller's transaction: read a tournament whole
(locked when it is to be advanced), record a result, write new pairings, mark the end. The
match-end transaction uses them (:class:`storage.transaction.Transaction`), so a result and
the pairings it decides are written together or not at all."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa

from storage.direct import DirectConnection
from storage.errors import NotFoundError
from storage.schema import tournament_entrants, tournament_matches, tournaments
from storage.tournament.records import (
    EntrantRecord,
    Pairing,
    TournamentMatchRecord,
    TournamentRecord,
    TournamentSnapshot,
    TournamentStatus,
)

_TOURNAMENT = sa.select(tournaments).where(tournaments.c.id == sa.bindparam("tournament"))
# Written onto itself first: the row's lock (PostgreSQL) or the write lock (SQLite) makes two
# matches of one tournament ending at once advance it one after the other.
_LOCK = (
    sa.update(tournaments)
    .where(tournaments.c.id == sa.bindparam("tournament"))
    .values(version=tournaments.c.version + 1)
    .returning(*tournaments.c)
)
_ENTRANTS = (
    sa.select(tournament_entrants)
    .where(tournament_entrants.c.tournament_id == sa.bindparam("tournament"))
    .order_by(tournament_entrants.c.joined_at, tournament_entrants.c.user_id)
)
_MATCHES = (
    sa.select(tournament_matches)
    .where(tournament_matches.c.tournament_id == sa.bindparam("tournament"))
    .order_by(tournament_matches.c.id)
)
_SLOT_OF_MATCH = sa.select(tournament_matches.c.tournament_id, tournament_matches.c.slot).where(
    tournament_matches.c.match_id == sa.bindparam("match")
)
_CHAT_OF_MATCH = (
    sa.select(tournaments.c.chat_id)
    .join(tournament_matches, tournament_matches.c.tournament_id == tournaments.c.id)
    .where(tournament_matches.c.match_id == sa.bindparam("match"))
)
_RESULT = (
    sa.update(tournament_matches)
    .where(
        tournament_matches.c.tournament_id == sa.bindparam("tournament"),
        tournament_matches.c.slot == sa.bindparam("key"),
        tournament_matches.c.winner_id.is_(None),
    )
    .values(
        winner_id=sa.bindparam("winner"),
        loser_id=sa.bindparam("loser"),
        winner_points=sa.bindparam("winner_points"),
        loser_points=sa.bindparam("loser_points"),
        walkover=sa.bindparam("walkover"),
        finished_at=sa.bindparam("moment"),
    )
)
_PAIR = sa.insert(tournament_matches)
_FINISH = (
    sa.update(tournaments)
    .where(tournaments.c.id == sa.bindparam("tournament"))
    .values(
        status=TournamentStatus.FINISHED.value,
        winner_id=sa.bindparam("winner"),
        finished_at=sa.bindparam("moment"),
    )
)


def snapshot(connection: DirectConnection, tournament_id: int, lock: bool) -> TournamentSnapshot:
    """The tournament with its entrants and matches; ``lock``: advanced by this transaction
    (its version goes up, and another transaction advancing it waits for this one)."""
    asked = {"tournament": tournament_id}
    row = connection.execute(_LOCK if lock else _TOURNAMENT, asked).first()
    if row is None:
        raise NotFoundError(f"no tournament {tournament_id}")
    entrants = connection.execute(_ENTRANTS, asked).all()
    matches = connection.execute(_MATCHES, asked).all()
    return TournamentSnapshot(
        TournamentRecord.of(row._mapping),
        tuple(EntrantRecord.of(entrant._mapping) for entrant in entrants),
        tuple(TournamentMatchRecord.of(match._mapping) for match in matches),
    )


def slot_of_match(connection: DirectConnection, match_id: int) -> tuple[int, str] | None:
    """The tournament and slot the match was started for, if any."""
    row = connection.execute(_SLOT_OF_MATCH, {"match": match_id}).first()
    return None if row is None else (int(row[0]), str(row[1]))


def chat_of_match(connection: DirectConnection, match_id: int) -> int | None:
    """The chat of the tournament the match was started for, if any (the match itself may
    be played in a thread of that chat)."""
    found = connection.execute(_CHAT_OF_MATCH, {"match": match_id}).scalar()
    return None if found is None else int(found)


def record_result(
    connection: DirectConnection,
    tournament_id: int,
    slot: str,
    players: tuple[int, int],
    points: tuple[int, int],
    moment: datetime,
    walkover: bool = False,
) -> bool:
    """The slot's result (``players``: winner, loser; ``points``: theirs at the end); False
    when it had one already."""
    written = connection.execute(
        _RESULT,
        {
            "tournament": tournament_id,
            "key": slot,
            "winner": players[0],
            "loser": players[1],
            "winner_points": points[0],
            "loser_points": points[1],
            "walkover": walkover,
            "moment": moment,
        },
    )
    return written.rowcount == 1


def add_pairings(
    connection: DirectConnection,
    tournament_id: int,
    pairings: Sequence[Pairing],
    moment: datetime,
) -> None:
    """The slots now known, each written once (the primary key refuses a slot twice); a
    walkover is written with its result."""
    for pairing in pairings:
        winner = pairing.walkover_winner
        loser = None
        if winner is not None:
            first, second = pairing.player_ids
            loser = second if winner == first else first
        connection.execute(
            _PAIR,
            {
                "tournament_id": tournament_id,
                "slot": pairing.slot,
                "player0_id": pairing.player_ids[0],
                "player1_id": pairing.player_ids[1],
                "length": pairing.length,
                "match_id": None,
                "paired_at": moment,
                "deadline": pairing.deadline,
                "winner_id": winner,
                "loser_id": loser,
                "winner_points": None if winner is None else pairing.length,
                "loser_points": None if winner is None else 0,
                "walkover": winner is not None,
                "finished_at": None if winner is None else moment,
            },
        )


def finish(connection: DirectConnection, tournament_id: int, winner: int, moment: datetime) -> None:
    connection.execute(_FINISH, {"tournament": tournament_id, "winner": winner, "moment": moment})
