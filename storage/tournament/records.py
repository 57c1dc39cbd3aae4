"""What the tournament tables hold, as read."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import RowMapping


class TournamentStatus(enum.StrEnum):
    OPEN = "open"  # registration
    RUNNING = "running"
    PAUSED = "paused"  # no new match starts; those in play go on
    FINISHED = "finished"
    CANCELLED = "cancelled"


LIVE = (TournamentStatus.OPEN, TournamentStatus.RUNNING, TournamentStatus.PAUSED)


@dataclass(frozen=True)
class TournamentRecord:
    id: int
    chat_id: int
    organiser_id: int
    name: str
    slug: str
    format: dict[str, Any]
    lengths: dict[str, Any]
    rules: dict[str, Any]
    move_time_limit: int | None
    match_days: int | None
    rated: bool
    seeding: str
    seed_commitment: str
    status: TournamentStatus
    version: int
    closes_at: datetime | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    winner_id: int | None
    league_id: int | None
    season: int | None

    @classmethod
    def of(cls, row: RowMapping) -> TournamentRecord:
        values = {name: row[name] for name in cls.__dataclass_fields__}
        values["status"] = TournamentStatus(row["status"])
        return cls(**values)


@dataclass(frozen=True)
class EntrantRecord:
    user_id: int
    seed: int | None
    division: int | None
    joined_at: datetime
    withdrawn_at: datetime | None

    @classmethod
    def of(cls, row: RowMapping) -> EntrantRecord:
        return cls(
            row["user_id"], row["seed"], row["division"], row["joined_at"], row["withdrawn_at"]
        )


@dataclass(frozen=True)
class TournamentMatchRecord:
    """A slot's pairing and, once played, its result (``winner_id`` set)."""

    tournament_id: int
    slot: str
    player_ids: tuple[int, int]
    length: int
    id: int
    match_id: int | None
    paired_at: datetime
    deadline: datetime | None
    winner_id: int | None
    loser_id: int | None
    winner_points: int | None
    loser_points: int | None
    walkover: bool
    finished_at: datetime | None
    announced_at: datetime | None = None
    dice_commitment: str | None = None
    thread_chat_id: int | None = None  # the chat of the thread opened for it, if any

    @property
    def decided(self) -> bool:
        return self.winner_id is not None

    @classmethod
    def of(cls, row: RowMapping) -> TournamentMatchRecord:
        return cls(
            row["tournament_id"],
            row["slot"],
            (row["player0_id"], row["player1_id"]),
            row["length"],
            row["id"],
            row["match_id"],
            row["paired_at"],
            row["deadline"],
            row["winner_id"],
            row["loser_id"],
            row["winner_points"],
            row["loser_points"],
            bool(row["walkover"]),
            row["finished_at"],
            row["announced_at"],
            row["dice_commitment"],
            row["thread_chat_id"],
        )


@dataclass(frozen=True)
class TournamentSnapshot:
    """A tournament with its entrants and matches, read together (in one transaction when
    advancing it)."""

    tournament: TournamentRecord
    entrants: tuple[EntrantRecord, ...]
    matches: tuple[TournamentMatchRecord, ...]

    @property
    def seeded(self) -> list[int]:
        """The entrants in seed order (1 first); those without a seed (not started) last,
        in the order they joined."""
        return [
            entrant.user_id
            for entrant in sorted(
                self.entrants,
                key=lambda e: (e.seed is None, e.seed or 0, e.joined_at, e.user_id),
            )
        ]

    @property
    def withdrawn(self) -> frozenset[int]:
        return frozenset(e.user_id for e in self.entrants if e.withdrawn_at is not None)


@dataclass(frozen=True)
class Pairing:
    """A slot to write as paired: its players, length and deadline, and (a walkover) its
    result at once."""

    slot: str
    player_ids: tuple[int, int]
    length: int
    deadline: datetime | None = None
    walkover_winner: int | None = None
