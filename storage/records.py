"""What the repositories hand out: plain frozen values, never the unrevealed server seed."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from functools import cached_property
from typing import Any

from gammon.actions import Action
from gammon.flow import MatchState, Step
from gammon.match_rules import MatchRules


@dataclass(frozen=True)
class Preferences:
    """What a user chose in /settings and /language, typed. Stored as JSON that older
    versions, hand edits or a removed setting may have left odd: ``from_json`` takes what
    it recognises and falls back to the default for anything missing, unknown or mistyped,
    so a bad value never breaks a request."""

    auto_roll: bool = True
    auto_forced: bool = True
    confirm_moves: bool = False
    notify: bool = True
    theme: str = "classic"  # the renderer falls back to its default for a name it lacks
    language: str | None = None

    @classmethod
    def from_json(cls, stored: object) -> Preferences:
        if not isinstance(stored, dict):
            return cls()
        kept: dict[str, Any] = {}
        for option in fields(cls):
            value = stored.get(option.name)
            wanted = bool if isinstance(option.default, bool) else str  # the rest are texts
            if isinstance(value, wanted) and value != "":
                kept[option.name] = value
        return cls(**kept)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class PendingMove:
    """A play shown with [Confirm] and [Change], for the match at this version."""

    match_id: int
    version: int
    play: str


class MatchStatus(enum.StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"  # by play, or a claimed forfeit
    ABANDONED = "abandoned"  # closed without being played out (e.g. an unreachable duplicate)
    EXPIRED = "expired"


class ChallengeState(enum.StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


@dataclass(frozen=True)
class UserRecord:
    id: int
    platform: str
    platform_user_id: str
    display_name: str
    locale: str | None
    # The stored JSON as it is, for readers of single keys; ``prefs`` is the typed view.
    preferences: dict[str, Any] = field(default_factory=dict)
    pending_move: PendingMove | None = None
    unreachable: bool = False  # private messages to the user fail
    next_seed: str | None = None  # the client seed chosen with /seed, not used yet
    next_seed_at: datetime | None = None  # when it was chosen
    is_bot: bool = False  # the bot's own account on its platform

    @cached_property
    def prefs(self) -> Preferences:
        """The preferences, typed and with defaults filled in."""
        return Preferences.from_json(self.preferences)


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
    state: ChallengeState
    expires_at: datetime
    message_ref: str | None
    match_id: int | None
    dice_commitment: str | None = None  # of the server seed drawn with the challenge
    created_at: datetime | None = None
    hints: bool = False  # the match it starts allows /hint (both players agree to it)
    rated: bool = True  # the match it starts changes its players' ratings
    bot_level: str | None = None  # a challenge to the bot, which plays at this level


@dataclass(frozen=True)
class MatchClock:
    """A match clock as stored (:mod:`storage.match.clock_columns`): each seat's reserve left
    in ms, the seat whose period runs (``None``: none), since when, and when it runs out."""

    reserves: tuple[int, int]
    running: int | None
    started_at: datetime | None
    deadline: datetime | None


@dataclass(frozen=True)
class MatchInfo:
    """A match's row without its state or secrets."""

    id: int
    chat_id: int
    player_ids: tuple[int, int]
    rules: MatchRules
    status: MatchStatus
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
    bot_level: str | None = None  # the bot plays one seat at this level
    hints: bool = False  # /hint is allowed (always in a match against the bot)
    rated: bool = True  # not offered as unrated (a match against the bot is never rated)
    slug: str = ""  # the unguessable part of its web addresses (/m/<slug>)
    clock: MatchClock | None = None  # a match clock (rules.clock) as it stands

    def player_index(self, user_id: int) -> int | None:
        if user_id == self.player_ids[0]:
            return 0
        if user_id == self.player_ids[1]:
            return 1
        return None


@dataclass(frozen=True)
class Logged:
    """One action of a match's log and who made the write it began: a person's (or the
    bot's) user id on the first action of each write made for them, None on what followed
    by itself and on writes nobody asked for (the opening roll, the clock's)."""

    seq: int
    action: Action
    actor_id: int | None


@dataclass(frozen=True)
class LoadedMatch:
    """A match's row and its current state. The state's ``actions`` are only those applied
    since it was loaded (none from a snapshot, which leaves the history to the event log):
    ``MatchRepository.with_history`` gives the whole history."""

    info: MatchInfo
    state: MatchState


@dataclass(frozen=True)
class Appended:
    """The outcome of an append: the new state and version, the actions recorded, and the
    steps that recorded them (the caller's action first, then the automatic ones)."""

    match: LoadedMatch
    recorded: tuple[Any, ...]
    steps: tuple[Step, ...] = ()
