"""What the repositories hand out: plain frozen values, never the unrevealed server seed."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gammon.flow import MatchState
from gammon.match_rules import MatchRules


@dataclass(frozen=True)
class UserRecord:
    id: int
    platform: str
    platform_user_id: str
    display_name: str
    locale: str | None
    preferences: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChatRecord:
    id: int
    platform: str
    platform_chat_id: str
    locale: str | None
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ChallengeRecord:
    id: int
    chat_id: int
    challenger_id: int
    challenged_id: int | None
    rules: MatchRules
    move_time_limit: int | None
    state: str  # open | accepted | declined | cancelled | expired
    expires_at: datetime
    message_ref: str | None
    match_id: int | None
    dice_commitment: str | None = None  # of the server seed drawn with the challenge
    created_at: datetime | None = None


@dataclass(frozen=True)
class MatchInfo:
    """A match's row without its state or secrets."""

    id: int
    chat_id: int
    player_ids: tuple[int, int]
    rules: MatchRules
    status: str  # active | finished | abandoned | expired
    version: int
    turn_user_id: int | None
    dice_commitment: str
    client_seeds: tuple[str, str]
    move_time_limit: int | None
    deadline: datetime | None
    board_messages: dict[str, Any]
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None

    def player_index(self, user_id: int) -> int | None:
        if user_id == self.player_ids[0]:
            return 0
        if user_id == self.player_ids[1]:
            return 1
        return None


@dataclass(frozen=True)
class LoadedMatch:
    """A match's row and its current state. The state's ``actions`` are only those applied
    since it was loaded (none from a snapshot, which leaves the history to the event log):
    ``MatchRepository.with_history`` gives the whole history."""

    info: MatchInfo
    state: MatchState


@dataclass(frozen=True)
class Step:
    """One action applied: the state before, what was recorded (the action in canonical form,
    then what followed by itself: a CannotMove right after a roll that cannot be played, so a
    dance's dice are in the step itself) and the state after."""

    before: MatchState
    recorded: tuple[Any, ...]
    after: MatchState


@dataclass(frozen=True)
class Appended:
    """The outcome of an append: the new state and version, the actions recorded, and the
    steps that recorded them (the caller's action first, then the automatic ones)."""

    match: LoadedMatch
    recorded: tuple[Any, ...]
    steps: tuple[Step, ...] = ()
