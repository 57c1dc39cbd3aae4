"""The database: schema and migrations, and repositories (the only place with SQL)."""

from storage.challenges import ChallengeRepository
from storage.database import DEFAULT_URL, Database
from storage.errors import ConflictError, NotFoundError, SeedStillSecretError, StorageError
from storage.matches import MatchRepository
from storage.people import ChatRepository, UserRepository
from storage.posted import PostedMessageRepository
from storage.records import (
    Appended,
    ChallengeRecord,
    ChatRecord,
    LoadedMatch,
    MatchInfo,
    UserRecord,
)

__all__ = [
    "DEFAULT_URL",
    "Appended",
    "ChallengeRecord",
    "ChallengeRepository",
    "ChatRecord",
    "ChatRepository",
    "ConflictError",
    "Database",
    "LoadedMatch",
    "MatchInfo",
    "MatchRepository",
    "NotFoundError",
    "PostedMessageRepository",
    "SeedStillSecretError",
    "StorageError",
    "UserRecord",
    "UserRepository",
]
