"""The database: schema and migrations, and repositories (the only place with SQL)."""

from storage.challenges import ChallengeLimits, ChallengeRepository
from storage.database import DEFAULT_URL, Database
from storage.errors import (
    ChallengeLimitError,
    ConflictError,
    NotFoundError,
    SeatTakenError,
    SeedStillSecretError,
    StorageError,
)
from storage.matches import FollowUp, MatchRepository, Roller
from storage.people import ChatRepository, UserRepository
from storage.posted import PostedMessageRepository
from storage.records import (
    Appended,
    ChallengeRecord,
    ChallengeState,
    ChatRecord,
    LoadedMatch,
    MatchInfo,
    MatchStatus,
    PendingMove,
    Preferences,
    Step,
    UserRecord,
)

__all__ = [
    "DEFAULT_URL",
    "Appended",
    "ChallengeLimitError",
    "ChallengeLimits",
    "ChallengeRecord",
    "ChallengeRepository",
    "ChallengeState",
    "ChatRecord",
    "ChatRepository",
    "ConflictError",
    "Database",
    "FollowUp",
    "LoadedMatch",
    "MatchInfo",
    "MatchRepository",
    "MatchStatus",
    "NotFoundError",
    "PendingMove",
    "PostedMessageRepository",
    "Preferences",
    "Roller",
    "SeatTakenError",
    "SeedStillSecretError",
    "Step",
    "StorageError",
    "UserRecord",
    "UserRepository",
]
