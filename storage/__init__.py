"""The database: schema and migrations, and repositories (the only place with SQL)."""

from gammon.flow import Step
from storage.analyses import AnalysisRecord, AnalysisRepository, AnalysisStatus
from storage.challenges import ChallengeLimits, ChallengeRepository
from storage.chouette.dice import ChouetteRoll, RollKind
from storage.chouette.records import (
    ChouetteGameRecord,
    ChouetteInfo,
    ChouetteStatus,
    LoadedChouette,
)
from storage.chouettes import ChouetteRepository
from storage.database import DEFAULT_URL, Database
from storage.dice import DiceRepository, SecretSeed
from storage.errors import (
    AlreadyAppliedError,
    ChallengeLimitError,
    ChouetteEndedError,
    ChouetteExistsError,
    ConflictError,
    NotFoundError,
    SeatTakenError,
    SeedStillSecretError,
    StorageError,
)
from storage.inbox import InboxRepository, InboxUpdate
from storage.matches import MatchRepository
from storage.page_secret import PageSecretRepository
from storage.people import ChatRepository, UserRepository
from storage.posted import PostedMessageRepository
from storage.rating_repository import Ranked, RatingRepository, RebuildReport
from storage.ratings import RatedMatch
from storage.records import (
    Appended,
    ChallengeRecord,
    ChallengeState,
    ChatRecord,
    LoadedMatch,
    Logged,
    MatchClock,
    MatchInfo,
    MatchStatus,
    PendingMove,
    Preferences,
    UserRecord,
)
from storage.tournament.records import LIVE as LIVE_TOURNAMENT
from storage.tournament.records import (
    EntrantRecord,
    TournamentMatchRecord,
    TournamentRecord,
    TournamentSnapshot,
    TournamentStatus,
)
from storage.tournament.records import Pairing as TournamentPairing
from storage.tournament.repository import TournamentRepository

__all__ = [
    "DEFAULT_URL",
    "LIVE_TOURNAMENT",
    "AlreadyAppliedError",
    "AnalysisRecord",
    "AnalysisRepository",
    "AnalysisStatus",
    "Appended",
    "ChallengeLimitError",
    "ChallengeLimits",
    "ChallengeRecord",
    "ChallengeRepository",
    "ChallengeState",
    "ChatRecord",
    "ChatRepository",
    "ChouetteEndedError",
    "ChouetteExistsError",
    "ChouetteGameRecord",
    "ChouetteInfo",
    "ChouetteRepository",
    "ChouetteRoll",
    "ChouetteStatus",
    "ConflictError",
    "Database",
    "DiceRepository",
    "EntrantRecord",
    "InboxRepository",
    "InboxUpdate",
    "LoadedChouette",
    "LoadedMatch",
    "Logged",
    "MatchClock",
    "MatchInfo",
    "MatchRepository",
    "MatchStatus",
    "NotFoundError",
    "PageSecretRepository",
    "PendingMove",
    "PostedMessageRepository",
    "Preferences",
    "Ranked",
    "RatedMatch",
    "RatingRepository",
    "RebuildReport",
    "RollKind",
    "SeatTakenError",
    "SecretSeed",
    "SeedStillSecretError",
    "Step",
    "StorageError",
    "TournamentMatchRecord",
    "TournamentPairing",
    "TournamentRecord",
    "TournamentRepository",
    "TournamentSnapshot",
    "TournamentStatus",
    "UserRecord",
    "UserRepository",
]
