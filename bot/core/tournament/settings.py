"""A tournament's settings as stored (``tournaments.format`` and ``.lengths``, plain JSON) and
the format object they make (:mod:`gammon.tournament`).

``format``: ``{"kind": "single", "consolation": true, "last_chance": true}``,
``{"kind": "double"}``, ``{"kind": "round_robin", "group_size": 8, "playoff": true}``,
``{"kind": "swiss", "rounds": 5}`` or ``{"kind": "league", "promoted": 2, "relegated": 2}``
(a league season: its divisions are the entrants' ``division``, 1 the top), with
``"threads": false`` when its pairings play in the chat itself rather than in threads.
``lengths``: ``{"default": 7, "by_bracket": {"consolation": 5}, "by_stage": {"final": 9}}``.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gammon.tournament import (
    Bracket,
    DoubleElimination,
    Format,
    League,
    Lengths,
    RoundRobin,
    SingleElimination,
    Stage,
    Swiss,
)
from storage import TournamentRecord, TournamentSnapshot


class Kind(enum.StrEnum):
    SINGLE = "single"
    DOUBLE = "double"
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    LEAGUE = "league"


@dataclass(frozen=True)
class TournamentSettings:
    kind: Kind
    lengths: Lengths
    consolation: bool = False
    last_chance: bool = False
    group_size: int = 8
    playoff: bool = False
    rounds: int = 0
    promoted: int = 2
    relegated: int = 2
    match_days: int | None = None
    threads: bool = True  # each pairing in a thread of its own, where the platform has them

    @classmethod
    def of(cls, record: TournamentRecord) -> TournamentSettings:
        stored = record.format
        return cls(
            Kind(stored["kind"]),
            lengths_of(record.lengths),
            consolation=bool(stored.get("consolation", False)),
            last_chance=bool(stored.get("last_chance", False)),
            group_size=int(stored.get("group_size", 8)),
            playoff=bool(stored.get("playoff", False)),
            rounds=int(stored.get("rounds", 0)),
            promoted=int(stored.get("promoted", 2)),
            relegated=int(stored.get("relegated", 2)),
            match_days=record.match_days,
            threads=bool(stored.get("threads", True)),
        )

    def stored_format(self) -> dict[str, Any]:
        """What ``tournaments.format`` keeps."""
        stored: dict[str, Any] = {"kind": self.kind.value}
        if self.kind is Kind.SINGLE:
            stored |= {"consolation": self.consolation, "last_chance": self.last_chance}
        elif self.kind is Kind.ROUND_ROBIN:
            stored |= {"group_size": self.group_size, "playoff": self.playoff}
        elif self.kind is Kind.SWISS:
            stored |= {"rounds": self.rounds}
        elif self.kind is Kind.LEAGUE:
            stored |= {"promoted": self.promoted, "relegated": self.relegated}
        if not self.threads:
            stored["threads"] = False
        return stored

    def format(self, snapshot: TournamentSnapshot) -> Format:
        """The format that derives this tournament (a league season's divisions from its
        entrants)."""
        if self.kind is Kind.SINGLE:
            return SingleElimination(self.consolation, self.last_chance)
        if self.kind is Kind.DOUBLE:
            return DoubleElimination()
        if self.kind is Kind.ROUND_ROBIN:
            return RoundRobin(self.group_size, self.playoff)
        if self.kind is Kind.SWISS:
            return Swiss(self.rounds)
        seeded = snapshot.seeded
        division = {entrant.user_id: entrant.division or 1 for entrant in snapshot.entrants}
        count = max(division.values(), default=1)
        divisions = [
            [player for player in seeded if division[player] == number]
            for number in range(1, count + 1)
        ]
        return League(divisions, self.promoted, self.relegated)


def stored_lengths(lengths: Lengths) -> dict[str, Any]:
    """What ``tournaments.lengths`` keeps."""
    return {
        "default": lengths.default,
        "by_bracket": {str(bracket): length for bracket, length in lengths.by_bracket.items()},
        "by_stage": {str(stage): length for stage, length in lengths.by_stage.items()},
    }


def lengths_of(stored: Mapping[str, Any]) -> Lengths:
    return Lengths(
        int(stored["default"]),
        {Bracket(name): int(length) for name, length in stored.get("by_bracket", {}).items()},
        {Stage(name): int(length) for name, length in stored.get("by_stage", {}).items()},
    )
